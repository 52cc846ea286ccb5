// The options of a run of scenario files: the testnets' options it passes on as they are, and the
// runner's own (how scenarios share testnets, workers, artifacts, hooks, interruption…).
import type { BackendName } from '../coin/backends.js';
import type { Testnet, TestnetOptions } from '../testnet/testnet.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioResult, StepResult } from '../scenario/types.js';

export interface RunnerHooks {
  scenarioStart?(s: { file: string; name: string }): void;
  step?(r: StepResult): void;
  scenarioEnd?(r: ScenarioResult): void;
}

/**
 * The options of a run: every option of the testnets it starts (TestnetOptions: the backend, its programs, difficulty,
 * mining, the cache… — each declared once, in testnet/types.ts), and the runner's own (RunnerOwnOptions).
 */
export interface RunnerOptions extends Omit<TestnetOptions, 'backend' | 'log'>, RunnerOwnOptions {
  backend: BackendName | 'auto';
}

/** What only the runner takes; everything else of RunnerOptions goes to the testnets it starts, as it is. */
export interface RunnerOwnOptions {
  /**
   * Scenario files that are copies, with the path of their original (`saltnet repro`): each is reported, and its
   * relative paths resolved, as the original (when the original's folder still exists).
   */
  originals?: Record<string, string>;
  /** `shared`: one testnet, a fresh wallet per scenario (fast); `fresh`: a testnet per scenario (isolated). */
  isolation: 'shared' | 'fresh';
  workers: number;
  bail: boolean;
  /** Where artifact folders go. */
  artifactsRoot: string;
  /** Leave the testnet up after a failure (fresh isolation) and print how to reach it. */
  keep?: boolean;
  /**
   * Fresh isolation: at most this many testnets live at once, those in use and those started ahead (default: as many
   * as memory and cores allow; 1: each starts when its scenario begins).
   */
  pool?: number;
  /** Progress lines of the run and its testnets. */
  log: (line: string) => void;
  hooks?: RunnerHooks;
  /** Run only the scenarios this accepts (`--grep`). */
  filter?: (s: Scenario) => boolean;
  /**
   * Stop the run when this aborts (the CLI passes its Ctrl-C/SIGTERM interruption): the step that
   * runs ends as `interrupted` (its reason's message, e.g. `interrupted by SIGINT`), the steps after
   * it are `skipped`, scenarios not started yet are `skipped` (`not run: …`), and runFiles returns.
   */
  signal?: AbortSignal;
  /**
   * Run on this testnet (shared isolation, one worker) instead of starting one; it is mined to the required height and
   * left running.
   */
  testnet?: Testnet;
  /**
   * The chain state each shared testnet starts from (see suiteChain): computed over the whole suite
   * before sharding, so every CI shard asks for the same state — one snapshot key for all jobs. With
   * `files` (the whole suite's), the wallets paid ahead are the whole suite's too (funded-state-cache.ts): every
   * shard restores one state with them.
   */
  chain?: { height: number; unlocked: bigint; files?: string[] } | 'suite';
  /**
   * Let metadata steps serve files outside the scenario file's folder and the working directory
   * (`saltnet run --allow-files-outside`); default false.
   */
  allowFilesOutside?: boolean;
  /**
   * HTTP headers for the wallet requests of a step (by scenario file and step index): `saltnet diff` sends the
   * simulator the draws the real side made for the same step (harness/sim/http/replay.ts).
   */
  replay?: StepReplay;
}

export type StepReplay = (file: string, stepIndex: number) => Record<string, string> | undefined;

/** The runner's own options, by name: what is not one of them is the testnets'. */
const RUNNER_OWN = [
  'originals',
  'isolation',
  'workers',
  'bail',
  'artifactsRoot',
  'keep',
  'pool',
  'log',
  'hooks',
  'filter',
  'signal',
  'testnet',
  'chain',
  'allowFilesOutside',
  'replay',
] as const satisfies readonly (keyof RunnerOwnOptions)[];
// Every own option is in the list (a new one that is not would be passed to startTestnet).
const everyOwnListed: Exclude<keyof RunnerOwnOptions, (typeof RUNNER_OWN)[number]> extends never ? true : never = true;
void everyOwnListed;

/** The options of the testnets a run starts: the run's options but the runner's own. */
export function testnetPart(o: RunnerOptions): TestnetOptions {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o))
    if (v !== undefined && !(RUNNER_OWN as readonly string[]).includes(k)) out[k] = v;
  return out as TestnetOptions;
}
