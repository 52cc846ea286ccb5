import { randomBytes } from 'node:crypto';
import { Client, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestAuthorizationHeader } from '../../../harness/digest/digest.js';
import { isParsedObject, type Parsed } from '../../../harness/sim/http/json-values.js';
import { InvalidParams, params, u64 } from '../../../harness/sim/http/params.js';
import {
  BadRequest,
  RpcError,
  startRpcServer,
  type Handler,
  type RpcServer,
} from '../../../harness/sim/http/server.js';
import { httpRequest, plain, rawExchange, sleep, splitResponses } from './helpers.js';

const heightParams = params({ height: u64() });

interface Harness {
  server: RpcServer;
  base: string;
  seen: unknown[];
  errors: unknown[];
  paths: string[];
}

async function start(
  extra: Partial<Parameters<typeof startRpcServer>[0]> = {},
  methods: Record<string, Handler> = {},
): Promise<Harness> {
  const seen: unknown[] = [];
  const errors: unknown[] = [];
  const paths: string[] = [];
  const jsonRpcMethods = new Map<string, Handler>(
    Object.entries({
      echo: (p: Parsed | undefined) => {
        seen.push(p);
        return { params: isParsedObject(p) ? p : 'none', status: 'OK' };
      },
      get_block_header_by_height: (p: Parsed | undefined) => ({ height: heightParams.parse(p).height, status: 'OK' }),
      rpc_error: () => {
        throw new RpcError(-5, 'Internal error: something');
      },
      crash: () => {
        throw new Error('kaboom');
      },
      async_crash: async () => {
        await sleep(1);
        throw new TypeError('async kaboom');
      },
      nothing: () => undefined,
      big: () => ({
        supply: 18440000000000000000n,
        tokens: [],
        balances: [{ asset_type: 'SAL1', per_subaddress: [] }],
      }),
      ...methods,
    }),
  );
  const uriEndpoints = new Map<string, Handler>([
    ['/get_height', () => ({ height: 1367, status: 'OK', untrusted: false })],
    ['/typed', (p) => ({ height: heightParams.parse(p).height, status: 'OK' })],
    [
      '/bad',
      () => {
        throw new BadRequest();
      },
    ],
    [
      '/crash',
      () => {
        throw new Error('uri kaboom');
      },
    ],
  ]);
  const server = await startRpcServer({
    host: '127.0.0.1',
    port: 0,
    jsonRpcMethods,
    uriEndpoints,
    onError: (e) => errors.push(e),
    onRequest: (p) => paths.push(p),
    ...extra,
  });
  return { server, base: `http://127.0.0.1:${server.port}`, seen, errors, paths };
}

