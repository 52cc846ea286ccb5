// Replays recorded requests against the simulator's HTTP layer and compares with what the real
// salviumd / salvium-wallet-rpc answered (fixtures/transcripts/salvium-v1.1.3c).
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toEpeeJson } from '../../../harness/sim/http/json-print.js';
import { startRpcServer, type Handler, type RpcServer } from '../../../harness/sim/http/server.js';
import { httpRequest, rawExchange, splitResponses } from './helpers.js';

interface Transcript {
  server: 'daemon' | 'wallet-rpc';
  path: string;
  request: unknown;
  http_status: number;
  response: unknown;
}

const dir = new URL('../../../fixtures/transcripts/salvium-v1.1.3c/', import.meta.url);
const load = (name: string): Transcript => JSON.parse(readFileSync(new URL(name, dir), 'utf8')) as Transcript;

/** The body as the recording tool sent it: strings verbatim, objects as JSON. */
const bodyOf = (t: Transcript): string => (typeof t.request === 'string' ? t.request : JSON.stringify(t.request));

describe('recorded transcripts', () => {
  let daemon: RpcServer;
  let wallet: RpcServer;
  const servers = (): Record<Transcript['server'], RpcServer> => ({ daemon, 'wallet-rpc': wallet });

  beforeAll(async () => {
    const ok: Handler = () => ({ status: 'OK', untrusted: false });
    // Stand-ins with a few real method names; what is tested here is the HTTP/JSON-RPC layer.
    daemon = await startRpcServer({
      host: '127.0.0.1',
      port: 0,
      jsonRpcMethods: new Map([['get_block_count', () => ({ count: 1, status: 'OK', untrusted: false })]]),
      uriEndpoints: new Map([
        ['/get_info', ok],
        ['/get_height', ok],
      ]),
      maxBodyBytes: 1024 * 1024,
    });
    wallet = await startRpcServer({
      host: '127.0.0.1',
      port: 0,
      jsonRpcMethods: new Map<string, Handler>([
        ['get_version', () => ({ release: true, version: 65536 })],
        ['get_transfers', () => ({ in: [], out: [], pending: [], pool: [] })],
      ]),
      serial: true,
    });
  });

  afterAll(async () => {
    await daemon.close();
    await wallet.close();
  });

  for (const name of [
    '56-wallet-unknown-method.json',
    '57-wallet-parse-error.json',
    '58-wallet-empty-object.json',
    '59-wallet-unknown-path.json',
    '11-daemon-unknown-path.json',
    '55-wallet-get_transfers-empty-request.json',
  ]) {
    it(`reproduces ${name}`, async () => {
      const t = load(name);
      const server = servers()[t.server];
      const res = await request(`http://127.0.0.1:${server.port}${t.path}`, {
        method: 'POST',
        body: bodyOf(t),
        headers: { 'content-type': 'application/json' },
      });
      const text = await res.body.text();
      expect(res.statusCode).toBe(t.http_status);
      if (typeof t.response === 'string') {
        expect(text).toBe(t.response);
      } else {
        expect(JSON.parse(text)).toEqual(t.response);
        // byte for byte what epee prints for that response
        expect(text).toBe(toEpeeJson(t.response));
        expect(res.headers['content-type']).toBe('application/json');
      }
    });
  }

  it('reproduces 56 and 58 exactly on the wire (status line, headers, CRLF body)', async () => {
    const t56 = load('56-wallet-unknown-method.json');
    const [r56] = splitResponses((await rawExchange(wallet.port, [httpRequest('POST', t56.path, bodyOf(t56))])).data);
    expect(r56?.status).toBe(200);
    expect(r56?.statusText).toBe('Ok');
    expect(r56?.body).toBe(
      '{\r\n  "error": {\r\n    "code": -32601,\r\n    "message": "Method not found"\r\n  },\r\n  "id": "1",\r\n  "jsonrpc": "2.0"\r\n}',
    );
    const t58 = load('58-wallet-empty-object.json');
    const [r58] = splitResponses((await rawExchange(wallet.port, [httpRequest('POST', t58.path, bodyOf(t58))])).data);
    expect(r58?.body).toBe(
      '{\r\n  "error": {\r\n    "code": -32600,\r\n    "message": "Invalid Request"\r\n  },\r\n  "id": 0,\r\n  "jsonrpc": "2.0"\r\n}',
    );
    const t59 = load('59-wallet-unknown-path.json');
    const [r59] = splitResponses((await rawExchange(wallet.port, [httpRequest('POST', t59.path, bodyOf(t59))])).data);
    expect(r59?.status).toBe(404);
    expect(r59?.statusText).toBe('Not found');
    expect(r59?.headers['content-length']).toEqual(['0']);
  });
});
