// Fresh wallets funded ahead (harness/vitest/funded.ts): the global setup's freshWallets are paid once per machine at
// difficulty 1 and cached; freshWallet of such an amount claims one (no transfer, no block), and pays from main as
// before once they are all claimed or for any other amount.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../harness/config/load.js';
import type { Testnet } from '../../harness/testnet/testnet.js';
import { contextOf, type SaltnetContext } from '../../harness/vitest/context.js';
import type { ContextFunded } from '../../harness/vitest/context.js';
import { claimFunded, startWithFresh, type FundedStart } from '../../harness/vitest/funded.js';
import { mainPool, type AcquireAnswer } from '../../harness/vitest/pool.js';
import { createDaemonClient } from '../../harness/rpc/daemon.js';
import { freshWallet, type FreshWallet } from '../../harness/vitest/index.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const SAL1 = 100_000_000n;
const FAST = { SALTNET_SIM_HASHRATE: '250000' };
const ENTRIES = [
  { unlocked: '5 SAL1', count: 2 },
  { unlocked: 3n * SAL1, count: 1 },
];

const outputs = async (w: FreshWallet): Promise<number> =>
  (
    (await w.client.call<{ transfers?: unknown[] }>('incoming_transfers', { transfer_type: 'available' })).transfers ??
    []
  ).length;

