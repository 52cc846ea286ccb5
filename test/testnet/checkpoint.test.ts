// Checkpoints inside one testnet, on the simulator. On one node the daemon keeps running (no restart,
// so no new RandomX dataset on real Salvium): a checkpoint stops nothing and copies the stored
// wallets' files; a revert pops the chain back, refills the pool as it was and restarts only the
// wallet RPCs. On several nodes every program stops and every node's data dir is copied.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/sim.js';
import { addressAt, startTestnet, type Testnet, type TestnetOptions } from '../../harness/testnet/testnet.js';

const SAL1 = 100_000_000n;
let root: string;
const opts = (o: Partial<TestnetOptions> = {}): TestnetOptions => ({
  backend: 'sim',
  progress: 'none',
  trapSignals: false,
  daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
  log: () => undefined,
  cacheDir: `${root}/cache`,
  height: 300,
  unlocked: 100n * SAL1,
  ...o,
});

beforeAll(() => {
  root = tempDir('saltnet-checkpointtest-');
});
afterAll(() => cleanup(root));

const pay = async (t: Testnet, to: { addresses: Parameters<typeof addressAt>[1] }, amount: bigint): Promise<string> => {
  const h = await t.daemon.client.height();
  const r = await t.wallet.client.call<{ tx_hash: string }>('transfer', {
    destinations: [{ address: addressAt(t.backend.spec, to.addresses, h), amount, asset_type: 'SAL1' }],
    source_asset: 'SAL1',
    dest_asset: 'SAL1',
    tx_type: 3,
  });
  return r.tx_hash;
};

describe('checkpoints on one node', () => {
  it('revert rolls the chain and every wallet back, as often as asked, and the daemon keeps running', async () => {
    const t = await startTestnet(opts());
    try {
      const bob = await t.addWallet('bob');
      const h0 = await t.daemon.client.height();
      const bal0 = (await t.wallet.client.balance('SAL1')).balance;
      const daemonPid = t.daemon.pid;
      const walletPid = t.wallet.pid;
      await t.checkpoint('before');
      expect(t.checkpoints()).toEqual(['before']);
      // A checkpoint stops nothing: each wallet RPC stores its wallet and its files are copied.
      expect([t.daemon.pid, t.wallet.pid]).toEqual([daemonPid, walletPid]);
      const url = t.wallet.url;
      for (let round = 0; round < 2; round++) {
        await pay(t, bob, 5n * SAL1);
        await t.mine({ to: h0 + 3 });
        await bob.client.refresh();
        expect((await bob.client.balance('SAL1')).balance).toBe(5n * SAL1);
        await t.revert('before');
        expect(await t.daemon.client.height()).toBe(h0);
        await t.wallet.client.refresh();
        await bob.client.refresh();
        expect((await t.wallet.client.balance('SAL1')).balance).toBe(bal0);
        expect((await bob.client.balance('SAL1')).balance).toBe(0n);
        expect(await t.daemon.client.poolHashes()).toEqual([]);
        expect(t.wallet.url).toBe(url);
      }
      // The same daemon throughout; a revert restarts the wallet programs on their files.
      expect(t.daemon.pid).toBe(daemonPid);
      expect(t.wallet.pid).not.toBe(walletPid);
      await expect(t.revert('nope')).rejects.toThrow(/no checkpoint named nope; this testnet has before/);
    } finally {
      await t.stop();
    }
  }, 120_000);

  it('a transaction in the pool at the checkpoint is in it again after the revert, and mines', async () => {
    const t = await startTestnet(opts());
    try {
      const bob = await t.addWallet('bob');
      const tx = await pay(t, bob, 3n * SAL1);
      await t.checkpoint('pending');
      await t.mine(1);
      const later = await pay(t, bob, 1n * SAL1);
      expect(await t.daemon.client.poolHashes()).toEqual([later]);
      await t.revert('pending');
      // The mined one is back in the pool; the one sent after the checkpoint is gone.
      expect(await t.daemon.client.poolHashes()).toEqual([tx]);
      await t.mine(1);
      await bob.client.refresh();
      expect((await bob.client.balance('SAL1')).balance).toBe(3n * SAL1);
    } finally {
      await t.stop();
    }
  }, 120_000);

  it('refuses a revert below a chain popped since the checkpoint, changing nothing', async () => {
    const t = await startTestnet(opts());
    try {
      await t.mine(2);
      const h = await t.daemon.client.height();
      await t.checkpoint('top');
      const walletPid = t.wallet.pid;
      await t.daemon.client.popBlocks(1);
      await expect(t.revert('top')).rejects.toThrow(
        new RegExp(
          `cannot revert to checkpoint top: the chain no longer holds its top block \\(height ${h - 1}, .*at height ${h - 1} now, below it`,
        ),
      );
      // Replaced at the same height (a block with a transaction in it: another hash): refused too.
      await pay(t, t.wallet, 1n * SAL1);
      await t.mine(1);
      await expect(t.revert('top')).rejects.toThrow(/blocks at or below it were replaced/);
      expect(t.wallet.pid).toBe(walletPid);
      expect((await t.wallet.client.balance('SAL1')).unlocked).toBeGreaterThan(0n);
    } finally {
      await t.stop();
    }
  }, 120_000);
});

describe('checkpoints on several nodes', () => {
  it('stop every program and copy every node back', async () => {
    const t = await startTestnet(opts({ nodes: 2, height: 200, unlocked: 10n * SAL1 }));
    try {
      const h0 = await t.daemon.client.height();
      const pids = t.nodes.map((n) => n.pid);
      await t.checkpoint('two');
      expect(t.nodes.map((n) => n.pid)).not.toEqual(pids);
      await t.mine(2);
      await t.revert('two');
      expect(await Promise.all(t.nodes.map((n) => n.client.height()))).toEqual([h0, h0]);
    } finally {
      await t.stop();
    }
  }, 120_000);
});
