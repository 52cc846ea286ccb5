// The explorer in a real browser (chromium through playwright-core), on the simulator: `saltnet up
// --ui` serves the page; it shows the chain, the pool, tokens, wallets and programs and follows a
// token's life live (created: in the pool; mined: in a block and in the tokens; sent: a token
// transfer in a block, main's balance down). Screenshots of each step are kept in
// .saltnet/screenshots/explorer-sim (printed). The page is read-only and needs its token.
// The real programs: test/real/7-loop.test.ts.
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, rpc, stopAll, tempDir } from '../helpers/sim.js';
import { noBrowser, openBrowser, screenshotDir, type Browser } from '../helpers/browser.js';
import { CLI, externalWallet, startUntilReady, type Started, stopStarted } from '../cli/helpers.js';

const why = noBrowser();
let state: string;
let cache: string;
let appDir: string;
const env = (): Record<string, string> => ({ SALTNET_STATE_DIR: state, SALTNET_CACHE_DIR: cache, CI: '1' });
const running: ResultPromise[] = [];
const saltnet = (args: string[]) => execa(process.execPath, [CLI, ...args], { env: env(), reject: false, all: true });
let up: Started;
let browser: Browser;

describe.skipIf(why !== undefined)('the explorer in chromium (sim)', { timeout: 300_000 }, () => {
  beforeAll(async () => {
    state = tempDir('saltnet-state-');
    cache = tempDir('saltnet-cache-');
    appDir = tempDir('saltnet-app-');
    up = await startUntilReady(['up', '--backend', 'sim', '--ui'], env(), running, 300_000);
    browser = await openBrowser();
  }, 320_000);
  afterAll(async () => {
    await browser?.close();
    await stopAll();
    await stopStarted(running, env(), 'SIGINT');
    cleanup(state);
    cleanup(cache);
    cleanup(appDir);
  });

  it('up --ui says where the page is; without its token, or to change anything, the server says no', async () => {
    expect(up.ready.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[0-9a-f]{32}\/$/);
    const origin = new URL(up.ready.ui as string).origin;
    expect((await fetch(`${origin}/`)).status).toBe(404);
    expect((await fetch(`${origin}/t/${'0'.repeat(32)}/api/state`)).status).toBe(404);
    expect((await fetch(`${up.ready.ui}api/state`, { method: 'POST' })).status).toBe(405);
    // `saltnet ui` gives the same page for the running testnet.
    const again = await saltnet(['ui', '--json']);
    expect(again.exitCode, again.all as string).toBe(0);
    expect(JSON.parse(again.stdout as string)).toEqual({ url: up.ready.ui });
    // Another port is refused: the page keeps the one it is on, and the message names it.
    const port = Number(new URL(up.ready.ui as string).port);
    const moved = await saltnet(['ui', '--ui-port', String(port === 65535 ? port - 1 : port + 1)]);
    expect(moved.exitCode).toBe(1);
    expect(moved.stderr).toContain(`the explorer is already served on port ${port}`);
    expect((await saltnet(['ui', '--ui-port', String(port), '--json'])).stdout).toBe(
      JSON.stringify({ url: up.ready.ui }),
    );
  });

  it("shows the chain, main's balances and the programs, and a token's life as it happens", async () => {
    const page = browser.page;
    const shots = screenshotDir('explorer-sim');
    await page.goto(up.ready.ui as string);
    await page.locator(`body[data-height="${up.ready.height}"]`).waitFor();
    // Blocks with their miner tx; the daemon and main wallet with their pids; main's SAL1.
    expect(await page.locator('#blocks tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#blocks [data-type="miner"]').count()).toBeGreaterThan(0);
    await expect
      .poll(() => page.locator('[data-program="daemon"]').textContent())
      .toContain(`pid ${up.ready.daemon.pid}`);
    expect(await page.locator('[data-program="daemon"] pre').textContent()).not.toBe('(empty log)');
    const sal = page.locator('[data-wallet="main"] [data-asset="SAL1"] [data-field="unlocked"]');
    await expect.poll(() => sal.textContent()).not.toBe('0');
    expect(await page.locator('#tokens').textContent()).toContain('no token yet');

    // Created: the create-token tx is in the pool, and the page shows it there.
    const port = Number(new URL(up.ready.wallet.url as string).port);
    const created = await rpc(port, 'create_token', { ticker: 'LIFE', supply: 1000, name: 'Life token' });
    expect(created.error, JSON.stringify(created.error)).toBeUndefined();
    const tx = created.result.tx_hash_list[0] as string;
    await page.locator(`#pool [data-tx="${tx}"][data-type="create-token"]`).waitFor();
    await page.screenshot({ path: join(shots, '1-created.png'), fullPage: true });

    // Mined: in a block, and the token with its supply and creator.
    const mined = await saltnet(['mine', '1']);
    expect(mined.exitCode, mined.all as string).toBe(0);
    await page.locator(`#blocks [data-tx="${tx}"][data-type="create-token"]`).waitFor();
    const token = page.locator('[data-token="salLIFE"]');
    await token.waitFor();
    await expect.poll(() => token.locator('[data-field="creator"]').textContent()).toContain('main');
    expect(await token.textContent()).toContain('Life token');
    await expect.poll(() => token.locator('[data-holder="main"]').count()).toBe(1);
    await page.screenshot({ path: join(shots, '2-mined.png'), fullPage: true });

    // Sent: 5 LIFE to another address with the faucet (a token transfer, mined until spendable there).
    const app = await externalWallet(Number(new URL(up.ready.daemon.url as string).port), appDir);
    const sent = await saltnet(['fund', app.address, '5', '--asset', 'salLIFE', '--json']);
    expect(sent.exitCode, sent.all as string).toBe(0);
    const hashes = JSON.parse(sent.stdout as string).txHashes as string[];
    await page.locator(`#blocks [data-tx="${hashes.at(-1)}"][data-type="transfer"]`).waitFor();
    await expect
      .poll(() => page.locator(`[data-wallet="main"] [data-transfer="${hashes.at(-1)}"]`).count())
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, '3-sent.png'), fullPage: true });
  });
});

if (why) describe('the explorer in chromium (sim)', () => it.skip(why));
