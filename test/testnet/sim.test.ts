// The whole lifecycle on the simulator: up (daemon, wallet by CLI, wallet RPC, mining across the
// Carrot switch, funds unlocked), a transfer, a token, clean shutdown with nothing left behind.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../harness/process/registry.js';
import { cleanup, SIM_BIN_DIR, tempDir } from '../helpers/sim.js';
import { wordsToSeed } from '../../harness/sim/crypto/mnemonic.js';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';
import { fixtureAddresses, fixtureWallet } from '../../harness/testnet/programs/fixture-wallets.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';

/** The simulator at ~500 blocks/s: difficulty 500 and a fast simulated hash rate. */
const FAST = { SALTNET_SIM_HASHRATE: '250000' };
const SAL1 = 100_000_000n;
const quiet = { progress: 'none' as const, log: () => undefined, trapSignals: false, daemonEnv: FAST };

const gone = (pid: number): boolean => !isAlive(pid);
/** A seed no fixture wallet has. */
const OTHER_SEED =
  'artistic money dagger akin dwelt omega umbrella dagger lively ulcers olympics vapidly mirror either firm quick atlas pigment nuance masterful legion fudge emotion family dagger';

describe('up on sim', () => {
  let t: Testnet;
  let lines: string[];
  let cache: string;
  beforeAll(async () => {
    lines = [];
    // A cache of its own: this is a cold start (build, then save) whatever ran before.
    cache = tempDir('saltnet-cache-');
    t = await startTestnet({ ...quiet, backend: 'sim', log: (l) => lines.push(l), cacheDir: cache });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    cleanup(cache);
  });

  it('reaches the token height with 1100 SAL1 unlocked and says which backend it picked', async () => {
    expect(t.readyHeight).toBeGreaterThanOrEqual(1201);
    const b = await t.wallet.client.balance('SAL1');
    expect(b.unlocked).toBeGreaterThanOrEqual(1100n * SAL1);
    expect(lines[0]).toBe('saltnet: sim backend (the built-in simulator)');
    expect(t.wallet.address).toBe(t.wallet.addresses.carrot);
    expect(t.wallet.addresses.cn).toMatch(/^SaLvT/);
    expect(t.snapshot.status).toBe('built');
    // Cold: the chain is mined before any wallet RPC runs; the wallet RPC then finds the funds.
    expect(Object.keys(t.phases)).toEqual([
      'snapshotRestore',
      'daemonReady',
      'walletCreated',
      'mined',
      'walletRpcReady',
      'funded',
      'snapshotSave',
    ]);
  });

  it('restores the fixture wallets: the same addresses on every machine, miner and main apart', async () => {
    const main = fixtureWallet('main');
    const miner = fixtureWallet('miner');
    const expected = (seed: string) => walletFromSeed(wordsToSeed(seed), 'testnet');
    expect(t.wallet.addresses).toEqual({
      cn: expected(main.seed).cn.address,
      carrot: expected(main.seed).carrot.address,
    });
    expect(t.miner.addresses).toEqual({
      cn: expected(miner.seed).cn.address,
      carrot: expected(miner.seed).carrot.address,
    });
  });

  it('mines only the blocks its funds need to the main wallet (the rest to the miner)', async () => {
    const r = await t.wallet.client.call<{ transfers?: { block_height: number }[] }>('incoming_transfers', {
      transfer_type: 'all',
    });
    const heights = (r.transfers ?? []).map((x) => x.block_height);
    // 32 planned; each stretch may overshoot by a few blocks on a loaded machine (~500 blocks/s here)
    expect(heights.length).toBeGreaterThanOrEqual(28);
    expect(heights.length).toBeLessThanOrEqual(45);
    // SAL1 coinbase only (SAL below 815 is invalid from HF11), and nearly all unlocked at the height reached
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(815);
    expect(heights.filter((h) => h <= t.readyHeight - 60).length).toBeGreaterThanOrEqual(28);
  });

  it('ends mining exactly at the target (the blocks found past it are popped), again and again', async () => {
    for (const n of [25, 1, 1, 3]) {
      const start = await t.daemon.client.height();
      expect(await t.mine({ to: start + n })).toBe(start + n);
      expect(await t.daemon.client.height()).toBe(start + n);
      expect((await t.daemon.client.miningStatus()).active).toBe(false);
    }
  });

  it('sends SAL1 and creates a token on the funded wallet', async () => {
    const tx = await t.wallet.client.call<{ tx_hash: string }>('transfer', {
      destinations: [{ address: t.wallet.address, amount: 100_000_000, asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    expect(tx.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    const token = await t.wallet.client.call<{ tx_hash_list: string[] }>('create_token', {
      ticker: 'UPUP',
      supply: 10,
      name: 'up',
    });
    expect(token.tx_hash_list).toHaveLength(1);
    await t.mine(1);
    expect(await t.wallet.client.call('get_tokens', { regex: 'UPUP' })).toEqual({ tokens: ['salUPUP'] });
  });

  it('adds a named wallet, and restarts the daemon and wallets on the same endpoints with their state', async () => {
    const bob = await t.addWallet('bob');
    expect(bob.addresses.carrot).toMatch(/^SC1T/);
    expect([...t.wallets().keys()]).toEqual(['main', 'bob']);
    await t.wallet.client.call('transfer', {
      destinations: [{ address: bob.addresses.carrot, amount: 250_000_000, asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    const h = await t.mine(1);
    const daemonPid = t.daemon.pid;
    await t.restart('daemon');
    expect(t.daemon.pid).not.toBe(daemonPid);
    expect(await t.daemon.client.height()).toBe(h);
    const bobPid = bob.pid;
    await t.restart('wallet', 'bob');
    expect(bob.pid).not.toBe(bobPid);
    await bob.client.refresh();
    expect((await bob.client.balance()).balance).toBe(250_000_000n);
    await t.restart('wallet');
    expect(await t.wallet.client.height()).toBe(h);
  });

  it('writes each process’s log and never the wallet password', () => {
    const pw = readFileSync(join(t.workdir, 'wallets', '.password'), 'utf8');
    expect(pw.length).toBeGreaterThan(10);
    const logs = readdirSync(join(t.workdir, 'logs'));
    expect(logs).toEqual(
      expect.arrayContaining([
        'daemon.log',
        'wallet-cli-miner.log',
        'wallet-cli-main.log',
        'wallet-rpc.log',
        'wallet-rpc-bob.log',
      ]),
    );
    for (const f of logs) expect(readFileSync(join(t.workdir, 'logs', f), 'utf8'), f).not.toContain(pw);
    for (const p of t.supervisor.processes()) expect(p.commandLine).not.toContain(pw);
  });

  it('stops every process and removes its temporary workdir', async () => {
    const pids = [...t.supervisor.processes().map((p) => p.pid)];
    const workdir = t.workdir;
    await t.stop();
    expect(pids.filter((p) => !gone(p))).toEqual([]);
    expect(existsSync(workdir)).toBe(false);
  });
});

describe('up with options', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-up-');
  });
  afterAll(() => cleanup(dir));

  it('brings the same workdir up again: same wallet, chain continued, data kept', async () => {
    const workdir = join(dir, 'keep');
    const first = await startTestnet({ ...quiet, backend: 'sim', workdir, height: 50, unlocked: 0n });
    const addr = first.wallet.addresses.cn;
    const h = first.readyHeight;
    await first.stop();
    expect(existsSync(join(workdir, 'wallets', 'main.keys'))).toBe(true);
    const again = await startTestnet({ ...quiet, backend: 'sim', workdir, height: 60, unlocked: 0n });
    expect(again.wallet.addresses.cn).toBe(addr);
    expect(again.readyHeight).toBeGreaterThanOrEqual(Math.max(h, 60));
    await again.stop();
  }, 60_000);

  it('creates the wallet through the wallet RPC when asked, and reopens it on the same workdir', async () => {
    const workdir = join(dir, 'by-rpc');
    const t = await startTestnet({
      ...quiet,
      backend: 'sim',
      workdir,
      height: 20,
      unlocked: 0n,
      walletCreation: 'rpc',
    });
    const addr = t.wallet.addresses.cn;
    expect(addr).toMatch(/^SaLvT/);
    expect(
      t.supervisor
        .processes()
        .filter((p) => p.running)
        .map((p) => p.name),
    ).toEqual(['daemon', 'wallet-rpc']); // no wallet CLI
    expect(t.supervisor.processes().some((p) => p.name.startsWith('wallet-cli'))).toBe(false);
    expect(existsSync(join(workdir, 'wallets', 'main.keys'))).toBe(true);
    await t.stop();
    const again = await startTestnet({
      ...quiet,
      backend: 'sim',
      workdir,
      height: 20,
      unlocked: 0n,
      walletCreation: 'rpc',
    });
    expect(again.wallet.addresses.cn).toBe(addr);
    await again.stop();
  }, 60_000);

  it('uses HTTP Digest login with generated credentials when asked', async () => {
    const t = await startTestnet({ ...quiet, backend: 'sim', height: 20, unlocked: 0n, login: 'digest' });
    try {
      expect(t.wallet.credentials?.username).toBe('saltnet');
      expect(await t.wallet.client.version()).toBe(65564);
      const res = await fetch(`${t.wallet.url}/json_rpc`, {
        method: 'POST',
        body: '{"jsonrpc":"2.0","id":1,"method":"get_version"}',
      });
      expect(res.status).toBe(401);
      const login = readFileSync(join(t.workdir, 'wallets', '.rpc-login'), 'utf8');
      expect(login).toBe(`saltnet:${t.wallet.credentials!.password}`);
      for (const p of t.supervisor.processes()) expect(p.commandLine).not.toContain(t.wallet.credentials!.password);
    } finally {
      await t.stop();
    }
  }, 60_000);

  it('restarts a wallet RPC that crashes during startup, and reports it', async () => {
    // A --bin-dir of wrappers around the simulator whose wallet RPC dies with SIGSEGV on its first start, and whose
    // wallet CLI restores another seed in place of the miner's (as a fork's programs, which derive other addresses).
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const marker = join(dir, 'crashed-once');
    writeFileSync(join(bin, 'salviumd'), `#!/bin/sh\nexec "${join(SIM_BIN_DIR, 'salviumd')}" "$@"\n`);
    writeFileSync(
      join(bin, 'salvium-wallet-cli'),
      `#!/bin/sh\nsed -u 's/^${fixtureWallet('miner').seed}$/${OTHER_SEED}/' | exec "${join(SIM_BIN_DIR, 'salvium-wallet-cli')}" "$@"\n`,
    );
    writeFileSync(
      join(bin, 'salvium-wallet-rpc'),
      `#!/bin/sh\nif [ ! -e "${marker}" ]; then touch "${marker}"; echo "scanning..."; kill -SEGV $$; fi\nexec "${join(SIM_BIN_DIR, 'salvium-wallet-rpc')}" "$@"\n`,
    );
    for (const name of ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc']) chmodSync(join(bin, name), 0o755);
    const lines: string[] = [];
    const t = await startTestnet({
      ...quiet,
      backend: 'salvium',
      binDir: bin,
      height: 20,
      unlocked: 0n,
      log: (l) => lines.push(l),
    });
    try {
      expect(lines[0]).toBe(`saltnet: salvium binaries from --bin-dir ${bin}`);
      // The miner restored is not the one the fixture lists: the blocks mined to the listed addresses are mined again.
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^saltnet: fixtures\/wallets\/miner\.json lists .* for salvium, but the wallet CLI restored .* from its seed; mining again to the restored wallets$/,
        ),
      );
      expect(t.miner.addresses).toEqual({
        cn: walletFromSeed(wordsToSeed(OTHER_SEED), 'testnet').cn.address,
        carrot: walletFromSeed(wordsToSeed(OTHER_SEED), 'testnet').carrot.address,
      });
      expect(t.wallet.addresses).toEqual(fixtureAddresses('salvium')!.main);
      expect(
        lines.some((l) =>
          /^saltnet: wallet-rpc exited with signal SIGSEGV while starting; starting it again on the same data \(restart 1 of 3\)/.test(
            l,
          ),
        ),
      ).toBe(true);
      expect(lines.join('\n')).toContain('scanning...'); // the log tail of the crashed start
      expect(await t.wallet.client.version()).toBe(65564);
      expect(t.crashes()).toMatchObject([{ program: 'wallet-rpc', exit: { signal: 'SIGSEGV' }, restart: 1 }]);
    } finally {
      await t.stop();
    }
  }, 60_000);

  it('names a wrong --bin-dir and how to fix it', async () => {
    await expect(startTestnet({ ...quiet, backend: 'salvium', binDir: join(dir, 'nope') })).rejects.toThrow(
      `--bin-dir ${join(dir, 'nope')} does not exist`,
    );
    await expect(startTestnet({ ...quiet, backend: 'salvium', binDir: dir })).rejects.toThrow(
      /has no executable salviumd, salvium-wallet-cli, salvium-wallet-rpc/,
    );
  });
});
