// The supervisor against real C++ programs: Debian's `monero` package (monerod, monero-wallet-cli,
// monero-wallet-rpc), installed by .ci/run. Difficulty 1; no token steps on Monero.
import { execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../harness/process/registry.js';
import { decodeAddress } from '../../harness/sim/crypto/address.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';

const hasMonero = execaSync('sh', ['-c', 'command -v monerod && command -v monero-wallet-cli && command -v monero-wallet-rpc'], { reject: false }).exitCode === 0;
// CI installs the package; a developer machine without it skips, saying so.
if (!hasMonero) console.warn('monero backend tests skipped: `apt-get install -y monero` to run them');

describe.skipIf(!hasMonero)('up on real Monero programs', () => {
  let t: Testnet;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestnet({ backend: 'monero', difficulty: 1, progress: 'lines', log: (l) => lines.push(l), trapSignals: false });
  }, 300_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('started the real daemon, created the wallet through the CLI, mined and unlocked funds', async () => {
    expect(lines[0]).toMatch(/^saltnet: monero binaries from PATH/);
    expect((await t.daemon.client.getInfo()).nettype).toBe('testnet');
    // a Monero testnet standard address (it begins with 9 or A, depending on the key)
    expect(decodeAddress(t.wallet.addresses.cn)).toMatchObject({ coin: 'monero', network: 'testnet', family: 'cn', type: 'standard' });
    expect(t.wallet.addresses.carrot).toBeUndefined();
    expect(t.height).toBeGreaterThanOrEqual(70);
    const b = await t.wallet.client.balance();
    expect(b.unlocked).toBeGreaterThanOrEqual(1_000_000_000_000n);
  });

  it('makes a transfer that is mined into the next blocks', async () => {
    const tx = await t.wallet.client.call<{ tx_hash: string; fee: number }>('transfer', { destinations: [{ address: t.wallet.addresses.cn, amount: 1_000_000_000 }] });
    expect(tx.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    await t.mine((await t.daemon.client.height()) + 2);
    await t.wallet.client.refresh();
    const out = await t.wallet.client.call<{ out?: { txid: string }[] }>('get_transfers', { out: true });
    expect(out.out?.some((e) => e.txid === tx.tx_hash)).toBe(true);
  });

  it('shuts the real programs down cleanly', async () => {
    const pids = [t.daemon.pid, t.wallet.pid];
    await t.stop();
    expect(pids.filter((p) => isAlive(p))).toEqual([]);
  });
});
