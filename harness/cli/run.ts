// `saltnet run <files, folders or globs>`: run scenario files and report; exit 0 only when none failed or
// ended in an infrastructure error (and there was at least one).
import { checkOutputFolder, checkOutputPath, writeOutputFile } from '../common/output-file.js';
import { lockOutput } from '../process/output-lock.js';
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { glob } from 'tinyglobby';
import type { ConfigValues } from '../config/schema.js';
import { configOption } from '../config/yargs.js';
import { interruptible, interruptedExitCode } from './interruptible.js';
import type { CommandModule } from 'yargs';
import { createHumanReporter } from '../scenario/report/human.js';
import { toJson } from '../scenario/report/json.js';
import { toJUnit } from '../scenario/report/junit.js';
import { suiteChain } from '../scenario/needs.js';
import { regexMatcher } from '../scenario/regex.js';
import type { RunnerOptions } from '../runner/options.js';
import { runFiles } from '../runner/run-scenarios.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import { testnetOptions, toTestnetOptions, type TestnetArgsOf } from './testnet-options.js';
import { isUnsuccessful, type ScenarioResult } from '../scenario/types.js';
import { progressLog } from './progress-log.js';

/** `run`'s arguments: the config keys it takes (config/schema.ts) and the options of its own. */
export type RunArgs = TestnetArgsOf<'any'> &
  Pick<ConfigValues['run'], 'isolation' | 'workers' | 'pool' | 'bail' | 'reporter' | 'artifacts'> & {
    files: string[];
    shard?: string;
    grep?: string;
    output?: string;
    keep: boolean;
    allowFilesOutside?: boolean;
  };

const SCENARIO_FILE = /\.ya?ml$/i;

// The scenario files directly in a folder (*.yaml, *.yml; not its subfolders: the glob
// folder/**/*.yaml says that), sorted; an error when there is none.
async function folderFiles(dir: string, given: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = entries
    .filter((e) => (e.isFile() || e.isSymbolicLink()) && SCENARIO_FILE.test(e.name))
    .map((e) => join(dir, e.name));
  if (files.length > 0) return files.sort();
  const deeper = (await glob('**/*.{yaml,yml}', { cwd: dir })).length > 0;
  const hint = deeper ? `; its subfolders have some: run '${join(given, '**', '*.yaml')}'` : '';
  throw new Error(`no scenario files (*.yaml, *.yml) in the folder ${given}${hint}`);
}

/**
 * Files matching the arguments (files, folders or globs), sorted, deduplicated. A folder stands for the scenario files
 * directly in it.
 */
export async function expandFiles(patterns: string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const p of patterns) {
    let hits: string[];
    const kind = /[*?{[]/.test(p) ? 'glob' : pathKind(p);
    if (kind === 'glob') hits = await glob(p, { absolute: true });
    else if (kind === 'folder') hits = await folderFiles(resolve(p), p);
    else if (kind === 'other')
      throw new Error(`${p} is not a scenario file (it is a device, a pipe or a socket): give files, folders or globs`);
    // A file that is missing or unreadable is that scenario's failure, in the report.
    else hits = [resolve(p)];
    if (hits.length === 0) throw new Error(`no scenario file matches ${p}`);
    for (const h of hits) out.add(h);
  }
  return [...out].sort();
}

function pathKind(p: string): 'folder' | 'file' | 'other' | 'missing' {
  try {
    const st = statSync(p);
    return st.isDirectory() ? 'folder' : st.isFile() ? 'file' : 'other';
  } catch {
    return 'missing';
  }
}

/** `--shard i/n`: every n-th file starting at the i-th (1-based), so CI jobs split the suite. */
export function shard(files: string[], spec: string | undefined): string[] {
  if (!spec) return files;
  const m = /^(\d+)\/(\d+)$/.exec(spec);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2]))
    throw new Error(`--shard takes i/n with 1 <= i <= n, e.g. 2/4; got ${spec}`);
  const [i, n] = [Number(m[1]), Number(m[2])];
  return files.filter((_, k) => k % n === i - 1);
}

/**
 * Run the scenarios and write the reports. Ctrl-C or SIGTERM stops the run, not the process: the
 * step that runs ends as interrupted, the report is written, then the process exits 130 (143).
 */
export function runCommandLine(argv: RunArgs, extra: Partial<RunnerOptions> = {}): Promise<ScenarioResult[]> {
  return interruptible((signal) => runAndReport(argv, { signal, ...extra }));
}

