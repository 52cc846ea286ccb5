// `saltnet up` on the real programs as a user runs it: cold from an empty cache at the default
// difficulty 500 (the chain state mined at difficulty 1 across the CN→Carrot switch at 1100 to the
// token height, then served at 500 by a daemon with that very flag), status, Ctrl-C; then warm
// from the same cached state served at difficulty 1: a token, blocks mined, a snapshot saved to a
// file; three nodes from that state, blocks mined on one reaching the others, and a scenario of three nodes
// partitioned and healed (test/network/three-nodes.yaml, which the sim tier runs too); then `snapshot load` of the
// file. (The bench mines the example suite at 500.)
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { isAlive } from '../../harness/process/registry.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { createWalletClient } from '../../harness/rpc/wallet.js';
import { fixtureAddresses } from '../../harness/testnet/programs/fixture-wallets.js';
import { CLI, startUntilReady, type Started } from '../cli/helpers.js';
import { BIN_DIR, CACHE_DIR, describeReal, SAL1 } from './real.js';

describeReal('saltnet up on real Salvium', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-up-'));
  // A home of its own: the wallet programs would keep their ring database in ~/.shared-ringdb unless told otherwise.
  const home = join(root, 'home');
  const env = { ...process.env, HOME: home, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' } as Record<
    string,
    string
  >;
  // The tier's cache, empty until this file (run first: beside.test.ts) builds the default chain state; the others
  // restore it.
  const base = ['--backend', 'salvium', '--bin-dir', BIN_DIR, '--cache-dir', CACHE_DIR];
  const header = async (
    url: string,
    method: string,
    params: object,
  ): Promise<{ height: number; difficulty: number }> => {
    const r = (await (
      await fetch(`${url}/json_rpc`, {
        method: 'POST',
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()) as { result: { block_header: { height: number; difficulty: number } } };
    return r.result.block_header;
  };
  const running: ResultPromise[] = [];
  afterAll(async () => {
    for (const p of running) if (p.exitCode === null) p.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  // A cold real build takes minutes: wait up to 15 for the ready line.
  const start = (args: string[]): Promise<Started> => startUntilReady(args, env, running, 900_000);
  const cli = (args: string[]) => execa(process.execPath, [CLI, ...args], { env, reject: false, timeout: 300_000 });
  const stopped = async (u: Started): Promise<void> => {
    u.proc.kill('SIGINT');
    const r = await u.proc;
    expect(r.exitCode === 130 || r.exitCode === 0, `exit ${r.exitCode}`).toBe(true);
    expect(isAlive(u.ready.daemon.pid)).toBe(false);
    expect(isAlive(u.ready.wallet.pid)).toBe(false);
  };
  const file = join(root, 'state.saltnet');
  let addresses: unknown;
  let coldHeight = 0;

  it('comes up cold from an empty cache, across the Carrot switch, funded and token-ready', async () => {
    const t0 = Date.now();
    const u = await start(['up', ...base]);
    process.stderr.write(
      `real tier: cold up at difficulty 500 to token-ready in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
    );
    try {
      expect(u.ready.snapshot.status).toBe('built');
      // mined at difficulty 1, served at the default 500: saltnet's own RandomX miner (CI installs librandomx0), the
      // daemon in light mode (it only verifies), every core
      expect(u.ready.snapshot.key).toMatch(/^salvium-d1-h1201-/);
      expect(u.ready.snapshot.prefix).toEqual({ difficulty: 1, height: u.ready.height });
      expect(u.ready.mining).toMatchObject({ difficulty: 500, randomx: 'light', miner: 'saltnet' });
      expect(u.ready.mining.threads).toBeGreaterThanOrEqual(1);
      const info = (await (await fetch(`${u.ready.daemon.url}/get_info`, { method: 'POST', body: '{}' })).json()) as {
        difficulty: number;
        height: number;
      };
      expect(info.difficulty).toBe(500);
      const cmdline = readFileSync(`/proc/${u.ready.daemon.pid}/cmdline`, 'utf8').split('\0');
      expect(cmdline.join(' ')).toContain('--fixed-difficulty 500');
      // A block at 500, found by saltnet and accepted by the daemon: its header says so. The dataset of the chain's
      // seed (the genesis id) is built into the cache folder from this cold up on, once for the machine: finished, or
      // part of it (a loaded machine may not have finished it yet; the block was then mined in light mode).
      const mined = await cli(['mine', '1', '--json']);
      expect(mined.exitCode, mined.stderr).toBe(0);
      expect(await header(u.ready.daemon.url, 'get_last_block_header', {})).toMatchObject({
        difficulty: 500,
        height: u.ready.height,
      });
      const genesis = (await header(u.ready.daemon.url, 'get_block_header_by_height', { height: 0 })) as unknown as {
        hash: string;
      };
      expect(readdirSync(join(CACHE_DIR, 'randomx'))).toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^${genesis.hash}\\.(dataset|partial)$`))]),
      );
      expect(u.ready.height).toBeGreaterThanOrEqual(1201);
      expect(u.ready.wallet.address).toBe(u.ready.wallet.addresses.carrot);
      expect(u.ready.wallet.addresses.cn).toMatch(/^SaLv/);
      // The fixture file's salvium addresses, which the chain was mined to while the wallet CLI restored: real's own.
      expect(u.ready.wallet.addresses).toEqual(fixtureAddresses('salvium')!.main);
      // The cold build mines with no wallet RPC running (the wallet CLI restores beside it), then starts it.
      expect(Object.keys(u.ready.phasesMs)).toEqual([
        'snapshotRestore',
        'daemonReady',
        'walletCreated',
        'mined',
        'walletRpcReady',
        'funded',
        'snapshotSave',
      ]);
      addresses = u.ready.wallet.addresses;
      coldHeight = u.ready.height;
      const w = createWalletClient(u.ready.wallet.url);
      const b = await w.balance('SAL1');
      await w.close();
      expect(b.unlocked).toBeGreaterThanOrEqual(1100n * SAL1);
      const st = await cli(['status', '--json']);
      expect(st.exitCode).toBe(0);
      expect(st.stdout).toContain(u.ready.daemon.url);
    } finally {
      await stopped(u);
    }
  });

  it('comes up warm from the same cached state at another difficulty, with the same wallets, without mining, and no secret on a command line', async () => {
    const u = await start(['up', ...base, '--difficulty', '1', '--login', 'digest']);
    try {
      expect(u.ready.snapshot.status).toBe('hit');
      expect(u.ready.mining).toMatchObject({ difficulty: 1, randomx: 'light' });
      expect(u.ready.wallet.addresses).toEqual(addresses);
      // the cached state as saved: no block mined on top
      expect(u.ready.height).toBe(coldHeight);
      // The real wallet RPC read its wallet password from --password-file and its Digest password from stdin.
      const wallets = join(u.ready.workdir, 'wallets');
      const password = readFileSync(join(wallets, '.password'), 'utf8');
      const [username, login] = readFileSync(join(wallets, '.rpc-login'), 'utf8').split(':') as [string, string];
      for (const pid of [u.ready.daemon.pid, u.ready.wallet.pid]) {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        expect(cmdline).not.toContain(password);
        expect(cmdline).not.toContain(login);
      }
      expect(readFileSync(`/proc/${u.ready.wallet.pid}/cmdline`, 'utf8').split('\0')).toEqual(
        expect.arrayContaining(['--password-file', '--rpc-login', 'saltnet']),
      );
      const w = createWalletClient(u.ready.wallet.url, { auth: { username, password: login } });
      expect(await w.version()).toBeGreaterThan(0);
      // a token is one call away (a ticker such as REAL is premium on real Salvium: it burns 10000 SAL1, not 1000)
      const r = await w.raw('create_token', { ticker: 'RTR1', supply: 1000, name: 'real tier' });
      await w.close();
      expect(r.error, JSON.stringify(r.error)).toBeUndefined();
      // The wallets' ring database (written as they build a transaction) is the testnet's, not the user's.
      expect(readdirSync(join(u.ready.workdir, 'ringdb')).length).toBeGreaterThan(0);
      expect(existsSync(join(home, '.shared-ringdb'))).toBe(false);
      // served at 1 from the state mined at 1: its blocks and the one mined now alike
      const m = await cli(['mine', '3']);
      expect(m.exitCode, m.stderr).toBe(0);
      expect((await header(u.ready.daemon.url, 'get_last_block_header', {})).difficulty).toBe(1);
      const s = await cli(['snapshot', 'save', file]);
      expect(s.exitCode, s.stderr).toBe(0);
      expect(existsSync(file)).toBe(true);
    } finally {
      await stopped(u);
    }
  });

  it('comes up as three nodes from the cached state, and blocks mined on n2 reach n0 and n1', async () => {
    const u = await start(['up', ...base, '--difficulty', '1', '--nodes', '3']);
    try {
      const nodes = u.ready.nodes as { name: string; url: string }[];
      expect(nodes.map((n) => n.name)).toEqual(['n0', 'n1', 'n2']);
      const mined = await cli(['mine', '2', '--node', 'n2']);
      expect(mined.exitCode, `${mined.stdout}\n${mined.stderr}`).toBe(0);
      const top = async (url: string): Promise<string> => {
        const r = await fetch(`${url}/json_rpc`, {
          method: 'POST',
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_info' }),
        });
        const info = ((await r.json()) as { result: { height: number; top_block_hash: string } }).result;
        return `${info.height} ${info.top_block_hash}`;
      };
      const deadline = Date.now() + 60_000;
      let tops: string[] = [];
      do tops = await Promise.all(nodes.map((n) => top(n.url)));
      while (new Set(tops).size > 1 && Date.now() < deadline && (await delay(500)) === undefined);
      expect(tops[0]).toMatch(new RegExp(`^${coldHeight + 2} `));
      expect(tops).toEqual([tops[0], tops[0], tops[0]]);
    } finally {
      await stopped(u);
    }
  });

  it('runs a scenario of nodes: 3 as on the simulator: one node cut off, both sides mine, all agree after the heal', async () => {
    const lines: string[] = [];
    const [r] = await runFiles([fileURLToPath(new URL('../network/three-nodes.yaml', import.meta.url))], {
      backend: 'salvium',
      binDir: BIN_DIR,
      cacheDir: CACHE_DIR,
      difficulty: 1,
      isolation: 'fresh',
      workers: 1,
      bail: false,
      artifactsRoot: join(root, 'three-nodes'),
      log: (l) => lines.push(l),
    });
    expect([r!.status, r!.failure?.message], lines.join('\n')).toEqual(['passed', undefined]);
  }, 600_000);

  it('brings a testnet up from a snapshot file (with the token created before the save)', async () => {
    const u = await start(['snapshot', 'load', file, ...base.slice(0, 4), '--cache-dir', join(root, 'cache2')]);
    try {
      expect(u.ready.wallet.addresses).toEqual(addresses);
      // the difficulty the saved testnet served
      expect(u.ready.mining).toMatchObject({ difficulty: 1 });
      const w = createWalletClient(u.ready.wallet.url);
      const tokens = await w.raw('get_balance', { asset_type: 'salRTR1' });
      await w.close();
      expect(tokens.error, JSON.stringify(tokens.error)).toBeUndefined();
    } finally {
      await stopped(u);
    }
  });
});
