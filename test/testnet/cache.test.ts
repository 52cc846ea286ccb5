// The chain-state cache as `up` uses it, on the simulator: a miss builds and saves, a hit restores
// (same addresses, height and funds, no mining), a change of anything in the key misses, a corrupt
// snapshot is reported, never used, and rebuilt, a run killed while saving leaves no half
// snapshot, and two runs missing the same key build it once (checkpoints: checkpoint.test.ts).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { cleanup, rpc, tempDir } from '../helpers/sim.js';
import { listSnapshots, removeSnapshot } from '../../harness/snapshot/store.js';
import { chainKey } from '../../harness/testnet/chain/chain-cache.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';
import { fixtureWallet } from '../../harness/testnet/programs/fixture-wallets.js';
import { startTestnet, type Testnet, type TestnetOptions } from '../../harness/testnet/testnet.js';

const FAST = { SALTNET_SIM_HASHRATE: '250000' };
const SAL1 = 100_000_000n;
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'harness', 'cli', 'main.js');

let root: string;
let cache: string;
const logs: string[] = [];
const opts = (o: Partial<TestnetOptions> = {}): TestnetOptions => ({
  backend: 'sim',
  progress: 'none',
  trapSignals: false,
  daemonEnv: FAST,
  log: (l) => logs.push(l),
  detail: (l) => logs.push(l),
  cacheDir: cache,
  height: 300,
  unlocked: 100n * SAL1,
  ...o,
});
const blockDifficulty = async (t: Testnet, height: number): Promise<number> => {
  const r = (await rpc(t.daemon.ports.rpc, 'get_block_header_by_height', { height })) as {
    result: { block_header: { difficulty: number } };
  };
  return r.result.block_header.difficulty;
};
const snapshotDirs = (): string[] => readdirSync(join(cache, 'snapshots')).filter((n) => !n.startsWith('.'));

beforeAll(() => {
  root = tempDir('saltnet-cachetest-');
  cache = join(root, 'cache');
});
afterAll(() => cleanup(root));

