// An HTTP server that answers like epee's HTTP server as salviumd and salvium-wallet-rpc run it
// (epee http_protocol_handler.inl, http_server_handlers_map2.h, http_auth.cpp; reference §2, §8):
//  * status lines "200 Ok", "400 Bad request", "401 Unauthorized", "404 Not found",
//    "500 Internal Server Error"; headers `Server: Epee-based`, `Content-Length`, `Content-Type`
//    (application/json for JSON bodies, text/plain for empty error bodies), `Last-Modified`,
//    `Accept-Ranges: bytes`, no `Date`;
//  * the HTTP method is not checked (OPTIONS gets an empty 200 without authentication; methods
//    epee's request-line regex does not know, e.g. PATCH, get the connection closed);
//  * paths match exactly, query string included: `/get_info?x` and `/get_info/` are 404s;
//  * every 500 closes the connection after the response; a body longer than `maxBodyBytes`
//    (counted with the request line and headers, as epee counts bytes read) closes it without
//    a response; a chunked body is not read (epee only reads Content-Length bodies): the request
//    is handled with an empty body and the connection closed;
//  * with `auth`, HTTP Digest is required on every request, with one nonce session per
//    connection (see digest.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DigestNonceStore, verifyDigestAuthorization } from '../../common/digest.js';
import { isParsedObject, parseEpeeJson, toEpeeJson, type Parsed, type ParsedObject } from './json.js';
import { InvalidParams, isAbsent } from './params.js';

/** A JSON-RPC error with its code and message (the `error` object of the response). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Thrown by URI endpoint handlers to answer HTTP 400 "Bad request". */
export class BadRequest extends Error {
  constructor(message = 'Bad request') {
    super(message);
    this.name = 'BadRequest';
  }
}

/**
 * A method or endpoint. JSON-RPC: receives `params` when it is an object, else undefined, and
 * returns the `result` object. URI endpoint: receives the body object and returns the response
 * object. Throw `InvalidParams`, `RpcError` or (URI) `BadRequest` to answer an error.
 */
export type Handler = (params: Parsed | undefined) => unknown | Promise<unknown>;

export interface RpcServerOptions {
  host: string;
  port: number;
  /** Served at /json_rpc. */
  jsonRpcMethods: Map<string, Handler>;
  /** Plain JSON endpoints, e.g. '/get_info' -> handler(body object). */
  uriEndpoints?: Map<string, Handler>;
  /** HTTP Digest (MD5, qop=auth, realm "monero-rpc") on every request when set. */
  auth?: { username: string; password: string };
  /** Process one request at a time, in the order their bodies arrived (wallet RPC). */
  serial?: boolean;
  /** Close the connection (no response) once a request exceeds this many bytes (daemon: 1 MiB). */
  maxBodyBytes?: number;
  /** TEST ONLY (SALTNET_SIM_TEST_ERROR_SUFFIX): appended to the message of every JSON-RPC error a method throws. */
  errorSuffix?: string;
  /** Called with the request target of every request. */
  onRequest?: (path: string) => void;
  /** Called with handler exceptions that are not RpcError/InvalidParams/BadRequest, and other internal errors. */
  onError?: (error: unknown, context: { path: string; method?: string }) => void;
}

export interface RpcServer {
  readonly port: number;
  close(): Promise<void>;
  /** Run `fn` in the serial queue requests go through (for the wallet's periodic refresh). */
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
}

const EPEE_METHODS = new Set(['OPTIONS', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'TRACE']);
const UNAUTHORIZED_BODY = '<html><head><title>Unauthorized Access</title></head><body><h1>401 Unauthorized</h1></body></html>';

interface Reply {
  status: number;
  message: string;
  body?: string;
  contentType?: string;
  wwwAuthenticate?: string[];
  close?: boolean;
}

