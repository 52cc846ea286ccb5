// Tests against the testnet of this vitest run (started by saltnet/vitest/global-setup):
// - inject('saltnet') gives its context: endpoints, addresses, backend, height (plain JSON);
// - connect() gives typed clients of the daemon and of the shared main wallet;
// - useFreshWallet()/freshWallet() give a wallet of the test's own (its own wallet RPC process),
//   funded from the main wallet when asked, and gone when the block/test is done;
// - mine() mines blocks (to a wallet no test uses) so that transactions confirm.
// Amounts are atomic units (bigint): 1 SAL1 = 100 000 000. This file is written for Salvium (and
// the simulator, `SALTNET_BACKEND=sim`); on Monero the asset fields go.
import { afterAll, describe, expect, inject, it } from 'vitest';
import { connect, freshWallet, mine, useFreshWallet } from 'saltnet/vitest';

const SAL1 = 100_000_000n;
const saltnet = inject('saltnet');

describe('the testnet', () => {
  const net = connect(saltnet);
  afterAll(() => net.close());

  it('is up at the height the global setup reached, with a funded main wallet', async () => {
    expect(await net.daemon.height()).toBeGreaterThanOrEqual(saltnet.height);
    expect((await net.wallet.balance(saltnet.spec.asset)).unlocked).toBeGreaterThan(0n);
  });
});

describe('a transfer between fresh wallets', () => {
  // Created (and funded: 10 SAL1, unlocked) before the tests of this block, stopped after them.
  const alice = useFreshWallet(saltnet, { name: 'alice', unlocked: 10n * SAL1 });

  it('alice starts with 10 SAL1 unlocked', async () => {
    expect((await alice().client.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(10n * SAL1);
  });

  it('alice sends 1 SAL1 to bob, who sees it once a block confirms it', async () => {
    // A wallet for this test only: `await using` stops it when the test ends, passed or failed
    // (without that syntax: try { … } finally { await bob.stop(); }).
    await using bob = await freshWallet(saltnet, { name: 'bob' });
    const tx = await alice().client.call<{ tx_hash: string }>('transfer', {
      destinations: [{ address: bob.address, amount: SAL1, asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    expect(tx.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    await mine(saltnet, 1);
    await bob.client.refresh();
    expect((await bob.client.balance('SAL1')).balance).toBe(SAL1);
  });
});