describe('fresh wallets funded ahead, on the simulator at difficulty 500', () => {
  const dir = tempDir('saltnet-funded-');
  const opts = {
    backend: 'sim' as const,
    difficulty: 500,
    cacheDir: join(dir, 'cache'),
    progress: 'none' as const,
    log: () => undefined,
    trapSignals: false,
    daemonEnv: FAST,
  };
  const lines: string[] = [];
  let t: Testnet;
  let funded: ContextFunded[];
  let pooled: FundedStart['pooled'];
  let ctx: SaltnetContext;
  beforeAll(async () => {
    ({ t, funded, pooled } = await startWithFresh(opts, ENTRIES, (l) => lines.push(l)));
    ctx = contextOf(t, 1, undefined, funded);
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
    cleanup(dir);
  });

  it('pays them once at difficulty 1, saves the state, and starts on it', () => {
    const log = lines.join('\n');
    expect(log).toMatch(
      /no snapshot sim-d1-\S+-ahead-[0-9a-f]{12}: funding the fresh wallets \(freshWallets\) at difficulty 1/,
    );
    expect(log).toMatch(/funded 3 fresh wallets ahead in [\d.]+ s \(11 blocks\)/);
    expect(log).toMatch(/saved snapshot \S+: later vitest runs hand these fresh wallets out funded/);
    expect(log).toMatch(/funded 3 fresh wallets ahead: restored with snapshot sim-d1-\S+-ahead-/);
    expect(ctx.funded).toEqual([
      { unlocked: (5n * SAL1).toString(), wallets: ['fw1-1', 'fw1-2'] },
      { unlocked: (3n * SAL1).toString(), wallets: ['fw2-1'] },
    ]);
    expect(JSON.parse(JSON.stringify(ctx))).toEqual(ctx);
    expect(t.mining.difficulty).toBe(500);
  });

  it('freshWallet of such an amount takes one: funded, unlocked, six outputs, nothing mined', async () => {
    const h0 = await t.daemon.client.height();
    const ws = await Promise.all([5n, 5n, 3n].map((n) => freshWallet(ctx, { unlocked: n * SAL1 })));
    try {
      expect(await t.daemon.client.height()).toBe(h0);
      const balances = await Promise.all(ws.map((w) => w.client.balance('SAL1')));
      // The amount in six outputs, each rounded up (as freshWallet's own funding pays), all of it unlocked.
      expect(balances.map((b) => b.unlocked === b.balance)).toEqual([true, true, true]);
      expect(balances.map((b, i) => b.unlocked - [5n, 5n, 3n][i]! * SAL1)).toEqual([4n, 4n, 6n]);
      expect(await Promise.all(ws.map(outputs))).toEqual([6, 6, 6]);
      // Three wallets of their own: three addresses, none the main wallet's.
      expect(new Set([...ws.map((w) => w.address), ctx.wallet.address]).size).toBe(4);
      for (const w of ws) expect(existsSync(join(w.dir, 'wallets', `${w.name}.keys`))).toBe(true);
      for (const n of ['fw1-1', 'fw1-2', 'fw2-1']) expect(existsSync(join(t.workdir, 'fresh-claims', n))).toBe(true);
      // A claimed wallet spends like any other.
      const sent = await ws[0]!.client.call<{ tx_hash: string }>('transfer', {
        destinations: [{ address: ws[2]!.address, amount: SAL1.toString(), asset_type: 'SAL1' }],
        source_asset: 'SAL1',
        dest_asset: 'SAL1',
        tx_type: 3,
      });
      expect(sent.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await Promise.all(ws.map((w) => w.stop()));
    }
  }, 120_000);

  it('once they are all taken, or for another amount or asset, freshWallet pays from main and mines', async () => {
    expect(claimFunded(ctx, 5n * SAL1, undefined, { walletsDir: dir, name: 'x' })).toBeUndefined();
    expect(claimFunded(ctx, 7n * SAL1, undefined, { walletsDir: dir, name: 'x' })).toBeUndefined();
    expect(claimFunded(ctx, 3n * SAL1, 'salTOK', { walletsDir: dir, name: 'x' })).toBeUndefined();
    const h0 = await t.daemon.client.height();
    const w = await freshWallet(ctx, { unlocked: 5n * SAL1 });
    try {
      expect(await t.daemon.client.height()).toBeGreaterThan(h0);
      expect((await w.client.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(5n * SAL1);
    } finally {
      await w.stop();
    }
  }, 120_000);

  it('a later setup restores the same state; at difficulty 1 none are funded ahead', async () => {
    const again: string[] = [];
    const second = await startWithFresh(opts, ENTRIES, (l) => again.push(l));
    try {
      expect(again.join('\n')).toMatch(
        /^saltnet: funded 3 fresh wallets ahead: restored with snapshot sim-d1-\S+-ahead-/,
      );
      expect(again.join('\n')).not.toMatch(/11 blocks/);
      expect(second.funded).toEqual(funded);
    } finally {
      await second.t.stop();
    }
    const said: string[] = [];
    const d1 = await startWithFresh({ ...opts, difficulty: 1 }, ENTRIES, (l) => said.push(l));
    try {
      expect(d1.funded).toEqual([]);
      expect(said).toContain(
        "saltnet: freshWallets: none funded ahead at difficulty 1, where freshWallet's own funding mines cheap blocks",
      );
    } finally {
      await d1.t.stop();
    }
  }, 120_000);

  it("on a workdir of your own none is funded ahead (its wallets are the last run's), and it says so", async () => {
    const said: string[] = [];
    const workdir = join(dir, 'kept');
    const own = await startWithFresh({ ...opts, workdir }, ENTRIES, (l) => said.push(l));
    try {
      expect(own.funded).toEqual([]);
      expect(said).toContain(
        `saltnet: freshWallets: none funded ahead on a workdir of your own (${workdir}); freshWallet pays each`,
      );
    } finally {
      await own.t.stop();
    }
  }, 120_000);

  it("the pool's testnets (useTestnet) start on the same state, each with its own wallets funded ahead", async () => {
    expect(pooled?.options.snapshotKey).toMatch(/^sim-d1-\S+-ahead-[0-9a-f]{12}$/);
    const said: string[] = [];
    const cacheDir = join(dir, 'cache');
    const poolOn = (fresh: FundedStart['pooled']) =>
      mainPool({
        options: { ...opts, cacheDir },
        cacheDir,
        timeoutFactor: 1,
        log: (l) => said.push(l),
        spec: t.backend.spec,
        max: 1,
        ...(fresh ? { fresh } : {}),
      });
    const acquire = async (p: ReturnType<typeof mainPool>): Promise<AcquireAnswer> =>
      (await p.routes['/pool/acquire']!.run(
        t,
        {},
        { cacheDir, signal: new AbortController().signal, commit: () => undefined },
      )) as AcquireAnswer;
    const pool = poolOn(pooled);
    try {
      const a = await acquire(pool);
      expect(a.context.funded).toEqual(funded);
      expect(a.context.workdir).not.toBe(t.workdir);
      const h0 = a.context.height;
      const w = await freshWallet(a.context, { unlocked: 3n * SAL1 });
      try {
        // Claimed in the pooled testnet's own workdir (the setup's fw2-1 was taken above): nothing mined.
        expect(existsSync(join(a.context.workdir, 'fresh-claims', 'fw2-1'))).toBe(true);
        expect((await w.client.balance('SAL1')).unlocked).toBe(3n * SAL1 + 6n);
        expect(await createDaemonClient(a.context.daemonUrl).height()).toBe(h0);
      } finally {
        await w.stop();
      }
    } finally {
      await pool.close();
    }
    // That state gone (`saltnet cache clear` meanwhile): a plain testnet, said, with no wallets funded ahead.
    const gone = poolOn({ options: { snapshotKey: 'sim-gone-ahead-000000000000', unlocked: SAL1 }, funded });
    try {
      const b = await acquire(gone);
      expect(b.context.funded).toBeUndefined();
      expect(said.join('\n')).toMatch(
        /pool: could not start on snapshot sim-gone-ahead-000000000000 \(.*\); this testnet's freshWallet pays each/,
      );
    } finally {
      await gone.close();
    }
  }, 180_000);

  it('more than unlocked is refused before anything starts, naming the fix', async () => {
    await expect(startWithFresh(opts, [{ unlocked: '600 SAL1', count: 2 }], () => undefined)).rejects.toThrow(
      /^freshWallets: 2 wallets funded ahead take 1202 SAL1 with fees, more than unlocked \(1100 SAL1\): raise unlocked/,
    );
  });

  it('the config key is checked: a missing count or a zero amount names the field', async () => {
    const file = join(dir, 'saltnet.config.yaml');
    writeFileSync(file, 'freshWallets:\n  - unlocked: 10 SAL1\n    count: 4\n');
    expect((await loadConfigFile(file)).config.freshWallets).toEqual([{ unlocked: '10 SAL1', count: 4 }]);
    writeFileSync(file, 'freshWallets:\n  - unlocked: 10 SAL1\n');
    await expect(loadConfigFile(file)).rejects.toThrow(/freshWallets/);
    writeFileSync(file, 'freshWallets:\n  - { unlocked: 0, count: 1 }\n');
    await expect(loadConfigFile(file)).rejects.toThrow(/freshWallets/);
  });
});

describe('fresh wallets funded ahead: the refusal', () => {
  it('counts one wallet in the singular', async () => {
    const opts = { backend: 'sim' as const, progress: 'none' as const, log: () => undefined, trapSignals: false };
    await expect(startWithFresh(opts, [{ unlocked: '1200 SAL1', count: 1 }], () => undefined)).rejects.toThrow(
      /^freshWallets: 1 wallet funded ahead takes 1201 SAL1 with fees, more than unlocked \(1100 SAL1\): raise unlocked/,
    );
  });
});
