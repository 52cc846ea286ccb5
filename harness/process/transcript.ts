// What a managed program prints, as it prints it: lines (ANSI stripped, secrets redacted) appended to
// its log file, kept in an in-memory tail, given to listeners, and matched by the waits for text
// (an unterminated prompt included, once it has been quiet for a moment).
import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { ProcessExitedError, ReadinessTimeout, type ExitInfo } from './errors.js';
import { LineSplitter, cleanLine, describePattern, matcher, type TextPattern } from './output.js';
import { makeDirs } from '../common/mkdir.js';

export interface WaitForTextOptions {
  /** Deadline (scaled); Infinity waits until the process exits or `signal` aborts. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** How long a partial line must stay unchanged before waits may match it. */
const PARTIAL_QUIET_MS = 25;

interface Waiter {
  test: (line: string) => boolean;
  /**
   * Each splitter's version when the wait began: an unterminated line counts if it changed since, or no earlier wait
   * matched it.
   */
  since: number[];
  resolve: (line: string) => void;
  reject: (err: unknown) => void;
}

export class Transcript {
  private readonly lines: string[] = [];
  private readonly tailMax: number;
  private readonly listeners = new Set<(line: string) => void>();
  private readonly waiters = new Set<Waiter>();
  private readonly splitters: LineSplitter[] = [];
  private quietTimer: NodeJS.Timeout | undefined;
  private logFd: number | undefined;
  private exitInfo: ExitInfo | undefined;

  /** Opens (appends to) `logFile`, creating its folder. */
  constructor(
    private readonly name: string,
    readonly logFile: string,
    private readonly redact: (s: string) => string,
    tailLines = 500,
  ) {
    this.tailMax = Math.max(1, tailLines);
    makeDirs(dirname(logFile));
    // 0600: what a program prints can hold a secret saltnet did not know to redact. A log kept from an older run (a
    // reused workdir) is made 0600 too.
    this.logFd = openSync(logFile, 'a', 0o600);
    fchmodSync(this.logFd, 0o600);
  }

  /** Read `stream` line by line; resolves once it has ended (or failed). */
  read(stream: Readable): Promise<void> {
    return new Promise<void>((done) => {
      const splitter = new LineSplitter((raw) => this.onRawLines(raw));
      this.splitters.push(splitter);
      stream.on('data', (chunk: Buffer | string) => {
        splitter.push(chunk);
        if (splitter.partial) this.partialChanged();
      });
      stream.once('end', () => done());
      stream.once('close', () => done());
      stream.once('error', () => done());
    });
  }

  /** The program has exited and its pipes are drained: the last partial lines count, `lastLine` ends the log. */
  finish(exit: ExitInfo, lastLine: string): void {
    for (const sp of this.splitters) sp.end();
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.writeLog([lastLine]);
    this.closeLog();
    this.exitInfo = exit;
  }

  /** After finish: every wait still open fails with the exit. */
  failWaits(): void {
    const err = this.exitedError('while waiting for output');
    for (const w of [...this.waiters]) w.reject(err);
    this.waiters.clear();
  }

  writeLog(lines: string[]): void {
    if (this.logFd === undefined || lines.length === 0) return;
    try {
      writeSync(this.logFd, lines.join('\n') + '\n');
    } catch {
      this.closeLog(); // disk full or similar: keep running without the log
    }
  }

  closeLog(): void {
    if (this.logFd === undefined) return;
    try {
      closeSync(this.logFd);
    } catch {
      /* already closed */
    }
    this.logFd = undefined;
  }

  private exitedError(during: string): ProcessExitedError {
    return new ProcessExitedError({
      processName: this.name,
      exit: this.exitInfo!,
      tail: this.tail(),
      logFile: this.logFile,
      during,
    });
  }

  private onRawLines(raw: string[]): void {
    const lines = raw.map((l) => this.redact(cleanLine(l)));
    this.writeLog(lines);
    for (const line of lines) {
      this.lines.push(line);
      for (const l of [...this.listeners]) {
        try {
          l(line);
        } catch {
          /* a listener's bug must not stop the output pipeline */
        }
      }
      for (const w of [...this.waiters]) if (w.test(line)) w.resolve(line);
    }
    if (this.lines.length > this.tailMax * 2) this.lines.splice(0, this.lines.length - this.tailMax);
  }

  private partialChanged(): void {
    if (this.waiters.size === 0) return;
    if (this.quietTimer) clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      this.quietTimer = undefined;
      this.splitters.forEach((sp, i) => {
        if (!sp.partial) return;
        const text = this.redact(cleanLine(sp.partial));
        for (const w of [...this.waiters]) {
          if (sp.version <= (w.since[i] ?? 0) && sp.version <= sp.consumed) continue;
          if (w.test(text)) {
            sp.consumed = sp.version;
            w.resolve(text);
          }
        }
      });
    }, PARTIAL_QUIET_MS);
  }

  tail(n?: number): string[] {
    const start = Math.max(0, this.lines.length - Math.min(n ?? this.tailMax, this.tailMax));
    return this.lines.slice(start);
  }

  onLine(listener: (line: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** ManagedProcess.waitForText with a deadline already scaled. */
  waitFor(pattern: TextPattern | readonly TextPattern[], opts: WaitForTextOptions): Promise<string> {
    const test = matcher(pattern);
    const started = performance.now();
    const appeared = `before ${describePattern(pattern)} appeared`;
    return new Promise<string>((resolvePromise, rejectPromise) => {
      if (opts.signal?.aborted) return rejectPromise(opts.signal.reason);
      if (this.exitInfo) return rejectPromise(this.exitedError(appeared));
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => waiter.reject(opts.signal?.reason);
      const finish = (): void => {
        this.waiters.delete(waiter);
        if (timer) clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        test,
        since: this.splitters.map((sp) => sp.version),
        resolve: (line) => {
          finish();
          resolvePromise(line);
        },
        reject: (err) => {
          finish();
          rejectPromise(err instanceof ProcessExitedError ? this.exitedError(appeared) : err);
        },
      };
      this.waiters.add(waiter);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      // An unterminated line already there (a prompt no earlier wait matched) may be what we wait for.
      if (this.splitters.some((sp) => sp.partial && sp.version > sp.consumed)) this.partialChanged();
      if (Number.isFinite(opts.timeoutMs))
        timer = setTimeout(() => waiter.reject(this.timedOut(pattern, started)), opts.timeoutMs);
    });
  }

  private timedOut(pattern: TextPattern | readonly TextPattern[], started: number): ReadinessTimeout {
    const waitedMs = Math.round(performance.now() - started);
    const waitingFor = describePattern(pattern);
    return new ReadinessTimeout({
      processName: this.name,
      waitedMs,
      waitingFor,
      tail: this.tail(),
      logFile: this.logFile,
      summary: `${this.name} did not print ${waitingFor} within ${waitedMs} ms`,
    });
  }
}
