// A recording proxy in front of one RPC server (a wallet RPC or the daemon): every request is
// forwarded unchanged — method, path, headers (an HTTP Digest login included), body — and the answer
// comes back unchanged. What crossed is kept as raw bytes and parsed only when the recording is
// written, so the hot path does no JSON work. Headers are never kept (an Authorization header is a
// secret). Bound to 127.0.0.1 on a free port.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

/** One request that crossed the proxy, as raw bytes. */
export interface RawExchange {
  /** Which server: `daemon` or `wallet:<name>`. */
  target: string;
  /** A number that orders every exchange of a session (given by the session's clock). */
  seq: number;
  /** Date.now() when the request arrived and when its answer was complete. */
  startedAt: number;
  endedAt: number;
  method: string;
  path: string;
  requestBody: Buffer;
  status: number;
  responseBody: Buffer;
  contentType: string;
  /** False for a request that is part of something else (a mining episode), not a step of its own. */
  keep: boolean;
}

export interface ProxyHooks {
  /**
   * Called before a request is forwarded (the session settles what happened before it): false when the request is no
   * step of its own.
   */
  before?(target: string, path: string, body: Buffer, seq: number): boolean | Promise<boolean>;
  /** Every exchange, once its answer went back. */
  exchange(e: RawExchange): void;
}

export interface RecordingProxy {
  readonly url: string;
  readonly target: string;
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110 §7.6.1) and the ones the pool sets itself.
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

function forwardable(h: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !HOP.has(k)) out[k] = v;
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * A proxy for `upstream` (http://127.0.0.1:port of the real server). `nextSeq` numbers the
 * exchanges of the whole session in the order requests arrive.
 */
export async function startRecordingProxy(
  upstream: string,
  target: string,
  hooks: ProxyHooks,
  nextSeq: () => number,
): Promise<RecordingProxy> {
  const pool = new Pool(upstream, { connections: 8, pipelining: 1 });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const startedAt = Date.now();
    const seq = nextSeq();
    const path = req.url ?? '/';
    const method = req.method ?? 'POST';
    const requestBody = await readBody(req);
    const keep = (await hooks.before?.(target, path, requestBody, seq)) !== false;
    let status = 502;
    let contentType = 'text/plain';
    let responseBody: Buffer;
    try {
      const r = await pool.request({
        method: method as 'POST',
        path,
        headers: forwardable(req.headers),
        body: requestBody.length > 0 ? requestBody : null,
      });
      status = r.statusCode;
      responseBody = Buffer.from(await r.body.arrayBuffer());
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(r.headers)) if (v !== undefined && !HOP.has(k)) headers[k] = v;
      contentType = String(r.headers['content-type'] ?? '');
      res.writeHead(status, headers).end(responseBody);
    } catch (err) {
      // The server behind the proxy is gone or refused: the client sees what it would have seen.
      responseBody = Buffer.from(
        `saltnet record: ${target} did not answer (${err instanceof Error ? err.message : String(err)})`,
      );
      res.destroy();
    }
    hooks.exchange({
      target,
      seq,
      startedAt,
      endedAt: Date.now(),
      method,
      path,
      requestBody,
      status,
      responseBody,
      contentType,
      keep,
    });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    target,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.close();
    },
  };
}
