// The developer's loop on the simulator, as a user runs it: `saltnet up --ports standard --mine-on-tx`,
// an app's own wallet (a wallet RPC the testnet knows nothing of) funded with `saltnet fund` and then
// only sending transactions, which are confirmed without a `saltnet mine`; the faucet's errors; the
// token guide's own curl requests (fixtures/token-guide) against 29081 and 29088; and a second
// `up --ports standard` refused before it starts anything, naming the port and what holds it.
// The real programs: test/real/7-loop.test.ts.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPortFree } from '../../harness/process/ports.js';
import { cleanup, post, rpc, stopAll, tempDir, waitFor } from '../helpers/sim.js';
import { CLI, externalWallet, startUntilReady, type Started, stopStarted } from './helpers.js';

const DAEMON = 29081;
const WALLET = 29088;
const STANDARD = [29080, DAEMON, 29082, WALLET];

let state: string;
let cache: string;
let appDir: string;
const env = (): Record<string, string> => ({ SALTNET_STATE_DIR: state, SALTNET_CACHE_DIR: cache, CI: '1' });
const running: ResultPromise[] = [];
const saltnet = (args: string[]) => execa(process.execPath, [CLI, ...args], { env: env(), reject: false, all: true });
let up: Started | undefined;
let free = true;

beforeAll(async () => {
  state = tempDir('saltnet-state-');
  cache = tempDir('saltnet-cache-');
  appDir = tempDir('saltnet-app-');
  // Other testnets on this machine may hold the standard ports; then this file cannot run here.
  for (const p of STANDARD) if (!(await isPortFree(p))) free = false;
  if (!free) return;
  up = await startUntilReady(
    ['up', '--backend', 'sim', '--ports', 'standard', '--mine-on-tx', '--unlocked', '2500'],
    env(),
    running,
    300_000,
  );
}, 320_000);
afterAll(async () => {
  await stopAll();
  await stopStarted(running, env(), 'SIGINT');
  cleanup(state);
  cleanup(cache);
  cleanup(appDir);
});

const unlessTaken = (): boolean => {
  if (!free) console.warn(`skipped: one of the standard ports ${STANDARD.join(', ')} is taken on this machine`);
  return !free;
};

