// The explorer's server without a testnet: its paths are looked up as the page's own files only (a name every
// JavaScript object has, such as `constructor`, is not one of them), and a testnet's explorer keeps its port: asked
// for another while it is served, it refuses and names the port it is on.
import { afterAll, describe, expect, it } from 'vitest';
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
  wallets: () => [],
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
