// The developer's loop on the real programs (short): `saltnet up --mine-on-tx --ui` from the tier's
// cache; an app's own wallet (a salvium-wallet-rpc of its own, a fresh wallet) funded with `saltnet
// fund` and spendable at once; the app's transfer confirmed without a `saltnet mine`; then, in
// chromium, the explorer following a token's life (created, mined, sent), with screenshots in
// .saltnet/screenshots/explorer-real; and the app's wallet opened view-only by the explorer from its
// address and view-balance secret (the same balance as the app's own, its spend seen). At difficulty
// 1, as the rest of the tier (the served difficulty 500 was probed by hand: docs/daily-loop.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { freePorts } from '../../harness/process/ports.js';
import { CLI, startUntilReady, type Started, stopStarted } from '../cli/helpers.js';
import { noBrowser, openBrowser, screenshotDir, type Browser } from '../helpers/browser.js';
import { waitFor } from '../helpers/sim.js';
import { BIN_DIR, CACHE_DIR, describeReal, SAL1 } from './real.js';

async function rpc(url: string, method: string, params?: object): Promise<any> {
  const r = await fetch(`${url}/json_rpc`, {
    method: 'POST',
    body: JSON.stringify({ jsonrpc: '2.0', id: '1', method, ...(params ? { params } : {}) }),
  });
  return r.json();
}