async function post(
  base: string,
  path: string,
  body: string | Buffer,
  method = 'POST',
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
  const res = await request(`${base}${path}`, {
    method: method as 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  return { status: res.statusCode, text: await res.body.text(), headers: res.headers };
}

async function rpc(base: string, body: unknown): Promise<unknown> {
  const r = await post(base, '/json_rpc', typeof body === 'string' ? body : JSON.stringify(body));
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe('application/json');
  return JSON.parse(r.text);
}

describe('server: JSON-RPC envelope', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('success echoes the id as given and prints epee-formatted JSON', async () => {
    const r = await post(h.base, '/json_rpc', '{"jsonrpc":"2.0","id":"1","method":"nothing"}');
    expect(r.status).toBe(200);
    expect(r.text).toBe('{\r\n  "id": "1",\r\n  "jsonrpc": "2.0",\r\n  "result": {\r\n  }\r\n}');
    expect(await rpc(h.base, { jsonrpc: '2.0', id: 7, method: 'nothing' })).toEqual({
      id: 7,
      jsonrpc: '2.0',
      result: {},
    });
    expect(await rpc(h.base, '{"jsonrpc":"2.0","id":18446744073709551615,"method":"nothing"}')).toEqual({
      // eslint-disable-next-line no-loss-of-precision -- the JSON id is 2^64-1 as a JS number: what the test reads back
      id: 18446744073709551615,
      jsonrpc: '2.0',
      result: {},
    });
    expect((await post(h.base, '/json_rpc', '{"id":18446744073709551615,"method":"nothing"}')).text).toContain(
      '"id": 18446744073709551615,',
    );
    expect(await rpc(h.base, { id: -3, method: 'nothing' })).toEqual({ id: -3, jsonrpc: '2.0', result: {} });
    expect(await rpc(h.base, { id: { x: 'y' }, method: 'nothing' })).toEqual({
      id: { x: 'y' },
      jsonrpc: '2.0',
      result: {},
    });
  });

  it('id absent (or null, or []) -> 0 on success', async () => {
    expect(await rpc(h.base, { jsonrpc: '2.0', method: 'nothing' })).toEqual({ id: 0, jsonrpc: '2.0', result: {} });
    expect(await rpc(h.base, { id: null, method: 'nothing' })).toEqual({ id: 0, jsonrpc: '2.0', result: {} });
    expect(await rpc(h.base, { id: [], method: 'nothing' })).toEqual({ id: 0, jsonrpc: '2.0', result: {} });
  });

  it('jsonrpc is not validated (but must be a string if present)', async () => {
    expect(await rpc(h.base, { jsonrpc: '1.0', id: 1, method: 'nothing' })).toEqual({
      id: 1,
      jsonrpc: '2.0',
      result: {},
    });
    expect(await rpc(h.base, { jsonrpc: 2, id: 1, method: 'nothing' })).toEqual({
      error: { code: -32602, message: 'Invalid params' },
      id: 0,
      jsonrpc: '2.0',
    });
  });

  it('result: empty arrays omitted recursively, bigints exact', async () => {
    const r = await post(h.base, '/json_rpc', '{"id":"0","method":"big"}');
    expect(r.text).toBe(
      '{\r\n  "id": "0",\r\n  "jsonrpc": "2.0",\r\n  "result": {\r\n    "balances": [{\r\n      "asset_type": "SAL1"\r\n    }],\r\n    "supply": 18440000000000000000\r\n  }\r\n}',
    );
  });

  it('passes params objects and lists to the handler; missing or other params -> undefined', async () => {
    h.seen.length = 0;
    await rpc(h.base, { id: 1, method: 'echo', params: { a: 1, s: 'x' } });
    await rpc(h.base, { id: 1, method: 'echo' });
    await rpc(h.base, { id: 1, method: 'echo', params: [1, 2] });
    await rpc(h.base, { id: 1, method: 'echo', params: 'x' });
    await rpc(h.base, { id: 1, method: 'echo', params: null });
    expect(h.seen.map((p) => plain(p as Parsed))).toEqual([{ a: 1, s: 'x' }, undefined, [1, 2], undefined, undefined]);
  });

  it('-32700 Parse error, id 0: text, top-level array, broken JSON', async () => {
    const parseError = { error: { code: -32700, message: 'Parse error' }, id: 0, jsonrpc: '2.0' };
    for (const body of [
      'not json',
      '[{"jsonrpc":"2.0","id":1,"method":"nothing"}]',
      '{"id":1,"method":"nothing","n":1',
      '{"method":"nothing", "x": [1,]}',
      '"get_info"',
    ]) {
      expect(await rpc(h.base, body), body).toEqual(parseError);
    }
    const r = await post(h.base, '/json_rpc', 'not json');
    expect(r.text).toBe(
      '{\r\n  "error": {\r\n    "code": -32700,\r\n    "message": "Parse error"\r\n  },\r\n  "id": 0,\r\n  "jsonrpc": "2.0"\r\n}',
    );
  });

  it('a body truncated inside the top-level object is accepted (epee)', async () => {
    expect(await rpc(h.base, '{"id":1,"method":"nothing"')).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
    expect(await rpc(h.base, '{"id":1,"method":"nothing",')).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
  });

  it('-32600 Invalid Request, id 0: empty body, {}, no method, truncated', async () => {
    const invalid = { error: { code: -32600, message: 'Invalid Request' }, id: 0, jsonrpc: '2.0' };
    for (const body of ['', '   ', '{}', '{"id":"5"}', '{"method":null,"id":5}', '{"method":[]}', '{', '{"id":"5",']) {
      expect(await rpc(h.base, body), body).toEqual(invalid);
    }
  });

  it('method that is not a string -> HTTP 500, no JSON-RPC body, connection closed', async () => {
    for (const body of [
      '{"id":1,"method":5}',
      '{"method":true}',
      '{"method":{"a":"b"}}',
      '{"method":["get_info"]}',
      '{"method":1.5}',
    ]) {
      const r = await post(h.base, '/json_rpc', body);
      expect(r.status, body).toBe(500);
      expect(r.text).toBe('');
      expect(r.headers.connection).toBe('close');
      expect(r.headers['content-type']).toBe('application/json');
    }
    const raw = await rawExchange(h.server.port, [httpRequest('POST', '/json_rpc', '{"method":5}')]);
    expect(raw.closedByServer).toBe(true);
    expect(raw.data.toString('latin1')).toMatch(/^HTTP\/1\.1 500 Internal Server Error\r\n/);
  });

  it('-32601 Method not found with the request id, or "" without one', async () => {
    expect(await rpc(h.base, { jsonrpc: '2.0', id: '1', method: 'no_such_method' })).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: '1',
      jsonrpc: '2.0',
    });
    expect(await rpc(h.base, { jsonrpc: '2.0', id: 9, method: 'no_such_method' })).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: 9,
      jsonrpc: '2.0',
    });
    expect(await rpc(h.base, { method: 'no_such_method' })).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: '',
      jsonrpc: '2.0',
    });
    expect(await rpc(h.base, { method: '__proto__' })).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: '',
      jsonrpc: '2.0',
    });
    expect(await rpc(h.base, { method: 'constructor' })).toEqual({
      error: { code: -32601, message: 'Method not found' },
      id: '',
      jsonrpc: '2.0',
    });
  });

  it('-32602 Invalid params with the request id when the handler throws InvalidParams', async () => {
    const invalid = (id: unknown): unknown => ({
      error: { code: -32602, message: 'Invalid params' },
      id,
      jsonrpc: '2.0',
    });
    for (const height of [1.5, -1, '12a', true, '1e8']) {
      expect(
        await rpc(h.base, { id: '3', method: 'get_block_header_by_height', params: { height } }),
        String(height),
      ).toEqual(invalid('3'));
    }
    expect(await rpc(h.base, '{"id":"3","method":"get_block_header_by_height","params":{"height":1e8}}')).toEqual(
      invalid('3'),
    );
    expect(await rpc(h.base, { method: 'get_block_header_by_height', params: { height: -1 } })).toEqual(invalid(0));
    expect(await rpc(h.base, { id: 1, method: 'get_block_header_by_height', params: { height: '123' } })).toEqual({
      id: 1,
      jsonrpc: '2.0',
      result: { height: 123, status: 'OK' },
    });
  });

  it('RpcError -> its code and message; other exceptions -> code 0, message "" (and onError)', async () => {
    expect(await rpc(h.base, { id: '1', method: 'rpc_error' })).toEqual({
      error: { code: -5, message: 'Internal error: something' },
      id: '1',
      jsonrpc: '2.0',
    });
    h.errors.length = 0;
    expect(await rpc(h.base, { id: '1', method: 'crash' })).toEqual({
      error: { code: 0, message: '' },
      id: '1',
      jsonrpc: '2.0',
    });
    expect(await rpc(h.base, { id: 2, method: 'async_crash' })).toEqual({
      error: { code: 0, message: '' },
      id: 2,
      jsonrpc: '2.0',
    });
    expect(h.errors.map((e) => (e as Error).message)).toEqual(['kaboom', 'async kaboom']);
  });

  it('HTTP method is not checked; OPTIONS answers an empty 200', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await post(h.base, '/json_rpc', '{"id":1,"method":"nothing"}', method);
      expect(r.status, method).toBe(200);
      expect(JSON.parse(r.text)).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
    }
    const opt = await post(h.base, '/json_rpc', '', 'OPTIONS');
    expect(opt.status).toBe(200);
    expect(opt.text).toBe('');
    const raw = await rawExchange(h.server.port, [httpRequest('PATCH', '/json_rpc', '{}')]);
    expect(raw.data.length).toBe(0);
    expect(raw.closedByServer).toBe(true);
  });

  it('sends epee headers', async () => {
    const raw = await rawExchange(h.server.port, [httpRequest('POST', '/json_rpc', '{"id":1,"method":"nothing"}')]);
    const [r] = splitResponses(raw.data);
    expect(r?.status).toBe(200);
    expect(r?.statusText).toBe('Ok');
    expect(r?.headers.server).toEqual(['Epee-based']);
    expect(r?.headers['content-type']).toEqual(['application/json']);
    expect(r?.headers['accept-ranges']).toEqual(['bytes']);
    expect(r?.headers['last-modified']?.[0]).toMatch(/GMT$/);
    expect(r?.headers.date).toBeUndefined();
  });

  it('calls onRequest with every path', async () => {
    h.paths.length = 0;
    await post(h.base, '/nope?x=1', '');
    await post(h.base, '/json_rpc', '{}');
    expect(h.paths).toEqual(['/nope?x=1', '/json_rpc']);
  });
});

