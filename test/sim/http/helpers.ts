// Shared helpers for the simulator HTTP layer tests.
import { connect } from 'node:net';
import { RawNumber, type Parsed } from '../../../harness/sim/http/json-values.js';

/** Parsed -> plain JS for comparisons: numbers as JS numbers (or bigints beyond 2^53). */
export function plain(v: Parsed | undefined): unknown {
  if (v instanceof RawNumber) {
    const x = v.value;
    if (typeof x === 'bigint')
      return x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : x;
    return x;
  }
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, plain(e)]));
  return v;
}

export interface RawExchange {
  /** Everything the server sent. */
  data: Buffer;
  /** Whether the server closed the connection (rather than us after the timeout). */
  closedByServer: boolean;
}

/**
 * Write `chunks` to a fresh TCP connection (one after the other) and collect what comes back
 * until the server closes the connection or `idleMs` pass without data.
 */
export function rawExchange(port: number, chunks: Array<string | Buffer>, idleMs = 150): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (closedByServer: boolean): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(received), closedByServer });
    };
    const arm = (): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => finish(false), idleMs);
    };
    socket.on('connect', () => {
      for (const c of chunks) socket.write(c);
      arm();
    });
    socket.on('data', (d: Buffer) => {
      received.push(d);
      arm();
    });
    socket.on('error', () => finish(true));
    socket.on('close', () => finish(true));
  });
}

/** Split a raw HTTP/1.1 byte stream into responses (Content-Length framed). */
export function splitResponses(
  data: Buffer,
): Array<{ status: number; statusText: string; headers: Record<string, string[]>; body: string }> {
  const out: Array<{ status: number; statusText: string; headers: Record<string, string[]>; body: string }> = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const head = rest.subarray(0, end).toString('latin1').split('\r\n');
    const statusLine = head.shift() ?? '';
    const m = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
    if (!m) break;
    const headers: Record<string, string[]> = {};
    for (const line of head) {
      const i = line.indexOf(':');
      const k = line.slice(0, i).trim().toLowerCase();
      (headers[k] ??= []).push(line.slice(i + 1).trim());
    }
    const len = Number(headers['content-length']?.[0] ?? '0');
    out.push({
      status: Number(m[1]),
      statusText: m[2] ?? '',
      headers,
      body: rest.subarray(end + 4, end + 4 + len).toString('utf8'),
    });
    rest = rest.subarray(end + 4 + len);
  }
  return out;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A request with a Content-Length body, as raw bytes. */
export function httpRequest(
  method: string,
  path: string,
  body: string | Buffer = '',
  extraHeaders: string[] = [],
): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Length: ${b.length}`,
    ...extraHeaders,
    '',
    '',
  ].join('\r\n');
  return Buffer.concat([Buffer.from(head, 'latin1'), b]);
}