async function runAndReport(argv: RunArgs, extra: Partial<RunnerOptions>): Promise<ScenarioResult[]> {
  if (!argv.files?.length)
    throw new Error(
      'say which scenarios to run: saltnet run scenarios/*.yaml (or set run.files in saltnet.config.yaml)',
    );
  // Run by RE2: a pattern such as (a+)+$ cannot hang the run on a long scenario name.
  const grep = argv.grep === undefined ? undefined : grepMatcher(argv.grep);
  const all = await expandFiles(argv.files);
  if (argv.output) checkOutputPath('--output', argv.output, all);
  checkOutputFolder('--artifacts', argv.artifacts);
  // One writer per output: a second run with the same --output is refused now, not when it would overwrite.
  const lock = argv.output ? await lockOutput(argv.output, '--output', 'saltnet run') : undefined;
  try {
    return await runLocked(argv, extra, all, grep);
  } finally {
    lock?.release();
  }
}

/** The test of `--grep`, or an error naming the option and what is wrong with the pattern. */
function grepMatcher(pattern: string): (text: string) => boolean {
  try {
    return regexMatcher(pattern);
  } catch (err) {
    throw new Error(`--grep ${JSON.stringify(pattern)}: ${(err as Error).message}`, { cause: err });
  }
}

async function runLocked(
  argv: RunArgs,
  extra: Partial<RunnerOptions>,
  all: string[],
  grep: ((text: string) => boolean) | undefined,
): Promise<ScenarioResult[]> {
  const files = shard(all, argv.shard);
  // The chain state comes from the whole suite, not this shard: every shard restores the same snapshot.
  // Unsharded and unfiltered, the runner takes it from the files it parses anyway ('suite'): each file is read once.
  const chain =
    argv.isolation !== 'shared'
      ? undefined
      : files.length === all.length && !argv.grep
        ? ('suite' as const)
        : { ...(await suiteChain(all, resolveBackend(argv.backend, argv.binDir).spec)), files: all };
  const log = progressLog;
  const human = createHumanReporter(argv.reporter === 'human' && !argv.output ? process.stdout : process.stderr, {
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  });
  const results = await runFiles(files, {
    ...toTestnetOptions(argv),
    backend: argv.backend,
    isolation: argv.isolation,
    ...(chain ? { chain } : {}),
    workers: argv.workers,
    ...(argv.pool !== undefined ? { pool: argv.pool } : {}),
    bail: argv.bail,
    artifactsRoot: resolve(argv.artifacts),
    keep: argv.keep,
    ...(argv.allowFilesOutside ? { allowFilesOutside: true } : {}),
    ...(grep ? { filter: (s: { name: string; tags: string[] }) => grep(s.name) || s.tags.some((t) => grep(t)) } : {}),
    log,
    hooks: {
      scenarioStart: (s) => human.scenarioStart(s),
      step: (r) => human.step(r),
      scenarioEnd: (r) => human.scenarioEnd(r),
    },
    ...extra,
  });
  human.summary(results);
  if (argv.reporter !== 'human' || argv.output) {
    const text =
      argv.reporter === 'junit'
        ? toJUnit(results, { suiteName: 'saltnet' })
        : argv.reporter === 'json'
          ? toJson(results)
          : '';
    if (argv.output) writeOutputFile('--output', argv.output, text);
    else process.stdout.write(text);
  }
  return results;
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run [files..]',
  describe: 'run scenario files (or folders, or globs) against a testnet',
  builder: (y) =>
    testnetOptions(y, 'any')
      .positional('files', {
        type: 'string',
        array: true,
        describe:
          'scenario files, folders (their *.yaml and *.yml files, not subfolders) or globs, e.g. scenarios/*.yaml (default: run.files of the config file)',
      })
      .option('isolation', configOption('run.isolation'))
      .option('workers', configOption('run.workers'))
      .option('pool', configOption('run.pool'))
      .option('shard', { type: 'string', describe: 'i/n: run the i-th of n slices (CI matrices)' })
      .option('bail', configOption('run.bail'))
      .option('grep', {
        type: 'string',
        describe: 'only scenarios whose name or a tag matches this regular expression',
      })
      .option('reporter', configOption('run.reporter'))
      .option('output', { type: 'string', describe: 'write the junit/json report to this file' })
      .option('artifacts', configOption('run.artifacts'))
      .option('keep', {
        type: 'boolean',
        default: false,
        describe: 'leave the testnet up after a failure (with --isolation fresh)',
      })
      .option('allow-files-outside', {
        type: 'boolean',
        default: false,
        describe: "let metadata steps serve files outside the scenario's folder and the working directory",
      }) as never,
  handler: async (argv) => {
    const results = await runCommandLine(argv);
    process.exitCode = interruptedExitCode() ?? (results.length > 0 && !results.some(isUnsuccessful) ? 0 : 1);
  },
};
