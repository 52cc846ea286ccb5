// Finding the runs `saltnet up` registered, for down, status and mine.
import { isAlive, listRuns, type RunRecord } from '../process/registry.js';

export interface RunInfo {
  daemon?: string;
  wallet?: string;
  addresses?: { cn: string; carrot?: string };
  minerAddresses?: { cn: string; carrot?: string };
  backend?: 'salvium' | 'sim' | 'monero';
  workdir?: string;
}

export const runInfo = (r: RunRecord): RunInfo => (r.info ?? {}) as RunInfo;
export const ownerAlive = (r: RunRecord): boolean => isAlive(r.ownerPid, r.ownerStartTime);

/** The one live run, or the one named; a clear error otherwise. */
export function pickRun(runId?: string): RunRecord {
  const live = listRuns().filter(ownerAlive);
  if (runId) {
    const r = live.find((x) => x.runId === runId);
    if (!r) throw new Error(`no live run ${runId}; see \`saltnet status\``);
    return r;
  }
  if (live.length === 0) throw new Error('no testnet is running: start one with `saltnet up`');
  if (live.length > 1) throw new Error(`${live.length} testnets are running (${live.map((r) => r.runId).join(', ')}): choose one with --run`);
  return live[0]!;
}
