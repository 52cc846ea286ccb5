// The bench's `mine: 1` at a served difficulty (default 500) on real Salvium: a testnet restored
// from the cache (its prefix mined at difficulty 1), then one block at a time through the harness's
// mining loop — what a scenario's `mine: 1` does — in each RandomX mode. The first block is
// reported on its own: in full mode it may wait for the dataset the daemon builds from its start.
import { performance } from 'node:perf_hooks';
import type { RandomxMode } from '../harness/testnet/backends.js';
import { startTestnet, type TestnetOptions } from '../harness/testnet/testnet.js';
import { median, ms, type Report } from './bench-up.js';

export interface MineOneOptions {
  /** Testnet options: backend, binDir, cacheDir (with the prefix cached, or it is built first). */
  base: TestnetOptions;
  difficulty?: number;
  /** Blocks mined one at a time after the first (default 15). */
  blocks?: number;
  /** Idle time after ready before the first block (a user's setup), default 0. */
  idleMs?: number;
}

/** `mine: 1` in one RandomX mode: the first block, then the median and mean of the next ones. */
export async function mineOne(mode: RandomxMode, o: MineOneOptions, report: Report): Promise<void> {
  const difficulty = o.difficulty ?? 500;
  const t = await startTestnet({
    progress: 'none',
    log: () => undefined,
    trapSignals: false,
    ...o.base,
    difficulty,
    randomx: mode,
  });
  try {
    if (o.idleMs) await new Promise((ok) => setTimeout(ok, o.idleMs));
    const times: number[] = [];
    let h = await t.daemon.client.height();
    for (let i = 0; i <= (o.blocks ?? 15); i++) {
      const t0 = performance.now();
      h = await t.mine({ to: h + 1 });
      times.push(performance.now() - t0);
    }
    const [first, ...rest] = times;
    const mean = rest.reduce((a, b) => a + b, 0) / rest.length;
    const label = `mine1.${t.backend.spec.name}.d${difficulty}.${mode}${o.idleMs ? `.idle${o.idleMs / 1000}s` : ''}`;
    report(
      `${label}.first`,
      ms(first!),
      `${o.idleMs ? `after ${o.idleMs / 1000} s idle` : 'right after ready'}${mode === 'full' ? ' (waits for the RandomX dataset if it is still being built)' : ''}`,
    );
    report(
      `${label}.median`,
      ms(median(rest)),
      `mean ${ms(mean)} over ${rest.length} blocks, ${t.mining.threads} threads, snapshot ${t.snapshot.status}`,
    );
  } finally {
    await t.stop();
  }
}
