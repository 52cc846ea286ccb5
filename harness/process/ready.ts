// Knowing when a started program is ready: several strategies run side by side under one deadline
// and the first that succeeds wins; if the program exits first we fail at once, with its exit
// status and last lines, instead of waiting for the deadline.
import { connect } from 'node:net';
import { request } from 'undici';
import { ProcessExitedError, ReadinessTimeout } from './errors.js';
import { waitForTextUnscaled, type ManagedProcess, type TextPattern } from './managed.js';
import { scaled } from '../common/timeouts.js';

export type ReadyStrategy =
  /** Any line (or quiet unterminated prompt) matching any pattern; lines already in the tail count. */
  | { kind: 'log'; patterns: TextPattern[] }
  /** `check` resolving true, polled every `everyMs` (default 200); exceptions and false mean "not yet". */
  | { kind: 'probe'; name: string; check: (signal: AbortSignal) => Promise<boolean>; everyMs?: number };

export interface Ready {
  /** 'log: <pattern>' or the probe's name. */
  by: string;
  ms: number;
}

/** Sleep `ms`, or less if `signal` aborts (its listener is removed either way). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function patternText(p: TextPattern): string {
  return typeof p === 'string' ? JSON.stringify(p) : String(p);
}

function lineMatches(p: TextPattern, line: string): boolean {
  if (typeof p === 'string') return line.includes(p);
  return new RegExp(p.source, p.flags.replace(/[gy]/g, '')).test(line);
}

function describe(s: ReadyStrategy): string {
  return s.kind === 'log' ? `log ${s.patterns.map(patternText).join(' or ')}` : `probe ${s.name}`;
}

/** Wait until `proc` is ready by the first strategy that succeeds, under one deadline (timeoutMs, scaled here). */
export async function waitUntilReady(
  proc: ManagedProcess,
  strategies: ReadyStrategy[],
  opts: { timeoutMs: number },
): Promise<Ready> {
  if (strategies.length === 0) throw new Error('waitUntilReady: no strategy given');
  for (const s of strategies)
    if (s.kind === 'log' && s.patterns.length === 0)
      throw new Error('waitUntilReady: a log strategy needs at least one pattern');
  if (!proc.running) {
    const exit = await proc.exited;
    throw new ProcessExitedError({
      processName: proc.name,
      exit,
      tail: proc.tail(),
      logFile: proc.logFile,
      during: 'before waitUntilReady was called',
    });
  }
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const deadline = scaled(opts.timeoutMs);
  const ac = new AbortController();
  const lastErrors = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;

  try {
    return await new Promise<Ready>((resolve, reject) => {
      const win = (by: string): void => resolve({ by, ms: elapsed() });

      void proc.exited.then((exit) => {
        if (ac.signal.aborted) return;
        reject(
          new ProcessExitedError({
            processName: proc.name,
            exit,
            tail: proc.tail(),
            logFile: proc.logFile,
            during: `before it was ready (after ${elapsed()} ms)`,
          }),
        );
      });
      timer = setTimeout(() => {
        const waitingFor = strategies
          .map((s) => {
            const last = s.kind === 'probe' ? lastErrors.get(s.name) : undefined;
            return describe(s) + (last ? ` (last: ${last})` : '');
          })
          .join(', ');
        reject(
          new ReadinessTimeout({
            processName: proc.name,
            waitedMs: elapsed(),
            waitingFor,
            tail: proc.tail(),
            logFile: proc.logFile,
          }),
        );
      }, deadline);

      for (const s of strategies) {
        if (s.kind === 'log') {
          const seen = proc.tail().find((line) => s.patterns.some((p) => lineMatches(p, line)));
          if (seen !== undefined) {
            win(`log: ${patternText(s.patterns.find((p) => lineMatches(p, seen))!)}`);
            continue;
          }
          waitForTextUnscaled(proc, s.patterns, { timeoutMs: Infinity, signal: ac.signal }).then(
            (line) => win(`log: ${patternText(s.patterns.find((p) => lineMatches(p, line)) ?? s.patterns[0]!)}`),
            () => undefined, // exit and deadline are reported above
          );
        } else {
          void (async () => {
            const every = Math.max(10, s.everyMs ?? 200);
            while (!ac.signal.aborted) {
              let ok = false;
              try {
                ok = (await s.check(ac.signal)) === true;
                if (!ok) lastErrors.set(s.name, 'not ready');
              } catch (err) {
                lastErrors.set(s.name, err instanceof Error ? err.message : String(err));
              }
              if (ac.signal.aborted) return;
              if (ok) return win(s.name);
              await pause(every, ac.signal);
            }
          })();
        }
      }
    });
  } finally {
    clearTimeout(timer);
    ac.abort(new Error('waitUntilReady finished'));
  }
}

/** A probe that succeeds once something accepts TCP connections on host:port. */
export function tcpProbe(
  port: number,
  host = '127.0.0.1',
  opts: { name?: string; everyMs?: number } = {},
): ReadyStrategy {
  return {
    kind: 'probe',
    name: opts.name ?? `tcp ${host}:${port}`,
    ...(opts.everyMs ? { everyMs: opts.everyMs } : {}),
    check: () =>
      new Promise<boolean>((resolve, reject) => {
        const sock = connect({ port, host });
        sock.setTimeout(2000);
        sock.once('connect', () => (sock.destroy(), resolve(true)));
        sock.once('timeout', () => (sock.destroy(), reject(new Error('connect timed out'))));
        sock.once('error', (err) => (sock.destroy(), reject(err)));
      }),
  };
}

export interface HttpProbeOptions {
  name?: string;
  method?: 'GET' | 'POST';
  /** JSON-encoded when not a string. */
  body?: unknown;
  /** Decides from the answer (default: status 200). */
  ok?: (status: number, body: string) => boolean;
  everyMs?: number;
  /** Per request (default 2000, not scaled: a probe that hangs is retried). */
  requestTimeoutMs?: number;
}

/** A probe that succeeds once `url` answers as `ok` says (e.g. a daemon's /get_info with status OK). */
export function httpProbe(url: string, opts: HttpProbeOptions = {}): ReadyStrategy {
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  const timeout = opts.requestTimeoutMs ?? 2000;
  return {
    kind: 'probe',
    name: opts.name ?? `http ${method} ${url}`,
    ...(opts.everyMs ? { everyMs: opts.everyMs } : {}),
    check: async (signal) => {
      const res = await request(url, {
        method,
        signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
        ...(opts.body === undefined
          ? {}
          : {
              body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
              headers: { 'content-type': 'application/json' },
            }),
      });
      const text = await res.body.text();
      if (opts.ok) return opts.ok(res.statusCode, text);
      if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
      return true;
    },
  };
}
