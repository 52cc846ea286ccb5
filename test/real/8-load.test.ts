// A load on the real programs (test/load/load.test.ts holds the simulator to the same): the tier's chain state at
// difficulty 1, the daemon's own miner, 2 tx/s of transfers and subaddress payments for 10 s from 4 wallets funded
// ahead. What a load reports rests on the real daemon's answers: each sent transaction found in a block (`get_block`'s
// `tx_hashes`), the chain's top told by `get_info`'s `top_block_hash`, the pool's size.
import { expect, it } from 'vitest';
import { runLoad } from '../../harness/load/run.js';
import { startTestnet } from '../../harness/testnet/testnet.js';
import { expectLoadReportConsistent } from '../helpers/load-report.js';
import { CACHE_DIR, describeReal, REAL } from './real.js';

describeReal('a load on real Salvium', () => {
  it('confirms what it sends, and reports its rate, latency and pool consistently', async () => {
    const t = await startTestnet({
      ...REAL,
      cacheDir: CACHE_DIR,
      miner: 'daemon',
      progress: 'none',
      log: () => undefined,
      trapSignals: false,
    });
    try {
      const r = await runLoad(t, { tps: 2, duration: 10, wallets: 4, mix: ['transfers', 'subaddresses'] });
      const why = JSON.stringify({ counts: r.counts, rejections: r.rejections, unconfirmed: r.unconfirmed });
      expect(r.counts.scheduled, why).toBe(20);
      // A real wallet may refuse one (an output a popped block had unlocked, docs/load.md): each says why.
      expect(r.counts.rejected, why).toBeLessThanOrEqual(2);
      for (const x of r.rejections) expect(x.reason, why).not.toBe('');
      expect(r.unconfirmed, why).toEqual([]);
      expect(r.counts.confirmed, why).toBe(r.counts.sent);
      expect(r.counts.sent + r.counts.rejected + r.counts.behind, why).toBe(20);
      expectLoadReportConsistent(r);
    } finally {
      await t.stop();
    }
  });
});
