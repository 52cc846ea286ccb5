// `saltnet load`'s throughput on the simulator: 20 tx/s for 30 s from 4 wallets funded ahead, the load mining a block
// a second (automine off, as `saltnet up` starts): the rate achieved, how many were confirmed, and the confirmation
// latency. The test (test/load/load.test.ts) checks that every transaction is confirmed; the rate is measured here.
import { runLoad } from '../harness/load/run.js';
import { startTestnet, type TestnetOptions } from '../harness/testnet/testnet.js';
import type { Report } from './bench-up.js';

export async function loadThroughput(label: string, options: TestnetOptions, report: Report): Promise<void> {
  const t = await startTestnet({ progress: 'none', log: () => undefined, trapSignals: false, ...options });
  try {
    const r = await runLoad(t, { tps: 20, duration: 30 });
    const c = r.counts;
    report(
      `load.${label}.tps20`,
      `${r.tps.achieved} tx/s`,
      `${c.sent} of ${c.scheduled} sent in ${r.seconds.sending} s, ${c.confirmed} confirmed, ${c.rejected} rejected; ${r.wallets} wallets funded in ${r.setup.seconds} s`,
    );
    const l = r.latency;
    report(
      `load.${label}.latency`,
      `${l.seconds.p50} s`,
      `p50/p90/p99 ${l.seconds.p50}/${l.seconds.p90}/${l.seconds.p99} s, ${l.blocks.p50}/${l.blocks.p90}/${l.blocks.p99} blocks; pool max ${r.pool.max}`,
    );
  } finally {
    await t.stop();
  }
}
