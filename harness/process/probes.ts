// Probes of whether a started program answers: over HTTP (its RPC) or TCP, polled with wait-on on a thread of its own
// (probe-thread.ts), one per process, started by the first probe or ahead of it (warmProbes).
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { programFile } from '../common/bundle.js';
import type { FromThread, PollRequest, ToThread } from './probe-thread.js';
import { EARLY_PROBE_THREAD, PROBE_THREAD_OPTIONS } from './probe-thread-early.js';

/** A readiness probe: a named check of whether a program answers yet. */
export interface Probe {
  kind: 'probe';
  /** Used in messages ("waited for <name>") and in Ready.by. */
  name: string;
  /**
   * Resolves true once available; false or an exception mean "not yet": it is called again `everyMs` (default 200)
   * later, until the wait ends and `signal` aborts. It may poll itself (the wait-on probes do, resolving only once
   * available or aborted). `note` records what the last attempt saw, for the timeout's message.
   */
  check: (signal: AbortSignal, note: (what: string) => void) => Promise<boolean>;
  everyMs?: number;
}

/**
 * The poll interval for a program started on this machine and reached over loopback: a refused connection costs next
 * to nothing, and every interval waited after the program answers is added to a testnet's start.
 */
export const LOOPBACK_PROBE_MS = 20;

// The thread's module (its bundle, when fresh: common/bundle.ts) beside this one once built; run from the sources
// (the tests), the build's. ../process/: the same file from the saltnet CLI's bundle, one folder over.
const THREAD_FILE = programFile(
  fileURLToPath(
    new URL(
      import.meta.url.endsWith('.ts') ? '../../dist/harness/process/probe-thread.js' : '../process/probe-thread.js',
      import.meta.url,
    ),
  ),
);

interface Waiting {
  settle: (available: boolean | Error) => void;
  note: (what: string) => void;
}

interface ProbeThread {
  worker: Worker;
  waiting: Map<number, Waiting>;
}

let thread: ProbeThread | undefined;
let nextId = 1;

/** The process's probe thread, started if need be. It keeps the process alive only while a poll waits on it. */
function probeThread(): ProbeThread {
  if (thread) return thread;
  const early = (globalThis as Record<symbol, unknown>)[EARLY_PROBE_THREAD];
  delete (globalThis as Record<symbol, unknown>)[EARLY_PROBE_THREAD];
  // A thread a launcher started (cli/main.ts), unless it has stopped already (its threadId is then -1).
  const worker = early instanceof Worker && early.threadId >= 0 ? early : new Worker(THREAD_FILE, PROBE_THREAD_OPTIONS);
  const t: ProbeThread = { worker, waiting: new Map() };
  worker.on('message', (m: FromThread) => {
    const w = t.waiting.get(m.id);
    if (!w) return;
    if (m.kind === 'status') return w.note(`HTTP ${m.status}`);
    w.settle(m.kind === 'done' ? m.available : new Error(m.message));
  });
  const lost = (err: Error): void => {
    if (thread === t) thread = undefined;
    for (const w of [...t.waiting.values()]) w.settle(err);
  };
  worker.on('error', lost);
  worker.on('exit', (code) => lost(new Error(`the probe thread stopped (exit code ${code})`)));
  // After the listeners: adding a 'message' listener refs the thread again.
  worker.unref();
  thread = t;
  return t;
}

/** Start the probe thread now, so that wait-on is loaded by the time the first probe polls (a testnet's start). */
export function warmProbes(): void {
  probeThread();
}

/** Poll a wait-on resource until it is available (true) or `signal` aborts (false). */
function pollResource(
  request: Omit<PollRequest, 'kind' | 'id'>,
  signal: AbortSignal,
  note: (what: string) => void,
): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  const t = probeThread();
  const id = nextId++;
  return new Promise<boolean>((resolve, reject) => {
    const settle = (available: boolean | Error): void => {
      t.waiting.delete(id);
      signal.removeEventListener('abort', aborted);
      if (t.waiting.size === 0) t.worker.unref();
      if (available instanceof Error) reject(available);
      else resolve(available);
    };
    // The thread stops polling at the end of its slice; nobody waits for it.
    const aborted = (): void => {
      t.worker.postMessage({ kind: 'cancel', id } satisfies ToThread);
      settle(false);
    };
    t.waiting.set(id, { settle, note });
    signal.addEventListener('abort', aborted, { once: true });
    t.worker.ref();
    t.worker.postMessage({ kind: 'poll', id, ...request } satisfies ToThread);
  });
}

export interface HttpProbeOptions {
  name?: string;
  /** HEAD or GET (default GET); epee answers both alike. */
  method?: 'GET' | 'HEAD';
  /** The statuses that mean the RPC answers (default: any 2xx). */
  answers?: readonly number[];
  /** Poll interval (default 200 ms). */
  everyMs?: number;
  /** Per request (default 2000, not scaled: a request that hangs is tried again). */
  requestTimeoutMs?: number;
}

/** A probe that succeeds once `url` answers with a status `answers` accepts (e.g. a daemon's /get_info, 200). */
export function httpProbe(url: string, opts: HttpProbeOptions = {}): Probe {
  const method = opts.method ?? 'GET';
  const everyMs = opts.everyMs ?? 200;
  const resource = method === 'GET' ? url.replace(/^http:/, 'http-get:') : url;
  return {
    kind: 'probe',
    name: opts.name ?? `http ${method} ${url}`,
    everyMs,
    check: (signal, note) => {
      note('no answer');
      const request = { resource, everyMs, requestTimeoutMs: opts.requestTimeoutMs ?? 2000 };
      return pollResource(opts.answers ? { ...request, answers: opts.answers } : request, signal, note);
    },
  };
}

/** A probe that succeeds once something accepts TCP connections on host:port. */
export function tcpProbe(port: number, host = '127.0.0.1', opts: { name?: string; everyMs?: number } = {}): Probe {
  const everyMs = opts.everyMs ?? 200;
  return {
    kind: 'probe',
    name: opts.name ?? `tcp ${host}:${port}`,
    everyMs,
    check: (signal, note) => {
      note('no connection');
      return pollResource({ resource: `tcp:${host}:${port}`, everyMs, requestTimeoutMs: 2000 }, signal, note);
    },
  };
}
