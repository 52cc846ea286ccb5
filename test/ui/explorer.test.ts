// The explorer in a real browser (chromium through playwright-core), on the simulator: `saltnet up
// --ui` serves the page; it shows the chain, the pool, tokens, wallets and programs and follows a
// token's life live (created: in the pool; mined: in a block and in the tokens; sent: a token
// transfer in a block, main's balance down). Then one drills into it: the token's page with both
// holders (main, and an app's wallet registered on the page) and its history, the creation tx, the
// wallets; the chain's pages back to genesis, a block with the treasury's mint, the search; and a
// token whose name is HTML stays text. The app's wallet registered again, by its address and view-balance
// secret instead of its wallet RPC: the explorer opens it view-only and it holds the same 5 LIFE. The metrics
// view draws the height, the pool and the transactions per second as a transfer waits and blocks come.
// Screenshots of each step and page are kept in .saltnet/screenshots/explorer-sim (printed). The page needs its
// token.
// The real programs: test/real/7-loop.test.ts.
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assetTransfer } from '../../harness/coin/transactions.js';
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
let shots: string;
/** The app's own wallet RPC (not one of the testnet's), which holds the token sent to it. */
let app: { port: number; address: string };
let creation: string;
let sentTx: string;

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
    shots = screenshotDir('explorer-sim');
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
    const tx = (creation = created.result.tx_hash_list[0] as string);
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
    app = await externalWallet(Number(new URL(up.ready.daemon.url as string).port), appDir);
    const sent = await saltnet(['fund', app.address, '5', '--asset', 'salLIFE', '--json']);
    expect(sent.exitCode, sent.all as string).toBe(0);
    const hashes = JSON.parse(sent.stdout as string).txHashes as string[];
    sentTx = hashes.at(-1)!;
    await page.locator(`#blocks [data-tx="${hashes.at(-1)}"][data-type="transfer"]`).waitFor();
    await expect
      .poll(() => page.locator(`[data-wallet="main"] [data-transfer="${hashes.at(-1)}"]`).count())
      .toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, '3-sent.png'), fullPage: true });
  });

  it("follows the token through its pages: its holders (an app's wallet registered on the page), its history, the creation tx, the wallets", async () => {
    const page = browser.page;
    const view = page.getByTestId('view');
    // The app's wallet: it refreshes itself (the explorer only reads), and is registered with the page's form.
    expect((await rpc(app.port, 'refresh')).error).toBeUndefined();
    await page.goto(up.ready.ui as string);
    await page.getByTestId('add-wallet-name').fill('app');
    await page.getByTestId('add-wallet-url').fill(`http://127.0.0.1:${app.port}`);
    await page.getByRole('button', { name: 'add' }).click();
    await expect
      .poll(() => page.getByTestId('add-wallet-result').textContent())
      .toContain(`added app (${app.address})`);
    await page.locator('[data-wallet="app"]').waitFor();

    // The ticker column shows the ticker; its link is the token's page: both holders, adding up to the supply.
    const row = page.locator('[data-token="salLIFE"]');
    expect(await row.locator('[data-field="ticker"]').textContent()).toBe('LIFE');
    await expect.poll(() => row.locator('[data-holder="app"]').textContent()).toContain('5 LIFE');
    await row.locator('[data-field="ticker"] a').click();
    await page.locator('body[data-page="token"]').waitFor();
    expect(page.url()).toMatch(/#\/token\/LIFE$/);
    const holders = page.getByTestId('holders');
    await expect.poll(() => holders.locator('[data-holder="main"]').textContent()).toContain('995 LIFE');
    expect(await holders.locator('[data-holder="app"]').textContent()).toContain('app (app): 5 LIFE');
    expect(await page.locator('#view [data-field="held"]').textContent()).toBe(
      'held by the wallets shown: 1000 of 1000 LIFE',
    );
    expect(await page.locator('[data-fact="creator"]').textContent()).toBe('main');
    expect(await page.locator('[data-fact="name"]').textContent()).toBe('Life token');
    // Its history, oldest first: the block of its creation (in the block's order: the protocol tx that mints the
    // supply, then the create-token, which burns 1000 SAL1), then the transfer of 5 LIFE.
    const history = page.getByTestId('history');
    const kinds = await history.locator('li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-type')));
    expect(kinds.slice(0, 2)).toEqual(['protocol', 'create-token']);
    expect(await history.locator(`[data-tx="${creation}"] [data-field="burnt"]`).textContent()).toBe(
      ' burns 1000 SAL1',
    );
    expect(await history.locator('[data-type="protocol"] [data-pay="minted supply"]').textContent()).toBe(
      ' minted supply 1000 LIFE',
    );
    expect(await history.locator(`[data-tx="${sentTx}"] [data-field="moved"]`).textContent()).toBe(' moves 5 LIFE');
    await page.screenshot({ path: join(shots, '4-token.png'), fullPage: true });

    // The creation tx: a create-token that burns 1000 SAL1, in main's wallet.
    await page.locator('[data-fact="creation"] a').click();
    await page.locator('body[data-page="tx"]').waitFor();
    expect(page.url()).toContain(`#/tx/${creation}`);
    expect(await page.locator('[data-fact="type"]').textContent()).toBe('create-token');
    expect(await page.locator('[data-fact="burnt"]').textContent()).toBe('1000 SAL1');
    expect(await page.locator('[data-entry="main"]').textContent()).toContain('out');
    await page.screenshot({ path: join(shots, '5-creation-tx.png'), fullPage: true });

    // Main's wallet: the creation shows its burn, the supply is labelled as minted.
    await page.locator('[data-entry="main"] a').click();
    await page.locator('body[data-page="wallet"]').waitFor();
    const made = view.locator(`[data-transfer="${creation}"]`);
    expect(await made.getAttribute('data-label')).toBe('create-token');
    expect(await made.locator('[data-field="burnt"]').textContent()).toBe('burns 1000 SAL1');
    expect(await made.textContent()).toContain('creates LIFE');
    const minted = view.locator('[data-label="minted supply"]');
    expect(await minted.locator('[data-field="amount"]').textContent()).toBe('1000 LIFE');
    expect(
      await view.locator(`[data-transfer="${sentTx}"][data-label="sent"] [data-field="amount"]`).textContent(),
    ).toBe('5 LIFE');
    await page.screenshot({ path: join(shots, '6-wallet-main.png'), fullPage: true });

    // Back to the token, and to the app's wallet: it received 5 LIFE in the transfer.
    await page.goBack();
    await page.goBack();
    await page.locator('body[data-page="token"]').waitFor();
    await page.getByTestId('holders').locator('[data-wallet-link="app"]').click();
    await page.locator('body[data-page="wallet"]').waitFor();
    expect(await page.locator('[data-fact="address"]').textContent()).toBe(app.address);
    const got = view.locator(`[data-transfer="${sentTx}"]`);
    expect(await got.getAttribute('data-label')).toBe('received');
    expect(await got.locator('[data-field="amount"]').textContent()).toBe('5 LIFE');
    await page.screenshot({ path: join(shots, '7-wallet-app.png'), fullPage: true });
  });

  it("pages through the chain back to genesis; a block's page labels the treasury's mint; the search finds each kind", async () => {
    const page = browser.page;
    await page.goto(`${up.ready.ui}#/blocks`);
    await page.locator('body[data-page="blocks"]').waitFor();
    const heights = () =>
      page
        .getByTestId('all-blocks')
        .locator('tbody > tr')
        .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-height'))));
    const first = await heights();
    expect(first).toHaveLength(20);
    await page.locator('nav.pager [rel="next"]').first().click();
    await expect.poll(async () => (await heights())[0]).toBe(first.at(-1)! - 1);
    await page.locator('nav.pager').first().getByText('genesis »').click();
    await expect.poll(async () => (await heights()).at(-1)).toBe(0);
    await page.screenshot({ path: join(shots, '8-genesis.png'), fullPage: true });

    // Block 1200 (the sim's treasury mints: 1100, 1120, …, 1240): its miner tx pays the miner, the treasury and its
    // mint.
    await page.goto(`${up.ready.ui}#/block/1200`);
    await page.locator('body[data-page="block"]').waitFor();
    const miner = page.getByTestId('block-txs').locator('[data-type="miner"]');
    expect(await miner.locator('[data-pay="treasury mint"]').textContent()).toBe(' treasury mint 1300000 SAL1');
    expect(await miner.locator('[data-pay="miner"]').count()).toBe(1);
    await page.screenshot({ path: join(shots, '9-treasury-mint.png'), fullPage: true });

    // The search: a height, a block's hash, a tx's hash, an address, a ticker, a wallet's name; and what it does not
    // know.
    const hash = await page.locator('[data-fact="hash"]').textContent();
    const result = page.getByTestId('search-result');
    const search = async (q: string): Promise<string> => {
      const before = new URL(page.url()).hash;
      await result.evaluate((e) => (e.textContent = ''));
      await page.getByTestId('search').fill(q);
      await page.getByRole('button', { name: 'search' }).click();
      await expect
        .poll(async () => (await result.textContent()) !== '' || new URL(page.url()).hash !== before)
        .toBe(true);
      return (await result.textContent()) || decodeURIComponent(new URL(page.url()).hash);
    };
    expect(await search('5')).toBe('#/block/5');
    expect(await search(hash!)).toBe(`#/block/${hash}`);
    expect(await search(creation)).toBe(`#/tx/${creation}`);
    expect(await search(app.address)).toBe('#/wallet/app');
    expect(await search('life')).toBe('#/token/LIFE');
    expect(await search('main')).toBe('#/wallet/main');
    await page.locator('body[data-page="wallet"]').waitFor();
    expect(await search('NOPE')).toBe('nothing on the chain or among the wallets matches "NOPE"');
    expect(await search('99999999')).toMatch(/^no block at height 99999999: the chain has blocks 0 to \d+$/);
  });

  it("registers the app's wallet by its address and view-balance secret: the explorer opens it view-only and counts it among the token's holders", async () => {
    const page = browser.page;
    // The app's Carrot address and its s_view_balance (what generate_from_keys takes for a Carrot address on v1.1.3c).
    const key = (await rpc(app.port, 'query_key', { key_type: 's_view_balance' })).result.key as string;
    await page.goto(up.ready.ui as string);
    // The same wallet is shown once: the app's wallet RPC is removed first (its holdings would count twice).
    await page.locator('[data-wallet="app"] [data-remove="app"]').click();
    await expect.poll(() => page.getByTestId('add-wallet-result').textContent()).toBe('removed app');
    // A view key that is not the address's is refused, naming the field, before any wallet RPC starts.
    await page.getByTestId('add-wallet-name').fill('app-view');
    await page.getByTestId('add-wallet-address').fill(app.address);
    await page.getByTestId('add-wallet-view-key').fill('1'.repeat(64));
    await page.getByRole('button', { name: 'add' }).click();
    await expect
      .poll(() => page.getByTestId('add-wallet-result').textContent())
      .toMatch(
        /^viewKey does not match address "SC1T.*": a Carrot address pairs with its wallet's view-balance secret/,
      );
    await page.getByTestId('add-wallet-view-key').fill(key);
    await page.getByRole('button', { name: 'add' }).click();
    await expect
      .poll(() => page.getByTestId('add-wallet-result').textContent(), { timeout: 120_000 })
      .toBe(`added app-view (${app.address}), view-only`);
    const card = page.locator('[data-wallet="app-view"]');
    await card.waitFor();
    expect(await card.locator('h3').textContent()).toContain('(app, view-only: http://127.0.0.1:');
    // It sees what the app's own wallet saw: 5 LIFE, among the token's holders, which hold the whole supply again.
    const row = page.locator('[data-token="salLIFE"]');
    await expect.poll(() => row.locator('[data-holder="app-view"]').textContent()).toContain('5 LIFE');
    expect(await row.locator('[data-field="held"]').textContent()).toBe('held 1000 of 1000 LIFE');
    // Its wallet RPC is the explorer's: a program of the testnet's supervisor, with the view-only wallet in the
    // workdir's explorer-wallets/ folder.
    await expect.poll(() => page.locator('[data-program="wallet-rpc-view-app-view"]').count()).toBe(1);
    await page.screenshot({ path: join(shots, '7b-view-only.png'), fullPage: true });
    await page.goto(`${up.ready.ui}#/wallet/app-view`);
    await page.locator('body[data-page="wallet"]').waitFor();
    expect(await page.locator('[data-field="view-only"]').textContent()).toContain('View-only');
    // The token's transfer as the app's own wallet listed it: received, 5 LIFE.
    const got = page.getByTestId('view').locator(`[data-transfer="${sentTx}"]`);
    expect(await got.getAttribute('data-label')).toBe('received');
    expect(await got.locator('[data-field="amount"]').textContent()).toBe('5 LIFE');
    await page.screenshot({ path: join(shots, '7c-wallet-view-only.png'), fullPage: true });
  });

  it('draws the metrics live: the height, the pool and the transactions per second change as blocks and a transfer come', async () => {
    const page = browser.page;
    await page.goto(up.ready.ui as string);
    await page.getByTestId('metrics-link').click();
    await page.locator('body[data-page="metrics"]').waitFor();
    const chart = (name: string) => page.locator(`[data-chart="${name}"]`);
    const last = async (name: string): Promise<number> => Number(await chart(name).getAttribute('data-last'));
    await expect.poll(async () => Number(await chart('height').getAttribute('data-points'))).toBeGreaterThan(1);
    // Blocks: main's change from the token's transfer unlocks after 10.
    const before = await last('height');
    expect((await saltnet(['mine', '10'])).exitCode).toBe(0);
    await expect.poll(() => last('height'), { timeout: 30_000 }).toBe(before + 10);
    const height = await last('height');
    const mined = await last('mined');
    // A transfer waits in the pool (the pool chart shows it), then a block confirms it.
    const port = Number(new URL(up.ready.wallet.url as string).port);
    const sent = await rpc(
      port,
      'transfer',
      assetTransfer([{ address: app.address, amount: 100_000_000, asset_type: 'SAL1' }], 'SAL1'),
    );
    expect(sent.error, JSON.stringify(sent.error)).toBeUndefined();
    await expect.poll(() => last('pool'), { timeout: 30_000 }).toBeGreaterThan(0);
    await page.screenshot({ path: join(shots, '11-metrics-pool.png'), fullPage: true });
    expect((await saltnet(['mine', '2'])).exitCode).toBe(0);
    await expect.poll(() => last('height'), { timeout: 30_000 }).toBe(height + 2);
    await expect.poll(() => last('pool')).toBe(0);
    await expect.poll(() => last('mined')).toBeGreaterThan(mined);
    await expect.poll(() => last('tps')).toBeGreaterThan(0);
    // The transfer's time from the pool to a block, and the RPC methods the harness asked (mining's among them).
    const confirmation = page.getByTestId('confirmation');
    await expect.poll(async () => Number(await confirmation.getAttribute('data-count'))).toBeGreaterThan(0);
    expect(await confirmation.locator('[data-fact="p50"]').textContent()).toMatch(/^\d+(\.\d+)? m?s$/);
    expect(await page.getByTestId('rpc').locator('tr[data-method]').count()).toBeGreaterThan(0);
    // The height chart's line has a point for each reading.
    const line = chart('height').locator('polyline[data-series="n0"]');
    expect((await line.getAttribute('points'))!.split(' ').length).toBe(
      Number(await chart('height').getAttribute('data-points')),
    );
    await page.screenshot({ path: join(shots, '12-metrics.png'), fullPage: true });
  });

  it('shows a token whose name is HTML as text: no element is made of it, nothing runs', async () => {
    const page = browser.page;
    const port = Number(new URL(up.ready.wallet.url as string).port);
    // (No double quote: the wallet writes the name into the token's JSON metadata as it is.)
    const name = '<img src=x onerror=document.title=1><script>document.title=2</script>';
    const created = await rpc(port, 'create_token', { ticker: 'EVIL', supply: 7, name });
    expect(created.error, JSON.stringify(created.error)).toBeUndefined();
    expect((await saltnet(['mine', '1'])).exitCode).toBe(0);
    await page.goto(up.ready.ui as string);
    await page.locator('[data-token="salEVIL"]').waitFor();
    expect(await page.locator('[data-token="salEVIL"] td').nth(1).textContent()).toBe(name);
    await page.goto(`${up.ready.ui}#/token/EVIL`);
    await page.locator('body[data-page="token"]').waitFor();
    expect(await page.locator('[data-fact="name"]').textContent()).toBe(name);
    await page.locator('[data-fact="creation"] a').click();
    await page.locator('body[data-page="tx"]').waitFor();
    expect(await page.locator('#view').textContent()).toContain(name);
    expect(await page.locator('img, main script').count()).toBe(0);
    expect(await page.title()).toBe('saltnet explorer');
  });
});

if (why) describe('the explorer in chromium (sim)', () => it.skip(why));
