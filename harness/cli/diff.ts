// `saltnet diff <files or globs>`: run scenario files on two sides (two backends, or one backend
// with two bin dirs) and report every step whose status or answer differs; exit 0 only when
// nothing diverged beyond the accept file and nothing ended in an infrastructure error. With
// `--against <recording>`, side B is a recording (harness/diff/recording.ts) and only side A runs.
import { checkOutputPath, writeOutputFile } from '../common/output-file.js';
import { lockOutput } from '../process/output-lock.js';
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Argv, CommandModule } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { configOption, givenFlags } from '../config/yargs.js';
import { DEFAULT_ACCEPT_FILE } from '../diff/accept.js';
import { diffAgainstRecording, diffScenarios, type DiffHooks, type DiffOptions } from '../diff/diff.js';
import { describeSide, diffToText, diffToJson, diffToJUnit } from '../diff/report.js';
import type { DiffResult, DiffSide } from '../diff/types.js';
import type { BackendName } from '../coin/backends.js';
import { expandFiles } from './run.js';
import { backendChoices, backendSpec } from '../coin/backends.js';
import { testnetOptions, toTestnetOptions, type TestnetArgsOf } from './testnet-options.js';

type Backend = BackendName | 'auto';

/** `diff`'s arguments: the testnet keys (config/schema.ts; each side's backend is --a and --b) and its own options. */
export interface DiffArgs extends Omit<TestnetArgsOf<'any'>, 'backend'> {
  files: string[];
  a: Backend;
  /** Default `salvium`; not with --against. */
  b?: Backend;
  binDirA?: string;
  binDirB?: string;
  /**
   * From the config file (`binDir`) or SALTNET_BIN_DIR handling: the bin dir of a non-sim side given none of its own.
   */
  binDir?: string;
  isolation: 'shared' | 'fresh';
  reporter: 'human' | 'junit' | 'json';
  output?: string;
  accept?: string;
  artifacts: string;
  /** A recording folder that stands for side B. */
  against?: string;
  /**
   * The options typed on the command line (not from the config file): with --against, the others follow the recording.
   */
  typed?: ReadonlySet<string>;
}

/**
 * The options that say what the two sides are — --a, --b, --bin-dir-a, --bin-dir-b —, their --difficulty and the
 * --accept file: `saltnet diff`'s, and `saltnet fuzz`'s, which runs its programs through the same comparison.
 */
export function sideOptions<T>(y: Argv<T>, difficulty = 'fixed mining difficulty'): Argv<T> {
  return y
    .option('a', { choices: backendChoices(), default: 'sim' as const, describe: 'backend of side A' })
    .option('b', { choices: backendChoices(), defaultDescription: 'salvium', describe: 'backend of side B' })
    .option('bin-dir-a', { type: 'string', describe: 'the programs of side A (salvium or monero backend)' })
    .option('bin-dir-b', { type: 'string', describe: 'the programs of side B (e.g. another Salvium build)' })
    .option('difficulty', configOption('difficulty', difficulty))
    .option('accept', {
      type: 'string',
      describe: `accepted divergences (YAML; default ${DEFAULT_ACCEPT_FILE} in the working directory, if there is one)`,
    }) as Argv<T>;
}

/** A side from its backend, its own --bin-dir-a/-b and the shared bin dir (config file, SALTNET_BIN_DIR). */
export function side(backend: Backend, own: string | undefined, shared: string | undefined): DiffSide {
  // A backend bundled with saltnet takes no --bin-dir.
  const binDir = own ?? (backend !== 'auto' && backendSpec(backend).bundledBinDir ? undefined : shared);
  return { backend, ...(binDir ? { binDir: resolve(binDir) } : {}) };
}

/** The accept file: --accept, else saltnet.diff-accept.yaml in the working directory when there is one. */
export function acceptFile(given: string | undefined): string | undefined {
  if (given) return resolve(given);
  return existsSync(DEFAULT_ACCEPT_FILE) ? resolve(DEFAULT_ACCEPT_FILE) : undefined;
}

/** The options both forms share: the run's settings, the accept file, progress on stderr. */
function commonOptions(
  argv: DiffArgs,
  files: number | undefined,
  err: (l: string) => void,
): Omit<DiffOptions, 'a' | 'b'> {
  const accept = acceptFile(argv.accept);
  if (accept) err(`saltnet diff: accepted divergences from ${relative(process.cwd(), accept) || accept}`);
  const count = files === undefined ? '' : `: ${files} scenario file${files === 1 ? '' : 's'}`;
  const hooks: DiffHooks = {
    sideStart: (s, d) => err(`saltnet diff: side ${s.toUpperCase()} (${describeSide(d)})${count}`),
    scenarioEnd: (s, r) =>
      err(`  ${s.toUpperCase()} ${r.status.padEnd(7)} ${relative(process.cwd(), r.file) || r.file} — ${r.name}`),
  };
  // Both sides' testnet options; each side's backend and programs are its own (side()).
  const { backend: _backend, binDir: _binDir, ...testnet } = toTestnetOptions(argv);
  return {
    ...testnet,
    isolation: argv.isolation,
    artifactsRoot: resolve(argv.artifacts, 'diff'),
    ...(accept ? { accept } : {}),
    log: err,
    hooks,
  };
}

