// The bench's `mine: 1` at a served difficulty (default 500) on real Salvium: a testnet restored
// from the cache (its prefix mined at difficulty 1), then one block at a time through the harness's
// mining loop — what a scenario's `mine: 1` does — in each RandomX mode. The first block is
// reported on its own: in full mode it may wait for the dataset the daemon builds from its start.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RandomxMode } from '../harness/coin/backends.js';
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
    if (o.idleMs) await sleep(o.idleMs);
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

/**
 * Continuous mining at a served difficulty (default 500), full RandomX: `rounds` runs of `blocks` blocks through
 * `t.mine`, each beside a run with a 5 ms height poll loop of its own (how the mining loop polled before it backed
 * off: docs/difficulty.md, "Height polls"), alternated. Reports blocks per second and the miner's hash rate
 * (`mining_status`) of each.
 */
export async function mineRun(o: MineOneOptions & { rounds?: number }, report: Report): Promise<void> {
  const difficulty = o.difficulty ?? 500;
  const t = await startTestnet({ progress: 'none', log: () => undefined, trapSignals: false, ...o.base, difficulty });
  const d = t.daemon.client;
  const runs = {
    backoff: { s: 0, blocks: 0, speeds: [] as number[] },
    poll5: { s: 0, blocks: 0, speeds: [] as number[] },
  };
  try {
    // The first block waits for the dataset.
    await t.mine({ to: (await d.height()) + 1 });
    for (let r = 0; r < (o.rounds ?? 3); r++)
      for (const kind of ['poll5', 'backoff'] as const) {
        let done = false;
        const sampler = (async () => {
          while (!done) {
            await sleep(4000);
            const st = await d.miningStatus();
            if (!done && st.speed > 0) runs[kind].speeds.push(st.speed);
          }
        })();
        const poller = (async () => {
          while (!done && kind === 'poll5') await d.height().then(() => sleep(5));
        })();
        const h = await d.height();
        const t0 = performance.now();
        const end = await t.mine({ to: h + (o.blocks ?? 30) });
        runs[kind].s += (performance.now() - t0) / 1000;
        runs[kind].blocks += end - h;
        done = true;
        await Promise.all([sampler, poller]);
      }
  } finally {
    await t.stop();
  }
  for (const [kind, v] of Object.entries(runs)) {
    const hs = v.speeds.reduce((a, b) => a + b, 0) / Math.max(1, v.speeds.length);
    report(
      `mineN.${t.backend.spec.name}.d${difficulty}.${kind}.blocks_per_s`,
      (v.blocks / v.s).toFixed(2),
      `${v.blocks} blocks in ${v.s.toFixed(1)} s; mining_status ${hs.toFixed(0)} H/s mean of ${v.speeds.length} samples` +
        (kind === 'poll5' ? ' (a 5 ms height poll beside the mining loop, as it polled before it backed off)' : ''),
    );
  }
}
