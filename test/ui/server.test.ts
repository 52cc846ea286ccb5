// The explorer's server without a testnet: its paths are looked up as the page's own files only (a name every
// JavaScript object has, such as `constructor`, is not one of them), and a testnet's explorer keeps its port: asked
// for another while it is served, it refuses and names the port it is on. An app registers its wallet RPC by its URL:
// only one on this machine, without a login, that answers get_address; anything else is refused with a message
// naming the problem. A request for a page names what it takes when it is malformed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeRegExp } from '../../harness/common/redact.js';
import type { Testnet } from '../../harness/testnet/types.js';
import { closeExplorer, explorer } from '../../harness/ui/explorer.js';
import { startUiServer, type UiServer } from '../../harness/ui/server.js';
import type { UiSource } from '../../harness/ui/state.js';
import { freePort } from '../helpers/sim.js';

/** A source whose daemon never answers: the page's files do not need it. */
const source = {
  runId: 'r',
  backend: 'sim',
  decimals: 8,
  daemon: { height: () => Promise.reject(new Error('no daemon here')) },
  wallets: () => [{ name: 'main', address: 'SC1Tmain', client: {} }],
  programs: () => [],
  automine: () => ({ mineOnTx: false, blockTime: 0 }),
} as unknown as UiSource;

/** The least of a Testnet the explorer reads before it is asked for a picture. */
const testnet = {
  runId: 'r',
  readyHeight: 1,
  daemon: { url: 'http://127.0.0.1:9' },
  backend: { spec: { name: 'sim', coin: { decimals: 8 } } },
  wallets: () => new Map(),
  supervisor: { updateInfo: () => undefined, record: {}, processes: () => [] },
  crashes: () => [],
  automine: () => ({ mineOnTx: false, blockTime: 0 }),
} as unknown as Testnet;

const servers: UiServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  await closeExplorer(testnet);
});

describe("the explorer's paths", () => {
  it("answers the page's files, and 404 for a name every object has", async () => {
    const s = await startUiServer(source);
    servers.push(s);
    const page = await fetch(s.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await fetch(`${s.url}app.js`)).headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf']) {
      const r = await fetch(`${s.url}${name}`);
      expect(r.status, name).toBe(404);
      expect(await r.text(), name).toBe('not found\n');
    }
  });
});

describe("a testnet's explorer", () => {
  it('keeps its port: another is refused with the port it is on; the same port, or none, gets its address', async () => {
    const [port, other] = [await freePort(), await freePort()];
    const first = await explorer(testnet, { port });
    expect(first.port).toBe(port);
    await expect(explorer(testnet, { port: other })).rejects.toThrow(
      new RegExp(`already served on port ${port} .*ask without --ui-port \\(or with --ui-port ${port}\\)`),
    );
    expect((await explorer(testnet, { port })).url).toBe(first.url);
    expect((await explorer(testnet)).url).toBe(first.url);
  });
});

