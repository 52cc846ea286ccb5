// The bench's checkpoint and revert on real Salvium at difficulty 500 (full RandomX), on a testnet of one node with a
// second wallet (bob, the wallet RPC's own 50:200 lookahead): each round takes a checkpoint, pays bob, mines a block,
// reverts, and mines the next block. A checkpoint stops nothing and a revert keeps the daemon, so the block after a
// revert does not wait for a new RandomX dataset (it did when both restarted the daemon: about a minute).
import { performance } from 'node:perf_hooks';
import { addressAt, startTestnet, type TestnetOptions } from '../harness/testnet/testnet.js';
import { median, ms, type Report } from './bench-up.js';

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Checkpoint, revert and the block after a revert, three rounds, once the daemon's dataset is built. */
export async function checkpointRevert(base: TestnetOptions, report: Report, rounds = 3): Promise<void> {
  const t = await startTestnet({
    progress: 'none',
    log: () => undefined,
    trapSignals: false,
    ...base,
    difficulty: 500,
  });
  try {
    const bob = await t.addWallet('bob');
    // The first block waits for the dataset the daemon builds from its start: not what is measured here.
    await t.mine(1);
    const pid = t.daemon.pid;
    const took = { checkpoint: [] as number[], revert: [] as number[], after: [] as number[] };
    for (let i = 0; i < rounds; i++) {
      took.checkpoint.push(await timed(() => t.checkpoint('round')));
      await t.wallet.client.call('transfer', {
        destinations: [
          {
            address: addressAt(t.backend.spec, bob.addresses, await t.daemon.client.height()),
            amount: 100_000_000n,
            asset_type: 'SAL1',
          },
        ],
        source_asset: 'SAL1',
        dest_asset: 'SAL1',
        tx_type: 3,
      });
      await t.mine(1);
      took.revert.push(await timed(() => t.revert('round')));
      took.after.push(await timed(() => t.mine(1)));
    }
    const same = t.daemon.pid === pid ? 'the same daemon throughout' : 'the daemon restarted';
    const line = (xs: number[]): string => `median of ${xs.length}: ${xs.map((x) => ms(x)).join(', ')}`;
    report('checkpoint.salvium.take', ms(median(took.checkpoint)), `${line(took.checkpoint)}; main and bob stored`);
    report('checkpoint.salvium.revert', ms(median(took.revert)), `${line(took.revert)}; ${same}`);
    report(
      'checkpoint.salvium.mineAfterRevert',
      ms(median(took.after)),
      `${line(took.after)}; a block at 500 right after a revert (no new RandomX dataset)`,
    );
  } finally {
    await t.stop();
  }
}