const jsonReply = (value: unknown): Reply => ({ status: 200, message: 'Ok', body: toEpeeJson(value), contentType: 'application/json' });
const errorReply = (code: number, message: string, id: unknown): Reply => jsonReply({ error: { code, message }, id, jsonrpc: '2.0' });
const BAD_REQUEST: Reply = { status: 400, message: 'Bad request', contentType: 'text/plain' };
const NOT_FOUND: Reply = { status: 404, message: 'Not found', contentType: 'text/plain' };
const INTERNAL_ERROR: Reply = { status: 500, message: 'Internal Server Error', contentType: 'text/plain', close: true };
// /json_rpc sets the JSON content type before it reads `method`, so its 500 keeps it
const JSON_RPC_INTERNAL_ERROR: Reply = { ...INTERNAL_ERROR, contentType: 'application/json' };

/** A member of the request object as epee's storage would hold it (null and [] are absent). */
function member(doc: ParsedObject, key: string): Parsed | undefined {
  if (!Object.prototype.hasOwnProperty.call(doc, key)) return undefined;
  const v = doc[key];
  return isAbsent(v) ? undefined : v;
}

class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Bytes of the request line and headers, as epee counts them towards its limit. */
function headerBytes(req: IncomingMessage): number {
  let n = Buffer.byteLength(`${req.method ?? ''} ${req.url ?? ''} HTTP/${req.httpVersion}\r\n`);
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) n += Buffer.byteLength(`${raw[i]}: ${raw[i + 1]}\r\n`);
  return n + 2;
}

