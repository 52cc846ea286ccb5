// The library API on the real programs: a testnet from the tier's cache, a scenario run on it,
// checkpoint and revert, restarts of each program, and crash recovery — a wallet RPC killed with
// SIGSEGV or SIGKILL and a daemon killed with SIGKILL are started again and the work goes on.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isAlive } from '../../harness/process/registry.js';
import { runScenario } from '../../harness/runner/api.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';
import { CACHE_DIR, describeReal, REAL, SAL1 } from './real.js';

describeReal('the library API on real Salvium', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-api-'));
  let t: Testnet;
  const lines: string[] = [];
  beforeAll(async () => {
    // The default chain state 1-up built into the tier's cache (or built here when run alone).
    t = await startTestnet({
      ...REAL,
      cacheDir: CACHE_DIR,
      progress: 'lines',
      trapSignals: false,
      log: (l) => lines.push(l),
    });
  });
  afterAll(async () => {
    await t?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('starts funded and token-ready', async () => {
    expect(t.readyHeight).toBeGreaterThanOrEqual(1201);
    expect((await t.wallet.client.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(1100n * SAL1);
  });

  it('runs a scenario on it, and a wallet RPC killed with SIGSEGV mid-scenario is restarted and the scenario passes', async () => {
    const file = join(root, 'mid.yaml');
    writeFileSync(
      file,
      [
        'name: a wallet RPC dies mid-scenario on real Salvium',
        'requires: { unlocked: { SAL1: 2 SAL1 } }',
        'wallets: { bob: {} }',
        'steps:',
        '  - name: balance before',
        '    get_balance: { asset_type: SAL1 }',
        '    expect:',
        '      result.balances[0].unlocked_balance: { gte: 2 SAL1 }',
        '  - name: send bob 1 SAL1',
        '    transfer: { to: "${bob.address}", amount: 1 SAL1 }',
        '  - mine: 1',
        '  - name: bob sees it',
        '    wallet: bob',
        '    wait:',
        '      get_transfers: { in: true }',
        '      until:',
        '        result.in: { contains: { type: in, amount: 1 SAL1 } }',
        '      seconds: 120',
        '',
      ].join('\n'),
    );
    const killed: number[] = [];
    const r = await runScenario(file, {
      testnet: t,
      artifactsRoot: join(root, 'artifacts'),
      hooks: {
        step: (s) => {
          if (s.index !== 1) return;
          // bob's wallet RPC dies after the transfer, before it is asked anything
          const bob = [...t.wallets().values()].find((w) => w.name.endsWith('-bob'))!;
          killed.push(bob.pid);
          process.kill(bob.pid, 'SIGSEGV');
        },
      },
    });
    expect(r.status, r.failure?.message).toBe('passed');
    expect(t.crashes().some((c) => c.pid === killed[0] && c.exit.signal === 'SIGSEGV')).toBe(true);
  });

  it('checkpoints and reverts the chain and wallets with the daemon running, a pending transfer back in its pool', async () => {
    const { tx_hash } = await t.wallet.client.call<{ tx_hash: string }>('transfer', {
      destinations: [{ address: t.wallet.address, amount: 1n * SAL1, asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    const h = await t.daemon.client.height();
    const daemonPid = t.daemon.pid;
    await t.checkpoint('before');
    await t.mine({ to: h + 3 });
    expect(await t.daemon.client.txCount(h)).toBe(1);
    await t.revert('before');
    expect(await t.daemon.client.height()).toBe(h);
    expect(await t.wallet.client.height()).toBe(h);
    expect(t.daemon.pid).toBe(daemonPid);
    expect(await t.daemon.client.poolHashes()).toEqual([tx_hash]);
    await t.mine(1);
    expect(await t.daemon.client.txCount(h)).toBe(1);
    expect(await t.daemon.client.poolHashes()).toEqual([]);
  });

  it('restarts the daemon and the wallet RPC on the same endpoints', async () => {
    const d = t.daemon.pid;
    const w = t.wallet.pid;
    await t.restart('daemon');
    await t.restart('wallet');
    expect(t.daemon.pid).not.toBe(d);
    expect(t.wallet.pid).not.toBe(w);
    expect((await t.daemon.client.getInfo()).status).toBe('OK');
    expect((await t.wallet.client.balance('SAL1')).unlocked).toBeGreaterThan(0n);
  });

  it('recovers from a wallet RPC killed with SIGKILL and a daemon killed with SIGKILL', async () => {
    const w = t.wallet.pid;
    process.kill(w, 'SIGKILL');
    expect((await t.wallet.client.balance('SAL1')).unlocked).toBeGreaterThan(0n);
    expect(isAlive(w)).toBe(false);
    const d = t.daemon.pid;
    const h = await t.daemon.client.height();
    process.kill(d, 'SIGKILL');
    expect(await t.mine({ to: h + 2 })).toBeGreaterThanOrEqual(h + 2);
    const crashes = t.crashes();
    expect(crashes.some((c) => c.pid === w && c.exit.signal === 'SIGKILL')).toBe(true);
    expect(crashes.some((c) => c.pid === d && c.program === 'daemon')).toBe(true);
    expect(lines.join('\n')).toMatch(
      /daemon \(pid \d+\) exited with signal SIGKILL while the testnet was up; starting it again on the same data/,
    );
  });
});