describeReal('the developer loop on real Salvium', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-loop-'));
  const env = { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' } as Record<string, string>;
  const running: ResultPromise[] = [];
  const saltnet = (args: string[]) => execa(process.execPath, [CLI, ...args], { env, reject: false, all: true });
  let up: Started;
  let app: { url: string; address: string };
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
    await stopStarted(running, env, 'SIGINT');
    rmSync(root, { recursive: true, force: true });
  });

  it('up --mine-on-tx --ui; saltnet fund makes a fresh external wallet spendable; its transfer confirms unasked', async () => {
    up = await startUntilReady(
      ['up', '--backend', 'salvium', '--bin-dir', BIN_DIR, '--cache-dir', CACHE_DIR, '--difficulty', '1'].concat([
        '--mine-on-tx',
        '--ui',
      ]),
      env,
      running,
      900_000,
    );
    expect(up.ready.automine).toEqual({ mineOnTx: true, blockTime: 0 });
    const [port] = await freePorts(1);
    const proc = execa(
      join(BIN_DIR, 'salvium-wallet-rpc'),
      ['--testnet', '--wallet-dir', root, '--daemon-address', new URL(up.ready.daemon.url as string).host].concat([
        '--rpc-bind-ip',
        '127.0.0.1',
        '--rpc-bind-port',
        String(port),
        '--disable-rpc-login',
        '--non-interactive',
        '--trusted-daemon',
        '--log-file',
        join(root, 'app.log'),
      ]),
      { reject: false, stdin: 'ignore' },
    );
    running.push(proc);
    const url = `http://127.0.0.1:${port}`;
    await waitFor('the app wallet RPC', async () => (await rpc(url, 'get_version')).result !== undefined, 60_000, 500);
    expect((await rpc(url, 'create_wallet', { filename: 'app', password: '', language: 'English' })).error).toBe(
      undefined,
    );
    app = { url, address: (await rpc(url, 'get_address')).result.address };

    const funded = await saltnet(['fund', app.address, '5', '--json']);
    expect(funded.exitCode, funded.all as string).toBe(0);
    await rpc(url, 'refresh');
    const sal = (await rpc(url, 'get_balance', { all_assets: true })).result.balances.find(
      (b: any) => b.asset_type === 'SAL1',
    );
    expect(BigInt(sal.unlocked_balance)).toBe(5n * SAL1);

    const sent = await rpc(url, 'transfer', {
      destinations: [{ address: up.ready.wallet.address, amount: SAL1.toString(), asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    expect(sent.error, JSON.stringify(sent.error)).toBeUndefined();
    const confirmed = await waitFor(
      'the app transfer in a block (mine-on-tx)',
      async () => {
        await rpc(url, 'refresh');
        const t = (await rpc(url, 'get_transfer_by_txid', { txid: sent.result.tx_hash })).result?.transfer;
        return t && t.height > 0 ? t : undefined;
      },
      180_000,
      1000,
    );
    expect(confirmed.height).toBeGreaterThan(0);
  }, 1_200_000);

  it("the explorer follows a token's life in chromium (created, mined, sent)", async (ctx) => {
    const why = noBrowser();
    if (why || !app) {
      console.warn(`skipped: ${why ?? 'the testnet of the test before did not start'}`);
      return ctx.skip();
    }
    // Manual from here, so that the token waits in the pool for its picture.
    expect((await saltnet(['automine', 'off'])).exitCode).toBe(0);
    browser = await openBrowser();
    const page = browser.page;
    const shots = screenshotDir('explorer-real');
    await page.goto(up.ready.ui as string);
    await page.locator('[data-program="daemon"]').waitFor();
    expect(await page.locator('[data-program="daemon"]').textContent()).toContain(`pid ${up.ready.daemon.pid}`);
    expect(await page.locator('#blocks [data-type="miner"]').count()).toBeGreaterThan(0);

    const created = await rpc(up.ready.wallet.url as string, 'create_token', {
      ticker: 'LIFE',
      supply: 1000,
      name: 'Life token',
    });
    expect(created.error, JSON.stringify(created.error)).toBeUndefined();
    const tx = created.result.tx_hash_list[0] as string;
    await page.locator(`#pool [data-tx="${tx}"][data-type="create-token"]`).waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(shots, '1-created.png'), fullPage: true });

    expect((await saltnet(['mine', '1'])).exitCode).toBe(0);
    await page.locator(`#blocks [data-tx="${tx}"][data-type="create-token"]`).waitFor({ timeout: 60_000 });
    const token = page.locator('[data-token="salLIFE"]');
    await token.waitFor({ timeout: 60_000 });
    await expect
      .poll(() => token.locator('[data-field="creator"]').textContent(), { timeout: 60_000 })
      .toContain('main');
    await page.screenshot({ path: join(shots, '2-mined.png'), fullPage: true });

    const sent = await saltnet(['fund', app.address, '5', '--asset', 'salLIFE', '--json']);
    expect(sent.exitCode, sent.all as string).toBe(0);
    const hashes = JSON.parse(sent.stdout as string).txHashes as string[];
    await page.locator(`#blocks [data-tx="${hashes.at(-1)}"]`).waitFor({ timeout: 60_000 });
    await expect
      .poll(() => page.locator(`[data-wallet="main"] [data-transfer="${hashes.at(-1)}"]`).count(), { timeout: 60_000 })
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, '3-sent.png'), fullPage: true });
    await rpc(app.url, 'refresh');
    const life = (await rpc(app.url, 'get_balance', { all_assets: true })).result.balances.find(
      (b: any) => b.asset_type === 'salLIFE',
    );
    expect(BigInt(life.unlocked_balance)).toBe(5n * SAL1);
  }, 900_000);

  it("the explorer opens the app's wallet view-only from its Carrot address and s_view_balance: same balance, its spend seen", async (ctx) => {
    if (!app) return ctx.skip();
    const viewKey = (await rpc(app.url, 'query_key', { key_type: 's_view_balance' })).result.key as string;
    const r = await fetch(`${up.ready.ui}api/wallets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'app-view', address: app.address, viewKey }),
    });
    const added = (await r.json()) as { url: string; address: string; viewOnly?: boolean; error?: string };
    expect(r.status, added.error).toBe(201);
    expect(added).toMatchObject({ address: app.address, viewOnly: true });
    await rpc(app.url, 'refresh');
    await rpc(added.url, 'refresh');
    const balances = async (url: string): Promise<string[]> =>
      ((await rpc(url, 'get_balance', { all_assets: true })).result.balances as any[]).map(
        (b) => `${b.asset_type} ${b.balance}`,
      );
    // The 5 SAL1 it was funded with, less the 1 SAL1 and the fee it sent: the view-balance wallet sees the spend.
    expect(await balances(added.url)).toEqual(await balances(app.url));
    const out = (await rpc(added.url, 'get_transfers', { out: true })).result.out as { amount: number }[];
    expect(out.map((t) => BigInt(t.amount))).toContain(SAL1);
  }, 600_000);
});
