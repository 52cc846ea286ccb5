// The supervisor against real C++ programs: Debian's `monero` package (monerod, monero-wallet-cli,
// monero-wallet-rpc), installed by .ci/run. Difficulty 1; no token steps on Monero.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execaSync } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../harness/process/registry.js';
import { decodeAddress } from '../../harness/sim/crypto/address.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';

const hasMonero =
  execaSync('sh', ['-c', 'command -v monerod && command -v monero-wallet-cli && command -v monero-wallet-rpc'], {
    reject: false,
  }).exitCode === 0;
// CI installs the package; a developer machine without it skips, saying so.
if (!hasMonero) console.warn('monero backend tests skipped: `apt-get install -y monero` to run them');

describe.skipIf(!hasMonero)('up on real Monero programs', () => {
  let t: Testnet;
  const lines: string[] = [];
  beforeAll(async () => {
    // With Digest login: the real monero-wallet-rpc reads its password from stdin (--rpc-login saltnet).
    t = await startTestnet({
      backend: 'monero',
      difficulty: 1,
      progress: 'lines',
      log: (l) => lines.push(l),
      trapSignals: false,
      login: 'digest',
    });
  }, 300_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('started the real daemon, created the wallet through the CLI, mined and unlocked funds', async () => {
    expect(lines[0]).toMatch(/^saltnet: monero binaries from PATH/);
    expect((await t.daemon.client.getInfo()).nettype).toBe('testnet');
    // a Monero testnet standard address (it begins with 9 or A, depending on the key)
    expect(decodeAddress(t.wallet.addresses.cn)).toMatchObject({
      coin: 'monero',
      network: 'testnet',
      family: 'cn',
      type: 'standard',
    });
    expect(t.wallet.addresses.carrot).toBeUndefined();
    expect(t.readyHeight).toBeGreaterThanOrEqual(70);
    const b = await t.wallet.client.balance();
    expect(b.unlocked).toBeGreaterThanOrEqual(1_000_000_000_000n);
  });

  it('started the real wallet programs without a password on their command lines', async () => {
    const password = readFileSync(join(t.workdir, 'wallets', '.password'), 'utf8');
    const login = t.wallet.credentials!.password;
    for (const pid of [t.daemon.pid, t.wallet.pid]) {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline.join(' ')).not.toContain(password);
      expect(cmdline.join(' ')).not.toContain(login);
    }
    expect(readFileSync(`/proc/${t.wallet.pid}/cmdline`, 'utf8').split('\0')).toEqual(
      expect.arrayContaining(['--password-file', '--rpc-login', 'saltnet']),
    );
    // and answers Digest requests with those credentials, none without
    expect(await t.wallet.client.version()).toBeGreaterThan(0);
    expect(
      (
        await fetch(`${t.wallet.url}/json_rpc`, {
          method: 'POST',
          body: '{"jsonrpc":"2.0","id":1,"method":"get_version"}',
        })
      ).status,
    ).toBe(401);
  });

  it('makes a transfer that is mined into the next blocks', async () => {
    const tx = await t.wallet.client.call<{ tx_hash: string; fee: number }>('transfer', {
      destinations: [{ address: t.wallet.addresses.cn, amount: 1_000_000_000 }],
    });
    expect(tx.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    await t.mine(2);
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