describe("registering an app's wallet", () => {
  let s: UiServer;
  /** A wallet RPC that answers get_address, as an app's would. */
  let rpc: Server;
  let rpcUrl: string;
  beforeAll(async () => {
    s = await startUiServer(source);
    servers.push(s);
    rpc = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: string };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result: { address: 'SC1Tapp' } }));
      });
    });
    await new Promise<void>((ok) => rpc.listen(0, '127.0.0.1', ok));
    rpcUrl = `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => rpc.close(() => ok())));

  const register = async (body: unknown, type = 'application/json') => {
    const r = await fetch(`${s.url}api/wallets`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as { error?: string; name?: string; address?: string } };
  };

  it('refuses a URL that is not a wallet RPC on this machine, or carries a login, with a message naming it', async () => {
    const cases: [unknown, number, string | RegExp][] = [
      [
        { name: 'app', url: 'http://example.com:29088' },
        400,
        'names the host "example.com"; the explorer reads wallet RPCs on this machine only',
      ],
      [{ name: 'app', url: 'http://10.0.0.1:29088' }, 400, 'names the host "10.0.0.1"'],
      [{ name: 'app', url: 'https://127.0.0.1:29088' }, 400, 'must start with http://'],
      [{ name: 'app', url: 'file:///etc/passwd' }, 400, 'must start with http://'],
      [{ name: 'app', url: 'not a url' }, 400, 'url "not a url" is not a URL'],
      [{ name: 'app', url: 'http://127.0.0.1:29088/admin?x=1' }, 400, "must be the wallet RPC's address alone"],
      [{ name: 'main', url: rpcUrl }, 409, 'name "main" is taken: a wallet of that name is already shown'],
      [{ name: '<b>x</b>', url: rpcUrl }, 400, 'name "<b>x</b>" must be 1 to 32 letters'],
      [{ name: 'app' }, 400, 'the body must be a JSON object {"name": "…", "url": "http://127.0.0.1:PORT"}'],
      [{ name: 'app', url: rpcUrl, extra: 1 }, 400, 'the body must be a JSON object'],
      ['{"name": ', 400, /^the body is not JSON: /],
    ];
    for (const [body, status, says] of cases) {
      const r = await register(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error, JSON.stringify(body)).toMatch(
        typeof says === 'string' ? new RegExp(escapeRegExp(says)) : says,
      );
    }
    // A login in the URL is refused and never repeated.
    const login = await register({ name: 'app', url: 'http://user:s3cret@127.0.0.1:29088' });
    expect(login.status).toBe(400);
    expect(login.body.error).toContain('carries a login; the explorer keeps no secrets');
    expect(login.body.error).not.toContain('s3cret');
    // Not JSON, too large.
    expect((await register('name=app', 'application/x-www-form-urlencoded')).body.error).toBe(
      'the body must be JSON (content-type application/json), got application/x-www-form-urlencoded',
    );
    const big = await register({ name: 'app', url: `${rpcUrl}/${'x'.repeat(5000)}` });
    expect([big.status, big.body.error]).toEqual([413, 'the body is larger than 4096 bytes']);
  });

  it('refuses a wallet RPC that does not answer; keeps one that does, and removes it by name', async () => {
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const r = await register({ name: 'app', url: nobody });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(new RegExp(`^the wallet RPC at ${escapeRegExp(nobody)} did not answer get_address: `));

    const ok = await register({ name: 'app', url: `${rpcUrl}/json_rpc` });
    expect([ok.status, ok.body]).toEqual([201, { name: 'app', url: rpcUrl, address: 'SC1Tapp' }]);
    expect((await register({ name: 'other', url: rpcUrl.replace('127.0.0.1', '127.0.0.1') })).body.error).toBe(
      `the wallet RPC at ${rpcUrl} is already shown as "app"`,
    );
    expect((await register({ name: 'app', url: rpcUrl })).status).toBe(409);
    const gone = await fetch(`${s.url}api/wallets/app`, { method: 'DELETE' });
    expect([gone.status, await gone.json()]).toEqual([200, { removed: 'app' }]);
    const again = await fetch(`${s.url}api/wallets/app`, { method: 'DELETE' });
    expect([again.status, await again.json()]).toEqual([404, { error: 'no registered wallet is named "app"' }]);
    // Nothing else is written to.
    expect((await fetch(`${s.url}api/state`, { method: 'POST' })).status).toBe(405);
    expect((await fetch(`${s.url}api/wallets`, { method: 'PUT' })).status).toBe(405);
  });
});

describe("the explorer's pages", () => {
  it('names what a malformed request for a page takes, and 404s one there is no route for', async () => {
    const s = await startUiServer(source);
    servers.push(s);
    const get = async (path: string) => {
      const r = await fetch(`${s.url}${path}`);
      return [r.status, ((await r.json()) as { error: string }).error];
    };
    expect(await get('api/block/abc')).toEqual([
      400,
      'a block is named by its height (digits) or its hash (64 hex digits), got "abc"',
    ]);
    expect(await get('api/tx/1234')).toEqual([400, 'a transaction is named by its hash (64 hex digits), got "1234"']);
    expect(await get('api/wallet/%E0%A4%A')).toEqual([400, 'the path\'s part "%E0%A4%A" is not a valid URL escape']);
    expect(await get('api/nothing')).toEqual([404, 'no such request: api/nothing']);
  });
});
