// `saltnet fuzz`: random valid scenario programs run on two sides through `saltnet diff`'s comparison; each one that
// diverges is shrunk to the smallest scenario file that still does (harness/fuzz/). `--invariants`: one side only,
// checked against what any chain must keep. Exit 0 when nothing diverged, 1 otherwise.
import { randomInt } from 'node:crypto';
import { join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { runFuzz, fuzzSummaryLine, type FuzzReport } from '../fuzz/fuzz.js';
import { acceptFile, side, sideOptions } from './diff.js';
import { testnetOptions, toTestnetOptions, type TestnetArgsOf } from './testnet-options.js';
import type { BackendName } from '../coin/backends.js';

type Backend = BackendName | 'auto';

export interface FuzzArgs extends Omit<TestnetArgsOf<'any'>, 'backend'> {
  seed?: number;
  programs: number;
  steps: number;
  a: Backend;
  b?: Backend;
  binDirA?: string;
  binDirB?: string;
  binDir?: string;
  accept?: string;
  invariants: boolean;
  out: string;
  shrinkRuns: number;
  json: boolean;
  artifacts: string;
}

const LIMITS = {
  seed: [0, 2 ** 31 - 1],
  programs: [1, 10_000],
  steps: [1, 500],
  'shrink-runs': [0, 1000],
} as const;

/** A whole number within its flag's limits, or an error that names the flag, the limits and what was given. */
function whole(flag: keyof typeof LIMITS) {
  const [min, max] = LIMITS[flag];
  return (v: unknown): number => {
    const n = typeof v === 'number' ? v : Number(String(v));
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return n;
  };
}

export async function fuzzCommandLine(argv: FuzzArgs): Promise<FuzzReport> {
  const err = (l: string): void => void process.stderr.write(`${l}\n`);
  if (argv.invariants && (argv.b !== undefined || argv.binDirB !== undefined))
    throw new Error('--invariants runs side A alone: leave out --b and --bin-dir-b');
  const seed = argv.seed ?? randomInt(0, 2 ** 31 - 1);
  const out = (l: string): void => (argv.json ? err(l) : void process.stdout.write(`${l}\n`));
  const accept = acceptFile(argv.accept);
  const { backend: _backend, binDir: _binDir, ...testnet } = toTestnetOptions(argv);
  // A folder per run (seed and pid): two runs at once never run or overwrite each other's program files.
  const artifacts = resolve(argv.artifacts, 'fuzz', `seed-${seed}-${process.pid}`);
  const report = await runFuzz({
    seed,
    programs: argv.programs,
    steps: argv.steps,
    invariants: argv.invariants,
    out: resolve(argv.out),
    workDir: join(artifacts, 'programs'),
    shrinkRuns: argv.shrinkRuns,
    line: out,
    progress: err,
    diff: {
      ...testnet,
      a: side(argv.a, argv.binDirA, argv.binDir),
      b: side(argv.b ?? 'salvium', argv.binDirB, argv.binDir),
      isolation: 'shared',
      artifactsRoot: artifacts,
      ...(accept ? { accept } : {}),
      log: err,
    },
  });
  out(fuzzSummaryLine(report));
  if (argv.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return report;
}

export const fuzzCommand: CommandModule<object, FuzzArgs> = {
  command: 'fuzz',
  describe:
    'draw random valid scenario programs, run each on two sides through the comparison of saltnet diff, and shrink every one that diverges to the smallest scenario file that still does',
  builder: (y) =>
    sideOptions(testnetOptions(y, 'any', ['backend', 'binDir']))
      .option('seed', {
        coerce: whole('seed'),
        describe: 'the seed of the first program (program i is drawn from seed + i); default: a random one, printed',
      })
      .option('programs', { default: 10, coerce: whole('programs'), describe: 'how many programs to draw' })
      .option('steps', { default: 15, coerce: whole('steps'), describe: 'steps in each program' })
      .option('invariants', {
        type: 'boolean',
        default: false,
        describe:
          'run each program on side A alone and check what any chain keeps: no money made or lost, no server failure, the same answers across a wallet restart',
      })
      .option('out', {
        type: 'string',
        default: '.saltnet/fuzz',
        describe: 'where each divergent program goes, shrunk (one YAML file per divergence)',
      })
      .option('shrink-runs', {
        default: 30,
        coerce: whole('shrink-runs'),
        describe: 'the most candidate runs when shrinking one program (0: keep it as drawn)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'a JSON report on stdout (the lines go to stderr)' })
      .option('artifacts', {
        type: 'string',
        default: '.saltnet/artifacts',
        describe: 'the programs drawn and both sides’ artifact folders go under <this>/fuzz/seed-<seed>-<pid>',
      }) as never,
  handler: async (argv) => {
    const r = await fuzzCommandLine(argv);
    process.exitCode = r.divergences === 0 && r.errors === 0 ? 0 : 1;
  },
};