/** `--against DIR`: side A runs, side B is the recording. */
async function againstCommandLine(argv: DiffArgs, err: (l: string) => void): Promise<DiffResult> {
  if (argv.b !== undefined || argv.binDirB !== undefined)
    throw new Error('--against gives side B (the recording): leave out --b and --bin-dir-b');
  const files = argv.files?.length ? await expandFiles(argv.files) : undefined;
  const a = side(argv.a, argv.binDirA, argv.binDir);
  err(
    `saltnet diff: side B is the recording ${argv.against}${files ? '' : ' (its scenario files, relative to the working directory)'}`,
  );
  // Difficulty and isolation as recorded, unless typed: a config file's own are for live runs.
  const o = commonOptions(argv, files?.length, err);
  const own = (name: 'difficulty' | 'isolation'): boolean => !argv.typed || argv.typed.has(name);
  const { difficulty, isolation, ...rest } = o;
  return diffAgainstRecording(files, {
    ...rest,
    ...(own('difficulty') && difficulty ? { difficulty } : {}),
    ...(own('isolation') && isolation ? { isolation } : {}),
    a,
    recording: resolve(argv.against!),
  });
}

export async function diffCommandLine(argv: DiffArgs): Promise<DiffResult> {
  if (argv.output) {
    const inputs = argv.files?.length ? await expandFiles(argv.files) : [];
    checkOutputPath('--output', argv.output, [...inputs, ...(argv.accept ? [argv.accept] : [])]);
  }
  // One writer per output: a second diff with the same --output is refused now.
  const lock = argv.output ? await lockOutput(argv.output, '--output', 'saltnet diff') : undefined;
  try {
    return await diffLocked(argv);
  } finally {
    lock?.release();
  }
}

async function diffLocked(argv: DiffArgs): Promise<DiffResult> {
  const err = (l: string): void => void process.stderr.write(`${l}\n`);
  let result: DiffResult;
  if (argv.against) result = await againstCommandLine(argv, err);
  else {
    if (!argv.files?.length)
      throw new Error(
        'say which scenarios to compare: saltnet diff scenarios/*.yaml --a sim --b salvium (or --against a recording)',
      );
    const files = await expandFiles(argv.files);
    const a = side(argv.a, argv.binDirA, argv.binDir);
    const b = side(argv.b ?? 'salvium', argv.binDirB, argv.binDir);
    if (
      a.backend === b.backend &&
      a.binDir === b.binDir &&
      !(a.backend !== 'auto' && backendSpec(a.backend).bundledBinDir)
    ) {
      process.stderr.write(
        `saltnet diff: note: both sides are ${describeSide(a)}; give --bin-dir-a and --bin-dir-b to compare two builds\n`,
      );
    }
    result = await diffScenarios(files, { ...commonOptions(argv, files.length, err), a, b });
  }
  const human = diffToText(result);
  const report =
    argv.reporter === 'json' ? diffToJson(result) : argv.reporter === 'junit' ? diffToJUnit(result) : human;
  if (argv.reporter !== 'human' || argv.output) process.stderr.write(human);
  if (argv.output) writeOutputFile('--output', argv.output, report);
  else process.stdout.write(report);
  return result;
}

export const diffCommand: CommandModule<object, DiffArgs> = {
  command: 'diff [files..]',
  describe:
    'run scenario files on two backends (or two builds, or one side against a recording) and report where their answers differ, step by step',
  builder: (y) =>
    sideOptions(
      testnetOptions(y, 'any', ['backend', 'binDir']),
      "fixed mining difficulty (with --against, the recording's)",
    )
      .positional('files', {
        type: 'string',
        array: true,
        describe:
          'scenario files or globs, e.g. scenarios/*.yaml (default: run.files of the config file; with --against, else every scenario of the recording)',
      })
      .option('against', {
        type: 'string',
        describe:
          'side B is this recording (e.g. fixtures/conformance/salvium-v1.1.3c, written by npm run record-conformance): only side A runs; a scenario file changed since the recording is an error (re-record it), not compared',
      })
      .option(
        'isolation',
        configOption('run.isolation', "as for saltnet run (with --against: the recording's, unless given)"),
      )
      .option('reporter', configOption('run.reporter'))
      .option('output', {
        type: 'string',
        describe: 'write the report to this file (the human summary then goes to stderr)',
      })
      .option('artifacts', {
        type: 'string',
        default: '.saltnet/artifacts',
        describe: 'artifact folders of both sides go under <this>/diff/a and <this>/diff/b',
      }) as never,
  handler: async (argv) => {
    const typed = new Set(Object.keys(givenFlags(argv as unknown as Record<string, unknown>, hideBin(process.argv))));
    const r = await diffCommandLine({ ...argv, typed });
    process.exitCode = r.ok ? 0 : 1;
  },
};
