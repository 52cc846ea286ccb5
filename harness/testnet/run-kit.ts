// What the Testnet object and the phases of `up` both need from a Run: how `mine` mines, and which
// programs do not answer.
import { scaled } from '../common/timeouts.js';
import type { MineForOptions } from './funding.js';
import { BUSY_MS } from './mining.js';
import type { Parts, Run } from './running.js';

export function mineOptions(run: Run): Omit<MineForOptions, 'miner' | 'main' | 'target' | 'need'> {
  // Mining deadlines are not scaled where they are awaited: scale them here.
  return {
    spec: run.backend.spec,
    timeoutMs: scaled(3_600_000),
    busyMs: scaled(BUSY_MS),
    signal: run.aborter.signal,
    threads: run.mining.threads,
  };
}

/** The programs that do not answer now (every node's daemon, every wallet), each with its pid and why. */
export function unresponsive(run: Run, p: Parts): string[] {
  return [
    ...run.nodes.programs.flatMap((d) =>
      d.unresponsive ? [`${d.name} (pid ${d.pid}) is not answering: ${d.unresponsive.reason}`] : [],
    ),
    ...p.wallets.unresponsive(),
  ];
}
