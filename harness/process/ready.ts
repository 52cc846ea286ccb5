// Knowing when a started program is ready: every condition given holds — its ready line has appeared
// (where it has one) and its RPC answers (probes.ts) — under one deadline. If the program exits
// first we fail at once, with its exit status and last lines, instead of waiting for the deadline.
import { ProcessExitedError, ReadinessTimeout, type ExitInfo } from './errors.js';
import { waitForTextUnscaled, type ManagedProcess, type TextPattern } from './managed.js';
import type { Probe } from './probes.js';
import { scaled } from '../common/timeouts.js';

export type ReadyStrategy =
  /** Any line (or quiet unterminated prompt) matching any pattern; lines already in the tail count. */
  | { kind: 'log'; patterns: TextPattern[] }
  /** A probe (probes.ts: HTTP, TCP, or a check of one's own). */
  | Probe;

export interface Ready {
  /** What held, in the order given, joined by " and ": 'log: <pattern>' or a probe's name. */
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

/** Resolves with 'log: <pattern>' once a line matches; stays pending otherwise (the caller reports the rest). */
async function logSeen(proc: ManagedProcess, patterns: TextPattern[], signal: AbortSignal): Promise<string> {
  const which = (line: string): string =>
    `log: ${patternText(patterns.find((p) => lineMatches(p, line)) ?? patterns[0]!)}`;
  const seen = proc.tail().find((line) => patterns.some((p) => lineMatches(p, line)));
  if (seen !== undefined) return which(seen);
  const line = await waitForTextUnscaled(proc, patterns, { timeoutMs: Infinity, signal }).catch(() => undefined);
  return line === undefined ? new Promise<string>(() => undefined) : which(line);
}

/** Resolves with the probe's name once its check succeeds; stays pending until then. */
async function probeAnswers(s: Probe, signal: AbortSignal, last: Map<string, string>): Promise<string> {
  let noted: boolean;
  const note = (what: string): void => {
    noted = true;
    last.set(s.name, what);
  };
  const every = Math.max(10, s.everyMs ?? 200);
  while (!signal.aborted) {
    noted = false;
    try {
      if ((await s.check(signal, note)) === true && !signal.aborted) return s.name;
      if (!noted) note('not ready');
    } catch (err) {
      note(err instanceof Error ? err.message : String(err));
    }
    await pause(every, signal);
  }
  return new Promise<string>(() => undefined);
}

function checkStrategies(strategies: ReadyStrategy[]): void {
  if (strategies.length === 0) throw new Error('waitUntilReady: no strategy given');
  for (const s of strategies)
    if (s.kind === 'log' && s.patterns.length === 0)
      throw new Error('waitUntilReady: a log strategy needs at least one pattern');
}

/**
 * Wait until `proc` is ready: every strategy holds (say, its ready line has appeared and its RPC answers), under one
 * deadline (timeoutMs, scaled here).
 */
export async function waitUntilReady(
  proc: ManagedProcess,
  strategies: ReadyStrategy[],
  opts: { timeoutMs: number },
): Promise<Ready> {
  checkStrategies(strategies);
  const exited = (exit: ExitInfo, during: string): ProcessExitedError =>
    new ProcessExitedError({ processName: proc.name, exit, tail: proc.tail(), logFile: proc.logFile, during });
  if (!proc.running) throw exited(await proc.exited, 'before waitUntilReady was called');
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  const ac = new AbortController();
  const held = new Set<ReadyStrategy>();
  const last = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = (): ReadinessTimeout => {
    const waitingFor = strategies
      .filter((s) => !held.has(s))
      .map((s) => describe(s) + (s.kind === 'probe' && last.has(s.name) ? ` (last: ${last.get(s.name)})` : ''))
      .join(', ');
    return new ReadinessTimeout({
      processName: proc.name,
      waitedMs: elapsed(),
      waitingFor,
      tail: proc.tail(),
      logFile: proc.logFile,
    });
  };
  const all = Promise.all(
    strategies.map(async (s) => {
      const by = await (s.kind === 'log' ? logSeen(proc, s.patterns, ac.signal) : probeAnswers(s, ac.signal, last));
      held.add(s);
      return by;
    }),
  );
  const failed = new Promise<never>((_, reject) => {
    void proc.exited.then((exit) => reject(exited(exit, `before it was ready (after ${elapsed()} ms)`)));
    timer = setTimeout(() => reject(timedOut()), scaled(opts.timeoutMs));
  });
  failed.catch(() => undefined); // settled after a win too: nobody listens then
  try {
    return { by: (await Promise.race([all, failed])).join(' and '), ms: elapsed() };
  } finally {
    clearTimeout(timer);
    ac.abort(new Error('waitUntilReady finished'));
  }
}
