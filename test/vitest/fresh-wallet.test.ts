// saltnet/vitest's pieces in this process: the context, connect(), freshWallet() (its own wallet
// RPC, funding from the main wallet, cleanup, errors that name the fix), mine(), the chain lock
// across processes, and the global setup's options (saltnet.config under options in code).
import { execa } from 'execa';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import { resolveConfig } from '../../harness/config/resolve.js';
import { isAlive, listRuns } from '../../harness/process/registry.js';
import { cleanup, tempDir } from '../helpers/sim.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';
import { contextChainLockPath, withChainLock } from '../../harness/vitest/chain-lock.js';
import { checkContext, contextOf, type SaltnetContext } from '../../harness/vitest/context.js';
import { saltnetGlobalSetup, testnetOptionsFrom } from '../../harness/vitest/global-setup.js';
import { connect, freshWallet, mine } from '../../harness/vitest/index.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The simulator at ~500 blocks/s. */
const FAST = { SALTNET_SIM_HASHRATE: '250000' };
const SAL1 = 100_000_000n;
const quiet = { progress: 'none' as const, log: () => undefined, trapSignals: false, daemonEnv: FAST };

const recordOf = (pid: number) => listRuns().find((r) => r.processes.some((p) => p.pid === pid));

describe('freshWallet and friends against a testnet in this process', () => {
  let t: Testnet;
  let ctx: SaltnetContext;
  beforeAll(async () => {
    // The default chain (height 1201, 1100 SAL1): restored from this test run's cache when another test built it.
    t = await startTestnet({ ...quiet, backend: 'sim' });
    ctx = contextOf(t, 1);
  }, 180_000);
  afterAll(async () => {
    await t?.stop();
  });

  it('the context is plain JSON with what a worker needs', () => {
    expect(JSON.parse(JSON.stringify(ctx))).toEqual(ctx);
    expect(ctx).toMatchObject({
      version: 1,
      backend: 'sim',
      spec: { name: 'sim', asset: 'SAL1', carrotHeight: 1100, tokenHeight: 1200 },
      daemonUrl: t.daemon.url,
      workdir: t.workdir,
      runId: t.runId,
    });
    expect(ctx.wallet.address).toBe(ctx.wallet.addresses.carrot);
    expect(ctx.miner.addresses.cn).not.toBe(ctx.wallet.addresses.cn);
    for (const p of Object.values(ctx.binaries)) expect(existsSync(p), p).toBe(true);
    expect(['hit', 'built']).toContain(ctx.snapshot.status);
  });

  it('a missing or foreign context names the fix', () => {
    expect(() => checkContext(undefined)).toThrow(/globalSetup: \['saltnet\/vitest\/global-setup'\]/);
    expect(() => checkContext({ ...ctx, version: 2 })).toThrow(/same saltnet package/);
    expect(checkContext(ctx)).toBe(ctx);
  });

  it('connect() gives clients of the daemon and the main wallet', async () => {
    const net = connect(ctx);
    try {
      expect(await net.daemon.height()).toBeGreaterThanOrEqual(ctx.height);
      expect((await net.wallet.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(1100n * SAL1);
    } finally {
      await net.close();
    }
  });

  it('an unfunded fresh wallet has a wallet RPC and folder of its own, both gone after stop()', async () => {
    const w = await freshWallet(ctx, { name: 'plain' });
    expect(w.name).toBe('plain');
    expect(w.address).toBe(w.addresses.carrot);
    expect(w.address).not.toBe(ctx.wallet.address);
    expect(w.url).not.toBe(ctx.wallet.url);
    expect((await w.client.balance('SAL1')).balance).toBe(0n);
    expect(isAlive(w.pid)).toBe(true);
    expect(existsSync(join(w.dir, 'wallets', 'plain.keys'))).toBe(true);
    const rec = recordOf(w.pid);
    expect(rec?.workdir).toBe(w.dir);
    await w.stop();
    expect(isAlive(w.pid)).toBe(false);
    expect(existsSync(w.dir)).toBe(false);
    expect(listRuns().find((r) => r.runId === rec?.runId)).toBeUndefined();
    await w.stop(); // idempotent
  });

  it('a funded fresh wallet holds the amount unlocked, in six outputs', async () => {
    const w = await freshWallet(ctx, { name: 'funded', unlocked: 3n * SAL1 });
    try {
      expect((await w.client.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(3n * SAL1);
      const r = await w.client.call<{ transfers?: unknown[] }>('incoming_transfers', { transfer_type: 'available' });
      expect(r.transfers).toHaveLength(6);
    } finally {
      await w.stop();
    }
  }, 120_000);

  it('several fundings at once are queued, and every wallet gets its funds', async () => {
    const ws = await Promise.all([1n, 2n, 3n].map((n) => freshWallet(ctx, { unlocked: n * SAL1 })));
    try {
      expect(ws.map((w) => w.name)).toEqual(['wallet-1', 'wallet-2', 'wallet-3']);
      const unlocked = await Promise.all(ws.map(async (w) => (await w.client.balance('SAL1')).unlocked));
      expect(unlocked.map((u, i) => u >= BigInt(i + 1) * SAL1)).toEqual([true, true, true]);
      // One stopped while the others are up: its own folder goes now, the test file's stays.
      await ws[0]!.stop();
      expect(existsSync(ws[0]!.dir)).toBe(false);
      expect(existsSync(ws[1]!.dir)).toBe(true);
    } finally {
      await Promise.all(ws.map((w) => w.stop()));
    }
    // The test file's folder went with its last wallet.
    expect(existsSync(ws[0]!.dir.replace(/\/wallet-1$/, ''))).toBe(false);
  }, 180_000);

  it('names: letters, digits, - and _, one of each among the wallets up', async () => {
    await expect(freshWallet(ctx, { name: 'a b' })).rejects.toThrow(/name "a b" must be letters, digits, - or _/);
    await expect(freshWallet(ctx, { unlocked: -1n })).rejects.toThrow(
      /unlocked must be a bigint of atomic units >= 0n/,
    );
    const w = await freshWallet(ctx, { name: 'twice' });
    try {
      await expect(freshWallet(ctx, { name: 'twice' })).rejects.toThrow(
        /has a fresh wallet named twice up already: give each one its own name/,
      );
    } finally {
      await w.stop();
    }
  });

  it('mine() mines at least the blocks asked for', async () => {
    const before = await t.daemon.client.height();
    const after = await mine(ctx, 3);
    expect(after).toBeGreaterThanOrEqual(before + 3);
    expect(await t.daemon.client.height()).toBe(after);
    await expect(mine(ctx, 0)).rejects.toThrow(/whole number >= 1/);
  });
  // Last: a failed wallet keeps the test file's folder (its logs), which this test then removes.
  it('funding more than the main wallet holds fails naming the fix; the wallet RPC goes, its logs stay', async () => {
    const err: Error = await freshWallet(ctx, { name: 'greedy', unlocked: 1_000_000n * SAL1 }).then(
      () => new Error('freshWallet should have failed'),
      (e: Error) => e,
    );
    expect(err.message).toMatch(
      /freshWallet greedy failed: funding greedy with 100000000000000 SAL1 from the main wallet failed: .*The main wallet holds \d+ unlocked .*raise unlocked in saltnet\.config/s,
    );
    const logs = /its logs are kept in (.+)\)$/.exec(err.message)?.[1];
    expect(logs && existsSync(join(logs, 'wallet-rpc-greedy.log'))).toBe(true);
    const dir = join(logs!, '..');
    expect(listRuns().filter((r) => r.workdir === dir)).toEqual([]);
    cleanup(join(dir, '..'));
  }, 60_000);
});

describe('the chain lock', () => {
  // Children import the built module (dist/): the same file lock, another process.
  const LOCKER = `
const [mod, workdir, id, log, rounds] = process.argv.slice(1);
const { withChainLock } = await import(mod);
const { appendFileSync } = await import('node:fs');
const { setTimeout: sleep } = await import('node:timers/promises');
for (let i = 0; i < Number(rounds); i++) {
  await withChainLock({ workdir }, async () => {
    appendFileSync(log, id + ' in\\n');
    await sleep(20);
    appendFileSync(log, id + ' out\\n');
  });
}`;

  it('lets one holder in at a time, across processes and within one', async () => {
    const workdir = tempDir('saltnet-chain-lock-');
    try {
      const log = join(workdir, 'log');
      writeFileSync(log, '');
      const mod = join(ROOT, 'dist/harness/vitest/chain-lock.js');
      const children = ['a', 'b', 'c'].map((id) =>
        execa(process.execPath, ['--input-type=module', '-e', LOCKER, mod, workdir, id, log, '4']),
      );
      const here = Promise.all(
        Array.from({ length: 4 }, () =>
          withChainLock({ workdir }, async () => {
            writeFileSync(log, 'here in\n', { flag: 'a' });
            await new Promise((r) => setTimeout(r, 20));
            writeFileSync(log, 'here out\n', { flag: 'a' });
          }),
        ),
      );
      await Promise.all([...children, here]);
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(2 * 16);
      // Every "in" is followed by the same holder's "out" before anyone else's "in".
      for (let i = 0; i < lines.length; i += 2)
        expect(lines[i + 1], `line ${i + 2} of\n${lines.join('\n')}`).toBe(lines[i]!.replace(/ in$/, ' out'));
      expect(existsSync(`${contextChainLockPath({ workdir })}.lock`)).toBe(false);
    } finally {
      cleanup(workdir);
    }
  }, 60_000);

  it('a failing holder releases the lock for the next', async () => {
    const workdir = tempDir('saltnet-chain-lock-');
    try {
      await expect(withChainLock({ workdir }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      expect(await withChainLock({ workdir }, async () => 'next')).toBe('next');
    } finally {
      cleanup(workdir);
    }
  });
});

describe('the global setup', () => {
  it("takes saltnet.config's values under the options given in code, never its workdir, and always traps signals", async () => {
    const dir = tempDir('saltnet-vitest-config-');
    try {
      writeFileSync(
        join(dir, 'saltnet.config.yaml'),
        'backend: sim\nheight: 300\nunlocked: "50 SAL1"\ndifficulty: 100\nworkdir: ./keep\ntimeoutFactor: 2\nlogin: digest\n',
      );
      const cfg = await resolveConfig({ cwd: dir, env: {} });
      const o = testnetOptionsFrom(cfg.values);
      expect(o).toMatchObject({
        backend: 'sim',
        height: 300,
        unlocked: 50n * SAL1,
        difficulty: 100,
        timeoutFactor: 2,
        login: 'digest',
        snapshots: true,
        trapSignals: true,
        progress: 'none',
      });
      expect(o.workdir).toBeUndefined();
      expect(o.cacheDir).toBe(cfg.values.cacheDir);
      const coded = testnetOptionsFrom(cfg.values, {
        height: 40,
        unlocked: 0n,
        config: 'ignored',
        workdir: '/tmp/mine',
      });
      expect(coded).toMatchObject({
        height: 40,
        unlocked: 0n,
        difficulty: 100,
        workdir: '/tmp/mine',
        trapSignals: true,
      });
      expect(coded).not.toHaveProperty('config');
      // A unit that does not fit the backend is the config's mistake, said as such.
      writeFileSync(join(dir, 'saltnet.config.yaml'), 'backend: sim\nunlocked: "1 XMR"\n');
      const bad = await resolveConfig({ cwd: dir, env: {} });
      expect(() => testnetOptionsFrom(bad.values)).toThrow(/is in XMR, but the sim backend's coin is SAL1/);
    } finally {
      cleanup(dir);
    }
  });

  it('starts the testnet the config describes, provides its context and stops it in the teardown', async () => {
    const dir = tempDir('saltnet-vitest-config-');
    const provided = new Map<string, unknown>();
    // vitest's defaults, and no saltnet/vitest/setup among the setup files.
    const project = {
      config: { root: dir, testTimeout: 5_000, hookTimeout: 10_000, setupFiles: [] },
      provide: (k: string, v: unknown) => provided.set(k, v),
    } as unknown as TestProject;
    const lines: string[] = [];
    try {
      // A small chain of its own: 30 blocks, nothing to fund (the cache is this test run's: SALTNET_CACHE_DIR).
      writeFileSync(join(dir, 'saltnet.config.yaml'), 'backend: sim\nheight: 30\nunlocked: 0\n');
      const teardown = await saltnetGlobalSetup({ daemonEnv: FAST, log: (l) => lines.push(l) })(project);
      const ctx = checkContext(provided.get('saltnet'));
      try {
        expect(ctx.backend).toBe('sim');
        // The simulator's timeouts, above vitest's defaults; said once, with what to add to apply them.
        expect(ctx.timeouts).toEqual({ test: 60_000, hook: 120_000 });
        expect(lines.filter((l) => l.startsWith('saltnet: testing on'))).toEqual([
          "saltnet: testing on the built-in simulator at difficulty 500; tests need up to 60 s but vitest's testTimeout 5 s applies: add setupFiles: ['saltnet/vitest/setup'] to vitest.config (set SALTNET_BACKEND=salvium for real Salvium)",
        ]);
        expect(ctx.height).toBeGreaterThanOrEqual(30);
        expect(ctx.height).toBeLessThan(40);
        // the chain state mined at difficulty 1, served at the backend's 500
        expect(ctx.snapshot.key).toMatch(/^sim-d1-h30-/);
        expect(ctx.mining).toMatchObject({ difficulty: 500 });
      } finally {
        await teardown();
      }
      const rec = listRuns().find((r) => r.runId === ctx.runId);
      expect(rec).toBeUndefined();
      expect(existsSync(ctx.workdir)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
