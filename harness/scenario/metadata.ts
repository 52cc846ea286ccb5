// Token metadata for create_token (tier 2): a JSON blob served over HTTP on 127.0.0.1, whose URL,
// SHA-256 and size go into the token's `url`, `hash` and `size`; and the `token_metadata_hex` form.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Serialises one JSON value deterministically: keys in the order given, no whitespace, strings
 * escaped as JSON.stringify does (non-ASCII stays as UTF-8), bigints as exact integers. Anything
 * without a faithful JSON form (NaN, Infinity, a function, a symbol, undefined inside an array, a
 * cycle) throws, rather than silently becoming `null` in a blob whose hash goes on chain.
 */
function canonical(v: unknown, at: string, stack: Set<object>): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw new TypeError(`metadata ${at}: ${v} has no JSON form`);
      return JSON.stringify(v);
    case 'undefined':
    case 'function':
    case 'symbol':
      throw new TypeError(`metadata ${at}: a ${typeof v} has no JSON form`);
  }
  if (v === null) return 'null';
  const o = v as object;
  if (o instanceof Date) return JSON.stringify(o.toISOString());
  if (stack.has(o)) throw new TypeError(`metadata ${at}: refers back to itself`);
  stack.add(o);
  try {
    if (Array.isArray(o)) return `[${o.map((x, i) => canonical(x, `${at}[${i}]`, stack)).join(',')}]`;
    const parts: string[] = [];
    for (const [k, x] of Object.entries(o)) {
      if (x === undefined) continue; // an absent optional field
      parts.push(`${JSON.stringify(k)}:${canonical(x, at === '' ? k : `${at}.${k}`, stack)}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    stack.delete(o);
  }
}

/**
 * The tier-2 metadata blob for `fields`: compact JSON, keys in the order given, UTF-8, no trailing
 * newline. The same fields always give the same bytes (and so the same hash).
 */
export function buildMetadata(fields: Record<string, unknown>): Buffer {
  return Buffer.from(canonical(fields, '', new Set()), 'utf8');
}

/** A metadata file's bytes exactly as they are on disk (no re-encoding, no newline trimming). */
export function loadMetadataFile(path: string): Buffer {
  return fs.readFileSync(path);
}

/** Lowercase hex SHA-256 of `body`: 64 characters, the form create_token's `hash` takes. */
export function sha256Hex(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

export interface TokenMetadataFields {
  name?: string;
  size?: number | bigint;
  hash?: string;
  url?: string;
}

/**
 * The JSON text the real wallet RPC builds for create_token when `token_metadata_hex` is empty:
 * `{"name":"<name>","size":<size>,"hash":"<hash>","url":"<url>"}`, with the values pasted in
 * **unescaped**, exactly as the server does (so a `"` in `name` yields invalid JSON, which the
 * wallet answers with `Metadata is not valid JSON`). Missing fields take the server's defaults
 * (`""`, `0`).
 */
export function metadataJson(fields: TokenMetadataFields): string {
  const size = fields.size ?? 0;
  return `{"name":"${fields.name ?? ''}","size":${typeof size === 'bigint' ? size.toString() : String(size)},"hash":"${fields.hash ?? ''}","url":"${fields.url ?? ''}"}`;
}

/** Lowercase hex of the UTF-8 bytes of `metadataJson(fields)`: the `token_metadata_hex` form of the same metadata. */
export function metadataHex(fields: TokenMetadataFields): string {
  return Buffer.from(metadataJson(fields), 'utf8').toString('hex');
}

export interface HostedMetadata {
  /** `http://127.0.0.1:<port>/<name>.json` */
  url: string;
  /** Lowercase hex SHA-256 of the bytes served. */
  sha256: string;
  /** Byte length of the bytes served. */
  size: number;
}

export interface MetadataServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /**
   * Serves `body` byte for byte at `<origin>/<name>.json` (hosting a name again replaces it).
   * `contentType` defaults to `application/json`. The bytes are copied: changing `body` later
   * does not change what is served.
   */
  host(name: string, body: Uint8Array, contentType?: string): HostedMetadata;
  /** Stops serving `name`; true if it was hosted. */
  unhost(name: string): boolean;
  /** Stops the server, dropping open connections, and frees the port. Idempotent. */
  close(): Promise<void>;
}

interface Blob {
  body: Buffer;
  contentType: string;
}

/** Starts a metadata server on 127.0.0.1, on a free port. */
export async function startMetadataServer(): Promise<MetadataServer> {
  const blobs = new Map<string, Blob>();
  const server = http.createServer((req, res) => {
    const send = (status: number, text: string, headers: Record<string, string> = {}): void => {
      const body = Buffer.from(text, 'utf8');
      res.writeHead(status, {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Length': String(body.length),
        ...headers,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      return send(400, 'bad request\n');
    }
    const m = /^\/(.+)\.json$/s.exec(pathname);
    const blob = m ? blobs.get(m[1] as string) : undefined;
    if (!blob) return send(404, 'not found\n');
    res.writeHead(200, {
      'Content-Type': blob.contentType,
      'Content-Length': String(blob.body.length),
      'Cache-Control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : blob.body);
  });
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Do not keep the process alive for it alone.
  server.unref();
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;

  return {
    origin,
    port,
    host(name, body, contentType = 'application/json') {
      if (typeof name !== 'string' || name === '' || name.includes('/'))
        throw new TypeError(`metadata name must be a non-empty string without '/': ${JSON.stringify(name)}`);
      if (closing) throw new Error('metadata server is closed');
      const bytes = Buffer.from(body); // a copy
      blobs.set(name, { body: bytes, contentType });
      return { url: `${origin}/${encodeURIComponent(name)}.json`, sha256: sha256Hex(bytes), size: bytes.length };
    },
    unhost(name) {
      return blobs.delete(name);
    },
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) =>
          err && (err as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING' ? reject(err) : resolve(),
        );
        server.closeAllConnections();
        blobs.clear();
      });
      return closing;
    },
  };
}