describe('up with the chain-state cache', () => {
  let built: { addresses: unknown; miner: unknown; height: number; key: string };

  it('a miss builds the state and saves it', async () => {
    const t = await startTestnet(opts());
    try {
      expect(t.snapshot.status).toBe('built');
      expect(t.snapshot.key).toMatch(/^sim-d1-h300-[0-9a-f]{12}$/);
      expect(t.phases.snapshotSave).toBeGreaterThan(0);
      // mined at difficulty 1, served at the difficulty asked for (the backend's 500): a block mined now is mined at
      // 500
      expect(t.snapshot.prefix).toEqual({ difficulty: 1, height: t.readyHeight });
      expect(t.mining).toMatchObject({ difficulty: 500 });
      expect((await t.daemon.client.getInfo()).difficulty).toBe(500);
      await t.mine(1);
      expect(await blockDifficulty(t, t.readyHeight)).toBe(500);
      expect(await blockDifficulty(t, 100)).toBe(1);
      await t.daemon.client.popBlocks(1);
      built = { addresses: t.wallet.addresses, miner: t.miner.addresses, height: t.readyHeight, key: t.snapshot.key! };
      // after the save the processes run again, on the same endpoints
      expect(await t.daemon.client.height()).toBe(t.readyHeight);
      expect((await t.wallet.client.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(100n * SAL1);
    } finally {
      await t.stop();
    }
    const [s] = listSnapshots(cache);
    expect(s).toMatchObject({ key: built.key, backend: 'sim', height: built.height, difficulty: 1 });
    const manifest = JSON.parse(readFileSync(join(cache, 'snapshots', built.key, 'manifest.json'), 'utf8')) as {
      files: { path: string }[];
      wallets: { name: string }[];
    };
    const paths = manifest.files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining(['wallets/main.keys', 'wallets/miner.keys', 'wallets/addresses.json']),
    );
    expect(paths.some((p) => p.startsWith('daemon/'))).toBe(true);
    expect(paths.filter((p) => p.endsWith('.rpc-login') || p.endsWith('.log'))).toEqual([]);
    expect(manifest.wallets.map((w) => w.name)).toEqual(['miner', 'main']);
  });

  it('a hit restores the same chain and wallets without mining', async () => {
    const t = await startTestnet(opts());
    try {
      expect(t.snapshot).toMatchObject({ status: 'hit', key: built.key });
      expect(t.readyHeight).toBe(built.height);
      expect(t.wallet.addresses).toEqual(built.addresses);
      expect(t.miner.addresses).toEqual(built.miner);
      expect(t.phases.walletCreated).toBeUndefined();
      expect(t.phases.snapshotSave).toBeUndefined();
      // The main wallet's RPC starts beside the daemon (its wallet is on disk): its phase begins first.
      expect(Object.keys(t.phases)).toEqual(['snapshotRestore', 'walletRpcReady', 'daemonReady', 'mined']);
      expect((await t.wallet.client.balance('SAL1')).unlocked).toBeGreaterThanOrEqual(100n * SAL1);
    } finally {
      await t.stop();
    }
    expect(logs.some((l) => l.includes(`restored snapshot ${built.key}`))).toBe(true);
  });

  it("a change of height, prefix difficulty, funds or the wallets' lookahead is another key (a miss); the served difficulty is not", async () => {
    const be = resolveBackend('sim');
    const seeds = [fixtureWallet('miner').seed, fixtureWallet('main').seed];
    const base = {
      difficulty: 500,
      prefixDifficulty: 1,
      height: 300,
      unlocked: 100n * SAL1,
      asset: 'SAL1',
      seeds,
      lookahead: '2:20',
    };
    const k = await chainKey(be, base);
    expect(k).toBe(built.key);
    expect(k).toMatch(/^sim-d1-h300-/);
    expect(await chainKey(be, { ...base, difficulty: 7 })).toBe(k);
    const others = await Promise.all([
      chainKey(be, { ...base, height: 301 }),
      chainKey(be, { ...base, prefixDifficulty: 500 }),
      chainKey(be, { ...base, unlocked: 101n * SAL1 }),
      chainKey(be, { ...base, seeds: [seeds[0]!, fixtureWallet('miner').seed] }),
      chainKey(be, { ...base, lookahead: '50:200' }),
    ]);
    expect(new Set([k, ...others]).size).toBe(6);
    const t = await startTestnet(opts({ height: 301 }));
    try {
      expect(t.snapshot.status).toBe('built');
      expect(t.snapshot.key).not.toBe(built.key);
    } finally {
      await t.stop();
    }
    expect(snapshotDirs().sort()).toEqual([built.key, t.snapshot.key].sort());
  });

  it('one snapshot serves every difficulty; prefix difficulty "same" mines every block at the served one (a key of its own)', async () => {
    const t = await startTestnet(opts({ difficulty: 7 }));
    try {
      expect(t.snapshot).toMatchObject({
        status: 'hit',
        key: built.key,
        prefix: { difficulty: 1, height: built.height },
      });
      expect((await t.daemon.client.getInfo()).difficulty).toBe(7);
    } finally {
      await t.stop();
    }
    const same = await startTestnet(opts({ difficulty: 7, prefixDifficulty: 'same' }));
    try {
      expect(same.snapshot.status).toBe('built');
      expect(same.snapshot.key).toMatch(/^sim-d7-h300-/);
      expect(await blockDifficulty(same, 100)).toBe(7);
      expect(same.phases.daemonServe).toBeUndefined();
    } finally {
      await same.stop();
    }
    removeSnapshot(cache, same.snapshot.key!);
  });

  it('a corrupt snapshot is reported, never used, moved aside and rebuilt', async () => {
    const file = join(cache, 'snapshots', built.key, 'wallets', 'addresses.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"main"', '"mian"'));
    const t = await startTestnet(opts());
    try {
      expect(t.snapshot.status).toBe('rebuilt');
      expect(t.wallet.addresses).toEqual(built.addresses);
    } finally {
      await t.stop();
    }
    expect(
      logs.some((l) => l.includes(`snapshot ${built.key} is corrupt`) && l.includes('wallets/addresses.json')),
    ).toBe(true);
    expect(snapshotDirs().filter((n) => n.startsWith(`${built.key}.corrupt-`))).toHaveLength(1);
    const again = await startTestnet(opts());
    expect(again.snapshot.status).toBe('hit');
    await again.stop();
  });

  it('two runs that miss the same key build it once', async () => {
    const [a, b] = await Promise.all([startTestnet(opts({ height: 250 })), startTestnet(opts({ height: 250 }))]);
    try {
      expect([a.snapshot.status, b.snapshot.status].sort()).toEqual(['built', 'hit']);
      expect(a.wallet.addresses).toEqual(b.wallet.addresses);
      expect(a.daemon.url).not.toBe(b.daemon.url);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(logs.some((l) => l.includes('another saltnet is building snapshot'))).toBe(true);
  });

  it('with snapshots off it neither reads nor writes the cache', async () => {
    const before = snapshotDirs().sort();
    const t = await startTestnet(opts({ height: 260, snapshots: false }));
    expect(t.snapshot.status).toBe('off');
    await t.stop();
    expect(snapshotDirs().sort()).toEqual(before);
  });
});

describe('a run killed while saving', () => {
  it('leaves no half snapshot, and the next run builds it again', async () => {
    // `saltnet up` in its own process, SIGKILLed as soon as it says it is saving.
    const killCache = join(root, 'kill-cache');
    const child = spawn(
      process.execPath,
      [CLI, 'up', '--verbose', '--backend', 'sim', '--height', '200', '--unlocked', '10', '--cache-dir', killCache],
      {
        // a run registry of its own: `saltnet down` below must not touch other tests' testnets
        env: { ...process.env, ...FAST, SALTNET_STATE_DIR: join(root, 'kill-state') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // A test that fails before its kill (a line never said) leaves no testnet running: its watchdog reaps the rest.
    onTestFinished(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
    let err = '';
    const killed = new Promise<void>((ok) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/wallet \S+ ready at/.test(err) && child.exitCode === null) {
          child.kill('SIGKILL');
          ok();
        }
      });
      child.on('exit', () => ok());
    });
    await killed;
    if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    expect(err).toMatch(/wallet \S+ ready at/);
    // whatever moment the kill hit, the cache holds a complete snapshot or none
    expect(listSnapshots(killCache).length).toBeLessThanOrEqual(1);
    const leftovers = existsSync(join(killCache, 'snapshots'))
      ? readdirSync(join(killCache, 'snapshots')).filter((n) => !n.startsWith('.build-'))
      : [];
    for (const n of leftovers.filter((x) => !x.startsWith('.')))
      expect(existsSync(join(killCache, 'snapshots', n, 'manifest.json'))).toBe(true);
    // the watchdog reaps the killed run's processes; then `down` clears the record. The killed run
    // could not remove its temporary workdir (kept, like any failed run's, for its logs): this test does.
    execFileSync(process.execPath, [CLI, 'down'], {
      env: { ...process.env, SALTNET_STATE_DIR: join(root, 'kill-state') },
      stdio: 'ignore',
      timeout: 60_000,
    });
    const workdir = /wallet (\S+)\/wallets\/main ready/.exec(err)?.[1];
    expect(workdir).toBeDefined();
    rmSync(workdir!, { recursive: true, force: true });
    const t = await startTestnet(opts({ cacheDir: killCache, height: 200, unlocked: 10n * SAL1 }));
    try {
      expect(['built', 'hit']).toContain(t.snapshot.status);
      expect(t.readyHeight).toBeGreaterThanOrEqual(200);
    } finally {
      await t.stop();
    }
    expect(listSnapshots(killCache)).toHaveLength(1);
  }, 120_000);
});