describe('server: URI endpoints and paths', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('serves URI endpoints with an object body (empty body = {})', async () => {
    for (const body of ['', '{}', '{"client":"x"}', '{', '{"x":null}']) {
      const r = await post(h.base, '/get_height', body);
      expect(r.status, body).toBe(200);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.text).toBe('{\r\n  "height": 1367,\r\n  "status": "OK",\r\n  "untrusted": false\r\n}');
    }
    const get = await post(h.base, '/get_height', '', 'GET');
    expect(get.status).toBe(200);
    expect(JSON.parse(get.text)).toEqual({ height: 1367, status: 'OK', untrusted: false });
  });

  it('400 Bad request for unparseable bodies, wrong types, BadRequest', async () => {
    for (const [path, body] of [
      ['/get_height', 'not json'],
      ['/get_height', '[1]'],
      ['/get_height', '{"a":1'],
      ['/typed', '{"height":-1}'],
      ['/typed', '{"height":1.5}'],
      ['/typed', '{"height":"x"}'],
      ['/bad', '{}'],
    ] as const) {
      const r = await post(h.base, path, body);
      expect(r.status, `${path} ${body}`).toBe(400);
      expect(r.text).toBe('');
    }
    expect(JSON.parse((await post(h.base, '/typed', '{"height":"42"}')).text)).toEqual({ height: 42, status: 'OK' });
    const raw = await rawExchange(h.server.port, [httpRequest('POST', '/bad', '{}')]);
    expect(raw.data.toString('latin1')).toMatch(/^HTTP\/1\.1 400 Bad request\r\n/);
  });

  it('500 when the handler throws, connection closed', async () => {
    h.errors.length = 0;
    const r = await post(h.base, '/crash', '{}');
    expect(r.status).toBe(500);
    expect(r.text).toBe('');
    expect(r.headers.connection).toBe('close');
    expect(h.errors).toHaveLength(1);
  });

  it('404 with an empty body for anything else; matching is exact', async () => {
    for (const path of [
      '/nope',
      '/',
      '/json_rpc/',
      '/json_rpc?x=1',
      '/get_height/',
      '/get_height?a',
      '/GET_HEIGHT',
      '//json_rpc',
    ]) {
      const r = await post(h.base, path, '{}');
      expect(r.status, path).toBe(404);
      expect(r.text).toBe('');
    }
    const raw = await rawExchange(h.server.port, [httpRequest('GET', '/nope')]);
    expect(raw.data.toString('latin1')).toMatch(/^HTTP\/1\.1 404 Not found\r\n/);
    // targets fetch/undici would normalise, sent raw
    for (const target of ['/get_height?', '/get_height#x', 'http://127.0.0.1/get_height', '/json_rpc?', '*']) {
      const rr = await rawExchange(h.server.port, [httpRequest('POST', target, '{}')]);
      expect(splitResponses(rr.data)[0]?.status, target).toBe(404);
    }
  });

  it('keeps connections alive: several requests on one socket', async () => {
    const raw = await rawExchange(h.server.port, [
      httpRequest('POST', '/get_height', '{}'),
      httpRequest('POST', '/json_rpc', '{"id":1,"method":"nothing"}'),
      httpRequest('POST', '/nope', ''),
      httpRequest('POST', '/json_rpc', 'x'),
    ]);
    expect(raw.closedByServer).toBe(false);
    const rs = splitResponses(raw.data);
    expect(rs.map((r) => r.status)).toEqual([200, 200, 404, 200]);
    expect(JSON.parse(rs[3]?.body ?? '')).toEqual({
      error: { code: -32700, message: 'Parse error' },
      id: 0,
      jsonrpc: '2.0',
    });
  });

  it('undici client reuses one connection', async () => {
    const client = new Client(h.base, { pipelining: 1 });
    let connects = 0;
    client.on('connect', () => connects++);
    try {
      for (let i = 0; i < 5; i++) {
        const res = await client.request({ path: '/json_rpc', method: 'POST', body: `{"id":${i},"method":"nothing"}` });
        expect(JSON.parse(await res.body.text())).toEqual({ id: i, jsonrpc: '2.0', result: {} });
      }
      expect(connects).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('a chunked body is not read: handled as empty, then the connection is closed', async () => {
    const head = 'POST /json_rpc HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = '{"id":1,"method":"nothing"}';
    const raw = await rawExchange(h.server.port, [head + `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`]);
    const [r] = splitResponses(raw.data);
    expect(JSON.parse(r?.body ?? '')).toEqual({
      error: { code: -32600, message: 'Invalid Request' },
      id: 0,
      jsonrpc: '2.0',
    });
    expect(raw.closedByServer).toBe(true);
  });
});

describe('server: serial processing', () => {
  it('serial: slow requests run one after the other, in arrival order; runExclusive joins the queue', async () => {
    const spans: Array<{ name: string; start: number; end: number }> = [];
    let releaseA!: () => void;
    const gateA = new Promise<void>((r) => (releaseA = r));
    let startedA!: () => void;
    const aStarted = new Promise<void>((r) => (startedA = r));
    const slow = (name: string, wait: () => Promise<void>) => async () => {
      const start = Date.now();
      if (name === 'a') startedA();
      await wait();
      spans.push({ name, start, end: Date.now() });
      return { name };
    };
    const h = await start({ serial: true }, { a: slow('a', () => gateA), b: slow('b', () => sleep(100)) });
    try {
      const pa = rpc(h.base, { id: 1, method: 'a' });
      await aStarted;
      const pb = rpc(h.base, { id: 2, method: 'b' });
      await sleep(100); // b has arrived and waits behind a
      const pe = h.server.runExclusive(slow('exclusive', () => sleep(50)));
      const pn = post(h.base, '/nope', '');
      await sleep(100);
      expect(spans).toEqual([]); // everything waits for a
      releaseA();
      const [ra, rb] = await Promise.all([pa, pb, pe]);
      expect(ra).toEqual({ id: 1, jsonrpc: '2.0', result: { name: 'a' } });
      expect(rb).toEqual({ id: 2, jsonrpc: '2.0', result: { name: 'b' } });
      expect((await pn).status).toBe(404);
      expect(spans.map((s) => s.name)).toEqual(['a', 'b', 'exclusive']);
      const [sa, sb, se] = spans as [(typeof spans)[0], (typeof spans)[0], (typeof spans)[0]];
      expect(sb.start).toBeGreaterThanOrEqual(sa.end);
      expect(se.start).toBeGreaterThanOrEqual(sb.end);
    } finally {
      await h.server.close();
    }
  });

  it('not serial: slow requests overlap', async () => {
    const spans: Array<{ start: number; end: number }> = [];
    const slow = async (): Promise<object> => {
      const start = Date.now();
      await sleep(150);
      spans.push({ start, end: Date.now() });
      return {};
    };
    const h = await start({}, { slow });
    try {
      await Promise.all([rpc(h.base, { method: 'slow' }), rpc(h.base, { method: 'slow' })]);
      const [x, y] = spans as [(typeof spans)[0], (typeof spans)[0]];
      expect(Math.max(x.start, y.start)).toBeLessThan(Math.min(x.end, y.end));
    } finally {
      await h.server.close();
    }
  });

  it('serial: an exception does not stop the queue', async () => {
    const h = await start({ serial: true });
    try {
      await expect(h.server.runExclusive(async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
      expect(await rpc(h.base, { id: 1, method: 'crash' })).toEqual({
        error: { code: 0, message: '' },
        id: 1,
        jsonrpc: '2.0',
      });
      expect(await rpc(h.base, { id: 2, method: 'nothing' })).toEqual({ id: 2, jsonrpc: '2.0', result: {} });
    } finally {
      await h.server.close();
    }
  });
});

describe('server: body limit', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start({ maxBodyBytes: 1024 * 1024 });
  });
  afterAll(async () => {
    await h.server.close();
  });

  const bodyOf = (size: number): string => {
    const prefix = '{"id":1,"method":"nothing","pad":"';
    return `${prefix}${'x'.repeat(size - prefix.length - 2)}"}`;
  };

  it('accepts requests under 1 MiB', async () => {
    const body = bodyOf(1024 * 1024 - 1024);
    expect(await rpc(h.base, body)).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
  });

  it('closes the connection without a response above 1 MiB (request line + headers + body)', async () => {
    await expect(post(h.base, '/json_rpc', bodyOf(1024 * 1024 + 1))).rejects.toThrow();
    await expect(post(h.base, '/json_rpc', bodyOf(1024 * 1024))).rejects.toThrow();
    const raw = await rawExchange(h.server.port, [httpRequest('POST', '/json_rpc', bodyOf(2 * 1024 * 1024))]);
    expect(raw.data.length).toBe(0);
    expect(raw.closedByServer).toBe(true);
    // a lying Content-Length: the bytes that actually arrive are counted
    const lie = Buffer.from(`POST /json_rpc HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{"a":"b"}\r\n`);
    const r2 = await rawExchange(h.server.port, [lie]);
    expect(splitResponses(r2.data)[0]?.status).toBe(200);
    // still serving
    expect(await rpc(h.base, { id: 2, method: 'nothing' })).toEqual({ id: 2, jsonrpc: '2.0', result: {} });
  });

  it('no limit when maxBodyBytes is not set (wallet RPC)', async () => {
    const w = await start();
    try {
      expect(await rpc(w.base, bodyOf(3 * 1024 * 1024))).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
    } finally {
      await w.server.close();
    }
  });
});

