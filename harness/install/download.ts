// Getting a release archive onto disk: from an HTTP(S) base URL (GitHub releases by default, or a
// --mirror) with undici's request API, or from a local folder (an offline mirror). The SHA-256 is
// computed while the bytes stream to the file, so the archive is read once; a size limit and
// connect/headers/idle timeouts keep a bad server from filling the disk or hanging the command,
// and a least average rate (the pace: pace.ts) ends a server that sends a byte now and then.
// Redirects are followed here (at most MAX_REDIRECTS), so a loop is named as one, with its URLs.
//
// The body is written with writeSync from its 'data' events, so the HTTP parser never pauses for
// backpressure: undici 7 (the last line that runs on Node 20) asserts `!this.paused` when a server
// that closes its connection after the response (HTTP/1.0, `Connection: close`, e.g. `python3 -m
// http.server` as a mirror) sends its FIN while the parser is paused, and that AssertionError is
// thrown from a socket handler where nothing can catch it (nodejs/undici#5360, fixed in undici 8).
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, createWriteStream, existsSync, openSync, writeSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { resolve } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import pRetry from 'p-retry';
import { Agent, request, type Dispatcher } from 'undici';
import { scaled } from '../common/timeouts.js';
import { InstallError } from './errors.js';
import { watchTransfer, type Pace } from './pace.js';

export { DEFAULT_PACE, type Pace } from './pace.js';

export const DEFAULT_BASE_URL = 'https://github.com/salvium/salvium/releases/download';
/** Salvium's archives are ~100 MiB; anything far larger is not a release archive. */
export const DEFAULT_MAX_BYTES = 1024 * 2 ** 20;

/** Where one archive comes from. */
export type ArchiveSource = { kind: 'http'; url: string } | { kind: 'file'; dir: string; candidates: string[] };

/**
 * The source of `<version>/<asset>` under a base: GitHub's layout `<base>/<version>/<asset>`. A
 * base that is a folder (a path or file: URL) is an offline mirror, where the archive may sit at
 * `<folder>/<version>/<asset>` or directly at `<folder>/<asset>`.
 */
export function archiveSource(base: string, version: string, asset: string): ArchiveSource {
  if (/^https?:\/\//i.test(base))
    return {
      kind: 'http',
      url: `${base.replace(/\/+$/, '')}/${encodeURIComponent(version)}/${encodeURIComponent(asset)}`,
    };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(base) && !/^file:/i.test(base)) {
    throw new InstallError('BAD_OPTIONS', `--mirror ${base}: use an http(s):// URL or a local folder`);
  }
  const dir = resolve(/^file:/i.test(base) ? fileURLToPath(base) : base);
  return { kind: 'file', dir, candidates: [resolve(dir, version, asset), resolve(dir, asset)] };
}

/** The URL or path of a source, for messages. */
export function describeSource(s: ArchiveSource): string {
  return s.kind === 'http' ? s.url : (s.candidates[0] ?? s.dir);
}

/** At most this many redirects are followed (GitHub sends one, to its download host). */
export const MAX_REDIRECTS = 5;

export interface DownloadOptions {
  maxBytes?: number;
  /** For messages: what is being downloaded ("Salvium v1.1.3c (salvium-….zip)"). */
  what?: string;
  pace?: Pace;
  /** Progress lines while downloading. */
  log?: (line: string) => void;
  /** Stops the download (and its retries); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface Downloaded {
  /** The URL or path actually read. */
  from: string;
  sha256: string;
  size: number;
}

/** A failed attempt, and whether another attempt may succeed. */
class AttemptError extends InstallError {
  constructor(
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super('DOWNLOAD_FAILED', message, options);
  }
}

const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

const PLAIN: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ENETUNREACH: 'network unreachable',
  EHOSTUNREACH: 'host unreachable',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'the download stalled',
  UND_ERR_SOCKET: 'the connection closed early',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'the download was cut short',
};

/** The errno/undici code under fetch's generic "fetch failed" / "terminated" errors. */
function rootCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 8; depth++) {
    if (e instanceof AggregateError && e.errors.length) e = e.errors[0];
    const code = typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
    if (code) return code;
    e = typeof e === 'object' && e !== null && 'cause' in e ? e.cause : undefined;
  }
  return undefined;
}