describe('the developer loop on the simulator', { timeout: 300_000 }, () => {
  it('up says automine is on and where the programs listen', async (ctx) => {
    if (unlessTaken()) return ctx.skip();
    expect(up!.ready.automine).toEqual({ mineOnTx: true, blockTime: 0 });
    expect(up!.ready.daemon.url).toBe(`http://127.0.0.1:${DAEMON}`);
    expect(up!.ready.wallet.url).toBe(`http://127.0.0.1:${WALLET}`);
    const mode = await saltnet(['automine', '--json']);
    expect(mode.exitCode, mode.all as string).toBe(0);
    expect(JSON.parse(mode.stdout as string)).toEqual({ mineOnTx: true, blockTime: 0 });
    // status says it too, and names the control endpoint's token file (docs/daily-loop.md).
    const [st] = JSON.parse((await saltnet(['status', '--json'])).stdout as string);
    expect(st).toMatchObject({
      automine: { mineOnTx: true },
      control: { tokenFile: expect.stringMatching(/\.control-token$/) },
    });
    expect((await saltnet(['status'])).stdout).toContain('  automine mine-on-tx');
  });

  it('saltnet fund makes a fresh external wallet spendable in one command; its transfers confirm with no mine', async (ctx) => {
    if (unlessTaken()) return ctx.skip();
    const app = await externalWallet(DAEMON, appDir);
    const funded = await saltnet(['fund', app.address, '5', '--json']);
    expect(funded.exitCode, funded.all as string).toBe(0);
    const res = JSON.parse(funded.stdout as string);
    expect(res).toMatchObject({ address: app.address, amount: '500000000' });
    // Spendable at once: the app's wallet refreshes and holds 5 SAL1, all unlocked.
    await rpc(app.port, 'refresh');
    const bal = (await rpc(app.port, 'get_balance', { all_assets: true })).result;
    const sal = (bal.balances as any[]).find((b) => b.asset_type === 'SAL1');
    expect(sal).toMatchObject({ balance: 500_000_000, unlocked_balance: 500_000_000 });

    // The app only sends; --mine-on-tx mines its transaction into a block.
    const before = (await rpc(DAEMON, 'get_block_count')).result.count as number;
    const sent = await rpc(app.port, 'transfer', {
      destinations: [{ address: up!.ready.wallet.address, amount: 100_000_000, asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    expect(sent.error, JSON.stringify(sent.error)).toBeUndefined();
    const tx = sent.result.tx_hash as string;
    const confirmed = await waitFor(
      'the app transaction in a block',
      async () => {
        await rpc(app.port, 'refresh');
        const t = (await rpc(app.port, 'get_transfer_by_txid', { txid: tx })).result?.transfer;
        return t && t.height > 0 ? t : undefined;
      },
      60_000,
      200,
    );
    expect(confirmed.height).toBeGreaterThanOrEqual(before);
  });

  it('the faucet refuses a bad address, an unknown asset and too much, saying what main holds', async (ctx) => {
    if (unlessTaken()) return ctx.skip();
    const monero = '9wviCeWe2D8XS82k2ovp5EUYLzBt9pYNW2LXUFsZiv8S3Mt21FZ5qQaAroko1enzw3eGr9qC7X1D7Geoo2RrAotYPwq9Gm8';
    const bad = await saltnet(['fund', monero, '1']);
    expect(bad.exitCode).toBe(1);
    expect(bad.all).toMatch(/address/i);
    expect(bad.all).not.toMatch(/\n\s+at /);
    const junk = await saltnet(['fund', 'not-an-address', '1']);
    expect(junk.exitCode).toBe(1);
    expect(junk.all).toMatch(/address/i);
    const asset = await saltnet(['fund', up!.ready.wallet.address, '1', '--asset', 'salNOPE']);
    expect(asset.exitCode).toBe(1);
    expect(asset.all).toMatch(/salNOPE/);
    expect(asset.all).toMatch(/SAL1/);
    const much = await saltnet(['fund', up!.ready.wallet.address, '90000000']);
    expect(much.exitCode).toBe(1);
    expect(much.all).toMatch(/unlocked/);
  });

  it("the token guide's curl requests run as written against --ports standard (its 29082 mining lines sent to 29081)", async (ctx) => {
    if (unlessTaken()) return ctx.skip();
    // The guide mines by hand: automine off, through the control endpoint, as a user would.
    const off = await saltnet(['automine', 'off', '--json']);
    expect(off.exitCode, off.all as string).toBe(0);
    expect(JSON.parse(off.stdout as string)).toEqual({ mineOnTx: false, blockTime: 0 });
    const guide = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../fixtures/token-guide/requests.json'), 'utf8'),
    );
    const tier2 = guide.tier2 as string;
    const vars: Record<string, string> = {
      '<YOUR_ADDRESS>': up!.ready.wallet.address,
      $HASH: createHash('sha256').update(tier2).digest('hex'),
      $SIZE: String(Buffer.byteLength(tier2)),
    };
    const answers: any[] = [];
    for (const r of guide.requests) {
      let body: string | null = r.body;
      for (const [k, v] of Object.entries(vars)) body = body?.split(k).join(v) ?? null;
      const height = (await rpc(DAEMON, 'get_block_count')).result.count as number;
      const res = await post(r.port, r.path, body === null ? undefined : JSON.parse(body), {
        'Content-Type': 'application/json',
      });
      expect(res.status, `${r.step}: ${res.text}`).toBe(200);
      expect(res.json?.error, `${r.step}: ${res.text}`).toBeUndefined();
      if (r.path === '/start_mining' || r.path === '/stop_mining') expect(res.json.status, r.step).toBe('OK');
      if (r.then === 'wait for new blocks')
        await waitFor(
          'blocks',
          async () => ((await rpc(DAEMON, 'get_block_count')).result.count as number) >= height + 3,
          120_000,
          100,
        );
      answers.push(res.json);
    }
    const [, , balance, first, , , tokens, second] = answers;
    // Salvium answers one entry per asset.
    expect(balance.result.balances.find((b: any) => b.asset_type === 'SAL1').unlocked_balance).toBeGreaterThan(0);
    expect(first.result.tx_hash_list.length).toBeGreaterThan(0);
    expect(tokens.result.tokens).toContain('salTST1');
    expect(second.result.tx_hash_list.length).toBeGreaterThan(0);
  });

  it('a second up --ports standard exits 1 before starting anything, naming each port and what holds it', async (ctx) => {
    if (unlessTaken()) return ctx.skip();
    const again = await execa(process.execPath, [CLI, 'up', '--backend', 'sim', '--ports', 'standard'], {
      env: env(),
      reject: false,
      all: true,
      timeout: 60_000,
    });
    expect(again.exitCode).toBe(1);
    expect(again.all).toMatch(/port 29081 \(salviumd's RPC\) is taken by pid \d+, /);
    expect(again.all).toMatch(/port 29088 \(the main wallet's salvium-wallet-rpc\) is taken by pid \d+/);
    expect(again.all).toMatch(/nothing was started/);
    expect(again.all).not.toMatch(/\n\s+at /);
    // Only the first testnet is registered.
    const st = JSON.parse((await saltnet(['status', '--json'])).stdout as string);
    expect(st).toHaveLength(1);
  });
});