describe('server: Digest authentication', () => {
  const creds = { username: 'monero', password: 'c2VjcmV0cGFzc3dvcmQ=' };
  let h: Harness;
  beforeAll(async () => {
    h = await start({ auth: creds, serial: true });
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('401 with WWW-Authenticate: Digest without credentials, on every path', async () => {
    for (const path of ['/json_rpc', '/nope', '/get_height']) {
      const r = await post(h.base, path, '{"id":1,"method":"nothing"}');
      expect(r.status, path).toBe(401);
      expect(r.text).toBe(
        '<html><head><title>Unauthorized Access</title></head><body><h1>401 Unauthorized</h1></body></html>',
      );
      const www = r.headers['www-authenticate'];
      expect(Array.isArray(www)).toBe(true);
      expect(www).toHaveLength(2);
      expect((www as string[])[0]).toMatch(
        /^Digest qop="auth",algorithm=MD5,realm="monero-rpc",nonce="[A-Za-z0-9+/]{22}==",stale=false$/,
      );
      expect((www as string[])[1]).toMatch(/^Digest qop="auth",algorithm=MD5-sess,realm="monero-rpc",nonce=/);
    }
  });

  it('200 with credentials, nc counting up on one connection; 401 with a wrong password', async () => {
    const client = new Client(h.base, { pipelining: 1 });
    try {
      const send = async (
        headers: Record<string, string> = {},
        path = '/json_rpc',
      ): Promise<{ status: number; text: string; www: string[] }> => {
        const res = await client.request({ path, method: 'POST', body: '{"id":"1","method":"nothing"}', headers });
        const www = res.headers['www-authenticate'];
        return {
          status: res.statusCode,
          text: await res.body.text(),
          www: www === undefined ? [] : Array.isArray(www) ? www : [www],
        };
      };
      const first = await send();
      expect(first.status).toBe(401);
      const auth = (nc: number, password = creds.password, path = '/json_rpc'): Record<string, string> => ({
        authorization: digestAuthorizationHeader({
          username: creds.username,
          password,
          method: 'POST',
          uri: path,
          wwwAuthenticate: first.www,
          nc,
        }),
      });
      const ok1 = await send(auth(1));
      expect(ok1.status).toBe(200);
      expect(JSON.parse(ok1.text)).toEqual({ id: '1', jsonrpc: '2.0', result: {} });
      expect((await send(auth(2))).status).toBe(200);
      expect((await send(auth(3, creds.password, '/get_height'), '/get_height')).status).toBe(200);
      const notFound = await send(auth(4, creds.password, '/nope'), '/nope');
      expect(notFound.status).toBe(404);

      const wrong = await send(auth(5, 'wrong password'));
      expect(wrong.status).toBe(401);
      expect(wrong.www[0]).toContain('stale=false');
      // the session was reset: the old nonce is stale now
      const stale = await send(auth(6));
      expect(stale.status).toBe(401);
      expect(stale.www[0]).toContain('stale=true');
      // answering the new challenge works again
      const again = await send({
        authorization: digestAuthorizationHeader({
          ...creds,
          method: 'POST',
          uri: '/json_rpc',
          wwwAuthenticate: stale.www,
          nc: 1,
        }),
      });
      expect(again.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('a new connection needs its own challenge (epee keeps the nonce per connection)', async () => {
    const c1 = new Client(h.base);
    const c2 = new Client(h.base);
    try {
      const r1 = await c1.request({ path: '/json_rpc', method: 'POST', body: '{}' });
      await r1.body.text();
      const www = r1.headers['www-authenticate'] as string[];
      const header = digestAuthorizationHeader({
        ...creds,
        method: 'POST',
        uri: '/json_rpc',
        wwwAuthenticate: www,
        nc: 1,
      });
      const other = await c2.request({
        path: '/json_rpc',
        method: 'POST',
        body: '{}',
        headers: { authorization: header },
      });
      await other.body.text();
      expect(other.statusCode).toBe(401);
      const same = await c1.request({
        path: '/json_rpc',
        method: 'POST',
        body: '{"method":"nothing"}',
        headers: { authorization: header },
      });
      expect(same.statusCode).toBe(200);
      await same.body.text();
    } finally {
      await c1.close();
      await c2.close();
    }
  });

  it('OPTIONS is answered without authentication', async () => {
    const r = await post(h.base, '/json_rpc', '', 'OPTIONS');
    expect(r.status).toBe(200);
  });
});

describe('server: robustness', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await start({ maxBodyBytes: 1024 * 1024 });
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('rejects with the listen error when the port is taken', async () => {
    await expect(
      startRpcServer({ host: '127.0.0.1', port: h.server.port, jsonRpcMethods: new Map() }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('survives random bytes on raw connections', async () => {
    for (let i = 0; i < 30; i++) {
      const junk = randomBytes(1 + ((i * 97) % 3000));
      await rawExchange(h.server.port, [junk], 50);
    }
    await rawExchange(h.server.port, [`POST /json_rpc HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n`], 50); // body never arrives
    await rawExchange(h.server.port, ['\r\n'.repeat(20)], 50);
    await rawExchange(h.server.port, [`GET /${'a'.repeat(20000)} HTTP/1.1\r\n\r\n`], 50);
    await rawExchange(h.server.port, [`POST /json_rpc HTTP/1.1\r\nContent-Length: -5\r\n\r\n`], 50);
    await rawExchange(h.server.port, [`POST /json_rpc HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n`], 50);
    expect(await rpc(h.base, { id: 1, method: 'nothing' })).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
  });

  it('survives hostile JSON bodies: deep nesting, huge numbers, invalid UTF-8, random text', async () => {
    const bodies: Array<string | Buffer> = [
      '{"a":'.repeat(100_000),
      '['.repeat(100_000),
      `{"method":"echo","params":${'{"a":'.repeat(150)}1${'}'.repeat(150)}}`,
      `{"method":"get_block_header_by_height","params":{"height":${'9'.repeat(5000)}}}`,
      `{"method":"get_block_header_by_height","params":{"height":1e99999}}`,
      `{"method":"get_block_header_by_height","params":{"height":-${'9'.repeat(30)}}}`,
      Buffer.concat([
        Buffer.from('{"id":"'),
        Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
        Buffer.from('","method":"nothing"}'),
      ]),
      Buffer.concat([Buffer.from('{"method":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
      Buffer.from([0x00, 0x01, 0x02, 0x7b]),
      '{"method":"echo","params":{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}}',
      `{"method":"echo","params":{"s":"${'\\u0000'.repeat(1000)}"}}`,
      `{"method":"echo","params":{"a":[${'1,'.repeat(50_000)}1]}}`,
    ];
    for (const body of bodies) {
      const r = await post(h.base, '/json_rpc', body);
      expect([200, 500]).toContain(r.status);
      // (epee prints control characters in strings raw, which JSON.parse refuses)
      if (r.status === 200 && !/[\u0000-\u001f]/.test(r.text.replace(/\r\n/g, '')))
        expect(() => JSON.parse(r.text)).not.toThrow();
      const u = await post(h.base, '/get_height', body);
      expect([200, 400]).toContain(u.status);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    let seed = 7;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = '{}[]":,0123456789-+.eE truefalsnull\\u"method"echo"params"id';
    for (let i = 0; i < 300; i++) {
      let s = '{';
      const len = rnd(80);
      for (let j = 0; j < len; j++) s += alphabet[rnd(alphabet.length)];
      const r = await post(h.base, '/json_rpc', s);
      expect([200, 500], s).toContain(r.status);
    }
    expect(await rpc(h.base, { id: 1, method: 'nothing' })).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
    expect(h.errors).toEqual([]);
  });

  it('a result that cannot be serialised is a handler failure (code 0), not a crash', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const w = await start({}, { cyclic: () => cyclic });
    try {
      expect(await rpc(w.base, '{"id":5,"method":"cyclic"}')).toEqual({
        error: { code: 0, message: '' },
        id: 5,
        jsonrpc: '2.0',
      });
      expect(w.errors.length).toBeGreaterThan(0);
      expect(await rpc(w.base, { id: 1, method: 'nothing' })).toEqual({ id: 1, jsonrpc: '2.0', result: {} });
    } finally {
      await w.server.close();
    }
  });
});

describe('server: close', () => {
  it('close() resolves with idle keep-alive connections open, and frees the port', async () => {
    const h = await start();
    const client = new Client(h.base);
    const res = await client.request({ path: '/json_rpc', method: 'POST', body: '{"method":"nothing"}' });
    await res.body.text();
    await h.server.close();
    await client.close().catch(() => undefined);
    const again = await startRpcServer({ host: '127.0.0.1', port: h.server.port, jsonRpcMethods: new Map() });
    await again.close();
  });

  it('InvalidParams is exported for handlers', () => {
    expect(new InvalidParams()).toBeInstanceOf(Error);
  });
});
