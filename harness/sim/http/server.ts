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
//    connection (see harness/common/digest.ts). Routing is router.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withReplay } from './replay.js';
import { INTERNAL_ERROR, createRouter, type Reply, type Report, type RouterOptions } from './router.js';

export { BadRequest, RpcError, type Handler } from './router.js';

export interface RpcServerOptions extends RouterOptions {
  host: string;
  port: number;
  /** Process one request at a time, in the order their bodies arrived (wallet RPC). */
  serial?: boolean;
  /** Close the connection (no response) once a request exceeds this many bytes (daemon: 1 MiB). */
  maxBodyBytes?: number;
  /** Called with the request target of every request. */
  onRequest?: (path: string) => void;
  /** TEST ONLY (common/test-stall.ts): awaited before a request is routed. */
  stall?: (path: string, body: string) => Promise<void>;
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

/** Write a reply with the headers epee sends. */
function send(res: ServerResponse, reply: Reply, close: boolean): void {
  if (res.headersSent || res.destroyed || res.writableEnded) return;
  const body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(reply.body ?? '', 'utf8');
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
}

/** The request handler: epee's size limits, then (one at a time when serial) routing and the reply. */
function requestHandler(
  opts: RpcServerOptions,
  route: ReturnType<typeof createRouter>,
  report: Report,
  queue: SerialQueue,
): (req: IncomingMessage, res: ServerResponse) => void {
  const limit = opts.maxBodyBytes;
  const processRequest = async (
    req: IncomingMessage,
    res: ServerResponse,
    body: string,
    closeAfter: boolean,
  ): Promise<void> => {
    const path = req.url ?? '';
    try {
      opts.onRequest?.(path);
    } catch (err) {
      report(err, path);
    }
    let reply: Reply;
    try {
      await opts.stall?.(path, body);
      reply = await withReplay(req, () => route(req, body));
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
  return onRequest;
}

export function startRpcServer(opts: RpcServerOptions): Promise<RpcServer> {
  const report = (error: unknown, path: string, method?: string): void => {
    try {
      opts.onError?.(error, method === undefined ? { path } : { path, method });
    } catch {
      // a failing hook must not take the server down
    }
  };

  const route = createRouter(opts, report);
  const queue = new SerialQueue();
  const onRequest = requestHandler(opts, route, report, queue);
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
