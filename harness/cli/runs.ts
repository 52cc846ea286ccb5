// Finding the runs `saltnet up` registered, for down, status and mine.
import { isAlive, isRunId, listRuns, type RunRecord } from '../process/registry.js';
import type { BackendName } from '../coin/backends.js';
import type { ControlInfo } from '../control/client.js';

export interface RunInfo {
  daemon?: string;
  wallet?: string;
  addresses?: { cn: string; carrot?: string };
  minerAddresses?: { cn: string; carrot?: string };
  backend?: BackendName;
  workdir?: string;
  /** How the testnet mines now (Testnet.mining): `saltnet mine` uses its threads. */
  mining?: { difficulty: number; threads: number };
  /** The control endpoint of the `up` that owns the testnet. */
  control?: ControlInfo;
  /** Every node (n0 is `daemon`). */
  nodes?: { name: string; url: string; pid: number; dataDir: string }[];
  /** The explorer's address, once it is served (`saltnet up --ui`, `saltnet ui`). */
  ui?: string;
  /** `up`: a testnet of `saltnet up`; `test`: one a test run holds for as long as its command runs. */
  holder?: 'up' | 'test';
}

export const runInfo = (r: RunRecord): RunInfo => (r.info ?? {}) as RunInfo;
export const ownerAlive = (r: RunRecord): boolean => isAlive(r.ownerPid, r.owner.startTime);
/** A testnet of `saltnet up` (a record written before holders were recorded: one with a control endpoint). */
export const isUpRun = (r: RunRecord): boolean =>
  runInfo(r).holder === 'up' || (runInfo(r).holder === undefined && runInfo(r).control !== undefined);

/** `--run <id>` as given: refused unless it can be a run id (an empty one, a path such as ../../etc). */
export function checkRunOption(runId: string | undefined): void {
  if (runId === undefined) return;
  if (runId === '') throw new Error('--run needs a run id; `saltnet status` lists them');
  if (!isRunId(runId))
    throw new Error(
      `--run ${JSON.stringify(runId)} is not a run id (run ids are made of letters, digits, '.', '_' and '-'); \`saltnet status\` lists them`,
    );
}

/**
 * The one live testnet of `saltnet up`, or the run named (a test run's too); a clear error otherwise. A test run (a
 * scenario run, a vitest fixture) is chosen only by name: it is not the user's to mine or fund by default.
 */
export function pickRun(runId?: string): RunRecord {
  checkRunOption(runId);
  const all = listRuns().filter(ownerAlive);
  if (runId !== undefined) {
    const r = all.find((x) => x.runId === runId);
    if (!r) throw new Error(`no running testnet ${runId}; \`saltnet status\` lists them`);
    return r;
  }
  const live = all.filter(isUpRun);
  if (all.length === 0) throw new Error('no testnet is running: start one with `saltnet up`');
  if (live.length === 0)
    throw new Error(
      `no testnet of saltnet up is running: start one with \`saltnet up\` (${all.length} held by test runs: choose one with --run; \`saltnet status\` lists them)`,
    );
  if (live.length > 1)
    throw new Error(
      `${live.length} testnets are running (${live.map((r) => r.runId).join(', ')}): choose one with --run`,
    );
  return live[0]!;
}

/**
 * The run (the one running testnet, or the one named) and its control endpoint, or an error saying why there is none
 * yet: it is still starting, or an older saltnet started it.
 */
export function pickControl(runId: string | undefined): { run: RunRecord; info: RunInfo; control: ControlInfo } {
  const run = pickRun(runId);
  return { run, info: runInfo(run), control: controlOfRun(run) };
}

/** The control endpoint of `run`, or an error saying why it has none yet. */
export function controlOfRun(run: RunRecord): ControlInfo {
  const { control } = runInfo(run);
  if (!control)
    throw new Error(
      `run ${run.runId} has no control endpoint (it is still starting, or an older saltnet started it); try again when \`saltnet up\` says it is up`,
    );
  return control;
}