export function startRpcServer(opts: RpcServerOptions): Promise<RpcServer> {
  const queue = new SerialQueue();
  const sessions = new WeakMap<Socket, DigestNonceStore>();
  const limit = opts.maxBodyBytes;

  const report = (error: unknown, path: string, method?: string): void => {
    try {
      opts.onError?.(error, method === undefined ? { path } : { path, method });
    } catch {
      // a failing hook must not take the server down
    }
  };

  const checkAuth = (req: IncomingMessage): Reply | undefined => {
    if (!opts.auth) return undefined;
    let store = sessions.get(req.socket);
    if (!store) {
      store = new DigestNonceStore();
      sessions.set(req.socket, store);
    }
    const v = verifyDigestAuthorization(req.headers.authorization, req.method ?? '', opts.auth, store);
    if (v.ok) return undefined;
    return { status: 401, message: 'Unauthorized', contentType: 'text/html', body: UNAUTHORIZED_BODY, wwwAuthenticate: v.wwwAuthenticate };
  };

  const uriCall = async (handler: Handler, body: string, path: string): Promise<Reply> => {
    const parsed = parseEpeeJson(body);
    if (!parsed.ok || !isParsedObject(parsed.value)) return BAD_REQUEST;
    try {
      return jsonReply((await handler(parsed.value)) ?? {});
    } catch (err) {
      if (err instanceof InvalidParams || err instanceof BadRequest) return BAD_REQUEST;
      report(err, path);
      return INTERNAL_ERROR;
    }
  };

  const jsonRpc = async (body: string, path: string): Promise<Reply> => {
    const parsed = parseEpeeJson(body);
    if (!parsed.ok || !isParsedObject(parsed.value)) return errorReply(-32700, 'Parse error', 0);
    const doc = parsed.value;
    const id = member(doc, 'id');
    const method = member(doc, 'method');
    if (method === undefined) return errorReply(-32600, 'Invalid Request', 0);
    // epee converts `method` to std::string; for any other type that throws -> HTTP 500
    if (typeof method !== 'string') return JSON_RPC_INTERNAL_ERROR;
    const handler = opts.jsonRpcMethods.get(method);
    if (!handler) return errorReply(-32601, 'Method not found', id ?? '');
    // json_rpc::request::load reads `jsonrpc` (a string) before `id`: a failure there answers id 0
    const jsonrpc = member(doc, 'jsonrpc');
    if (jsonrpc !== undefined && typeof jsonrpc !== 'string') return errorReply(-32602, 'Invalid params', 0);
    const echo = id ?? 0;
    const p = member(doc, 'params');
    try {
      // A method whose request is a list (on_get_block_hash) gets it; params() reads only objects.
      const result = await handler(isParsedObject(p) || Array.isArray(p) ? p : undefined);
      return jsonReply({ id: echo, jsonrpc: '2.0', result: result ?? {} });
    } catch (err) {
      if (err instanceof InvalidParams) return errorReply(-32602, 'Invalid params', echo);
      if (err instanceof RpcError) return errorReply(err.code, err.message + (opts.errorSuffix ?? ''), echo);
      report(err, path, method);
      return errorReply(0, '', echo);
    }
  };

  const route = async (req: IncomingMessage, body: string): Promise<Reply> => {
    const path = req.url ?? '';
    if (req.method === 'OPTIONS') return { status: 200, message: 'OK' };
    const denied = checkAuth(req);
    if (denied) return denied;
    const endpoint = opts.uriEndpoints?.get(path);
    if (endpoint) return uriCall(endpoint, body, path);
    if (path === '/json_rpc') return jsonRpc(body, path);
    return NOT_FOUND;
  };

  const send = (res: ServerResponse, reply: Reply, close: boolean): void => {
    if (res.headersSent || res.destroyed || res.writableEnded) return;
    const body = Buffer.from(reply.body ?? '', 'utf8');
    res.sendDate = false;
    res.setHeader('Server', 'Epee-based');
    res.setHeader('Content-Length', String(body.length));
    if (reply.contentType) res.setHeader('Content-Type', reply.contentType);
    res.setHeader('Last-Modified', new Date().toUTCString());
    res.setHeader('Accept-Ranges', 'bytes');
    if (reply.wwwAuthenticate) res.setHeader('WWW-authenticate', reply.wwwAuthenticate);
    if (reply.close || close) res.setHeader('Connection', 'close');
    res.writeHead(reply.status, reply.message);
    res.end(body);
  };

  const processRequest = async (req: IncomingMessage, res: ServerResponse, body: string, closeAfter: boolean): Promise<void> => {
    const path = req.url ?? '';
    try {
      opts.onRequest?.(path);
    } catch (err) {
      report(err, path);
    }
    let reply: Reply;
    try {
      reply = await route(req, body);
    } catch (err) {
      report(err, path);
      reply = INTERNAL_ERROR;
    }
    try {
      send(res, reply, closeAfter);
    } catch (err) {
      report(err, path);
      // e.g. a result that cannot be serialised after all: fall back to a bare 500
      try {
        if (!res.headersSent) send(res, INTERNAL_ERROR, true);
        else res.destroy();
      } catch {
        res.destroy();
      }
    }
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    if (!EPEE_METHODS.has(req.method ?? '')) {
      req.socket.destroy();
      return;
    }
    let total = headerBytes(req);
    const declared = req.headers['content-length'];
    const chunked = declared === undefined && req.headers['transfer-encoding'] !== undefined;
    if (limit !== undefined && declared !== undefined) {
      const n = Number(declared);
      if (!Number.isFinite(n) || total + n > limit) {
        req.socket.destroy();
        return;
      }
    }
    const chunks: Buffer[] = [];
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      total += chunk.length;
      if (limit !== undefined && total > limit) {
        refused = true;
        req.socket.destroy();
        return;
      }
      if (!chunked) chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused || req.socket.destroyed) return;
      const body = Buffer.concat(chunks).toString('utf8');
      const task = (): Promise<void> => processRequest(req, res, body, chunked);
      (opts.serial ? queue.run(task) : task()).catch((err: unknown) => report(err, req.url ?? ''));
    });
  };

  const server = createServer({ maxHeaderSize: 100_000, requireHostHeader: false });
  server.keepAliveTimeout = 60_000;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    try {
      onRequest(req, res);
    } catch (err) {
      report(err, req.url ?? '');
      req.socket.destroy();
    }
  });
  // epee drops connections it cannot parse without answering
  server.on('clientError', (_err: Error, socket) => socket.destroy());

  return new Promise<RpcServer>((resolve, reject) => {
    const onListenError = (err: Error): void => reject(err);
    server.once('error', onListenError);
    server.listen({ host: opts.host, port: opts.port }, () => {
      server.off('error', onListenError);
      server.on('error', (err: Error) => report(err, ''));
      const port = (server.address() as AddressInfo).port;
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
        runExclusive: <T>(fn: () => Promise<T>): Promise<T> => queue.run(fn),
      });
    });
  });
}
