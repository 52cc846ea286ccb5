// A web page of another origin and the wallet RPC, in Debian's chromium: a "simple" cross-origin POST (a JSON-RPC
// body sent as text/plain, no preflight) reaches a wallet RPC started with --disable-rpc-login and is carried out; the
// page cannot read the answer (no Access-Control-Allow-Origin), but the wallet has done what it asked. A POST sent as
// application/json is preflighted (OPTIONS), refused, and never sent; with a Digest login (--rpc-login) the request is
// answered 401 and nothing is done. The real salvium-wallet-rpc v1.1.3c was seen to do the same (README, "Browsers
// and the wallet RPC"). Here the page is served from another port of 127.0.0.1: a local page, such as an app's own
// dev server; chromium asks the user before a page from the internet may reach 127.0.0.1 at all.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noBrowser, openBrowser, type Browser } from '../../helpers/browser.js';
import { cleanup, startWalletRpc, stopAll, tempDir } from '../../helpers/sim.js';

const why = noBrowser();
let dir: string;
let open: number;
let login: number;
let page: Server;
let origin: string;
let browser: Browser;

/** The page: a create_wallet request to `target`, with the content type asked; its outcome becomes the title. */
const html = `<!doctype html><title>sending</title><script>
const q = new URLSearchParams(location.search);
const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'create_wallet',
  params: { filename: q.get('name'), language: 'English' } });
fetch(q.get('target'), { method: 'POST', headers: { 'content-type': q.get('type') }, body })
  .then((r) => r.text().then((t) => (document.title = 'read ' + r.status + ' ' + t)))
  .catch((e) => (document.title = 'refused: ' + e.message));
</script>`;

/** Open the page of the other origin, have it POST to `port`'s JSON-RPC, and return what the page could see. */
async function fromOtherOrigin(port: number, name: string, type: string): Promise<string> {
  const q = new URLSearchParams({ target: `http://127.0.0.1:${port}/json_rpc`, name, type });
  await browser.page.goto(`${origin}/?${q}`);
  await browser.page.waitForFunction("document.title !== 'sending'", null, { timeout: 60_000 });
  return browser.page.title();
}

const wallet = (walletDir: string, name: string): boolean => existsSync(join(walletDir, `${name}.keys`));

describe.skipIf(why !== undefined)('a page of another origin and the wallet RPC (sim, chromium)', () => {
  beforeAll(async () => {
    dir = tempDir('saltnet-browser-origin-');
    const rpc = (name: string, extra: string[], o: { login?: boolean }) =>
      startWalletRpc(
        [
          '--wallet-dir',
          join(dir, name),
          '--rpc-bind-ip',
          '127.0.0.1',
          '--log-file',
          join(dir, `${name}.log`),
          ...extra,
        ],
        1, // no daemon: creating a wallet does not need one
        o,
      );
    open = (await rpc('open', [], {})).port;
    login = (await rpc('login', ['--rpc-login', 'user:correct-horse'], { login: true })).port;
    page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(html));
    await new Promise<void>((ok) => page.listen(0, '127.0.0.1', ok));
    origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    browser = await openBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    page?.close();
    await stopAll();
    if (dir) cleanup(dir);
  });

  it('--disable-rpc-login: a text/plain POST is carried out; the page cannot read the answer', async () => {
    const seen = await fromOtherOrigin(open, 'by-a-page', 'text/plain');
    expect(seen).toMatch(/^refused: /);
    expect(wallet(join(dir, 'open'), 'by-a-page')).toBe(true);
  });

  it('--disable-rpc-login: an application/json POST is stopped by its preflight and never sent', async () => {
    const seen = await fromOtherOrigin(open, 'by-a-preflighted-page', 'application/json');
    expect(seen).toMatch(/^refused: /);
    expect(wallet(join(dir, 'open'), 'by-a-preflighted-page')).toBe(false);
  });

  it('with a Digest login: the same text/plain POST gets 401 and nothing is done', async () => {
    const seen = await fromOtherOrigin(login, 'by-a-page', 'text/plain');
    expect(seen).toMatch(/^refused: /);
    expect(wallet(join(dir, 'login'), 'by-a-page')).toBe(false);
  });
});

if (why) describe('a page of another origin and the wallet RPC (sim, chromium)', () => it.skip(why));