function networkError(url: string, err: unknown, signal?: AbortSignal): Error {
  if (signal?.aborted) return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
  if (err instanceof AttemptError) return err;
  const code = rootCode(err);
  const what = code ? `${PLAIN[code] ?? 'network error'} (${code})` : err instanceof Error ? err.message : String(err);
  return new AttemptError(`could not download ${url}: ${what}`, code !== undefined && RETRYABLE_CODES.has(code), {
    cause: err,
  });
}

function newAgent(): Agent {
  return new Agent({
    connect: { timeout: scaled(15_000) },
    headersTimeout: scaled(30_000),
    bodyTimeout: scaled(60_000),
  });
}

/** Counts and hashes what passes through, and stops at `max` bytes. */
function meter(
  max: number,
  onTooLarge: () => Error,
): { stream: Transform; result: () => { sha256: string; size: number } } {
  const hash = createHash('sha256');
  let size = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > max) return cb(onTooLarge());
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  return { stream, result: () => ({ sha256: hash.digest('hex'), size }) };
}

const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);

/**
 * GET `url`, following redirects (GitHub answers with one) up to MAX_REDIRECTS; a loop, a redirect without a Location
 * or to something other than http(s) fails naming the URLs. A failure to connect is an AttemptError naming the URL.
 */
async function get(url: string, agent: Agent, signal?: AbortSignal): Promise<Dispatcher.ResponseData> {
  const chain: string[] = [url];
  const fail = (why: string): AttemptError => new AttemptError(`could not download ${url}: ${why}`, false);
  for (;;) {
    const at = chain[chain.length - 1]!;
    let res: Dispatcher.ResponseData;
    try {
      res = await request(at, {
        dispatcher: agent,
        method: 'GET',
        headers: { 'user-agent': 'saltnet-install' },
        // the first chunks may arrive before the 'data' listener is attached: room for them, so no pause
        highWaterMark: 4 * 2 ** 20,
        signal,
      });
    } catch (err) {
      throw networkError(url, err, signal);
    }
    if (!REDIRECT_STATUS.has(res.statusCode)) return res;
    await res.body.dump().catch(() => {});
    const status = `HTTP ${res.statusCode} ${STATUS_CODES[res.statusCode] ?? ''}`.trim();
    const via = chain.length > 1 ? ` (redirected ${chain.join(' → ')})` : '';
    const location = [res.headers.location].flat()[0];
    if (!location) throw fail(`${at} answered ${status} without a Location to go to${via}`);
    let next: URL;
    try {
      next = new URL(location, at);
    } catch {
      throw fail(`${at} answered ${status} to ${JSON.stringify(location)}, which is not a URL${via}`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:')
      throw fail(`${at} answered ${status} to ${next.href}, which is not http(s)${via}`);
    const seen = chain.findIndex((u) => new URL(u).href === next.href);
    if (seen >= 0)
      throw fail(
        `a redirect loop: ${[...chain.slice(seen), next.href].join(' → ')} (${status}); ` +
          'the server sends the download round in a circle: check the URL, or use another --mirror',
      );
    chain.push(next.href);
    if (chain.length > MAX_REDIRECTS + 1)
      throw fail(
        `more than ${MAX_REDIRECTS} redirects: ${chain.join(' → ')} (${status}); check the URL, or use another --mirror`,
      );
  }
}

/** HTTP status → an error (4xx fails at once, 5xx and 429 may be retried), after the body is dropped. */
async function statusError(url: string, res: Dispatcher.ResponseData): Promise<AttemptError> {
  await res.body.dump().catch(() => {});
  const retryable = res.statusCode >= 500 || res.statusCode === 429;
  const text = STATUS_CODES[res.statusCode] ?? '';
  return new AttemptError(`could not download ${url}: HTTP ${res.statusCode} ${text}`.trim(), retryable);
}

/**
 * Write `body` to `dest` as it arrives (never paused: see the top), hashing it and stopping at `max` bytes, below the
 * pace (pace.ts, which also logs progress lines), or when `signal` aborts (rejecting with its reason).
 */
function save(
  body: Readable,
  dest: string,
  max: number,
  o: { url: string; total?: number; pace?: Pace; log?: (line: string) => void; signal?: AbortSignal },
  onError: (err: unknown) => Error,
) {
  return new Promise<{ sha256: string; size: number }>((resolvePromise, reject) => {
    const fd = openSync(dest, 'w', 0o600);
    const hash = createHash('sha256');
    let got = 0;
    let done = false;
    const finish = (err?: unknown): void => {
      if (done) return;
      done = true;
      watch.stop();
      o.signal?.removeEventListener('abort', onAbort);
      closeSync(fd);
      if (err === undefined) return resolvePromise({ sha256: hash.digest('hex'), size: got });
      discard(body);
      reject(o.signal?.aborted ? o.signal.reason : onError(err));
    };
    const onAbort = (): void => finish(o.signal?.reason);
    const watch = watchTransfer(o, (message) => finish(new AttemptError(message, false)));
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    body.on('data', (chunk: Buffer) => {
      if (done) return;
      got += chunk.length;
      watch.add(chunk.length);
      if (got > max) return finish(new RangeError('too large'));
      hash.update(chunk);
      try {
        for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at);
      } catch (err) {
        finish(err);
      }
    });
    body.once('end', () => finish());
    body.once('error', (err) => finish(err));
  });
}

/**
 * A body left unread is destroyed; undici then emits `RequestAbortedError` on it, which with no listener would be an
 * uncaught exception after the refusal was already reported.
 */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function httpOnce(url: string, dest: string, maxBytes: number, o: DownloadOptions): Promise<Downloaded> {
  const agent = newAgent();
  try {
    const res = await get(url, agent, o.signal);
    if (res.statusCode < 200 || res.statusCode > 299) throw await statusError(url, res);
    const tooLarge = (): AttemptError =>
      new AttemptError(
        `refusing ${url}: it is larger than ${maxBytes} bytes, too large for a Salvium release archive`,
        false,
      );
    const announced = Number(res.headers['content-length'] ?? NaN);
    if (announced > maxBytes) {
      discard(res.body);
      throw tooLarge();
    }
    const total = Number.isFinite(announced) ? announced : undefined;
    const saved = await save(
      res.body,
      dest,
      maxBytes,
      { url, total, pace: o.pace, log: o.log, signal: o.signal },
      (err) => (err instanceof RangeError ? tooLarge() : networkError(url, err)),
    );
    return { from: url, ...saved };
  } finally {
    await agent.close().catch(() => {});
  }
}

/**
 * Download (or copy) an archive to `dest`, returning its SHA-256 and size. Transient network
 * failures (a reset, a stall, HTTP 5xx) are retried twice; a refused connection, an unknown host,
 * HTTP 4xx, a redirect loop and a download below the pace fail at once, since retrying cannot help.
 */
export async function downloadTo(source: ArchiveSource, dest: string, opts: DownloadOptions = {}): Promise<Downloaded> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  if (source.kind === 'file') {
    const path = source.candidates.find((p) => existsSync(p));
    if (!path)
      throw new InstallError(
        'DOWNLOAD_FAILED',
        `${opts.what ?? 'the archive'} is not in the mirror folder ${source.dir}: looked for ${source.candidates.join(' and ')}`,
      );
    const m = meter(
      maxBytes,
      () => new InstallError('DOWNLOAD_FAILED', `refusing ${path}: it is larger than ${maxBytes} bytes`),
    );
    const sink = createWriteStream(dest, { mode: 0o600 });
    await pipeline(createReadStream(path), m.stream, sink, { signal: opts.signal }).catch((err: unknown) => {
      throw opts.signal?.aborted ? opts.signal.reason : err;
    });
    return { from: path, ...m.result() };
  }
  return pRetry(() => httpOnce(source.url, dest, maxBytes, opts), {
    retries: 2,
    minTimeout: 1000,
    signal: opts.signal,
    shouldRetry: ({ error }) => !opts.signal?.aborted && error instanceof AttemptError && error.retryable,
  });
}

/** A small text file (a hashes file) over HTTP(S). */
export async function fetchText(url: string, opts: { maxBytes: number }): Promise<string> {
  const agent = newAgent();
  try {
    const res = await get(url, agent);
    if (res.statusCode < 200 || res.statusCode > 299) {
      const err = await statusError(url, res);
      throw new InstallError('DOWNLOAD_FAILED', err.message);
    }
    const buf = Buffer.from(await res.body.arrayBuffer());
    if (buf.length > opts.maxBytes)
      throw new InstallError(
        'DOWNLOAD_FAILED',
        `refusing ${url}: larger than ${opts.maxBytes} bytes, not a hashes file`,
      );
    return buf.toString('utf8');
  } catch (err) {
    if (err instanceof InstallError) throw err;
    throw networkError(url, err);
  } finally {
    await agent.close().catch(() => {});
  }
}
