// One program started by the harness: its output split into lines (ANSI stripped, secrets
// redacted) that go to a log file, an in-memory tail and listeners; text waits (prompts without a
// newline included); stdin; and a stop that always ends with the process gone.
//
// Every program is spawned detached, i.e. as the leader of its own process group: a Ctrl-C in the
// terminal reaches the harness only, which then stops its programs in order, and a signal to the
// group reaches grandchildren even after their parent died.
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { execa } from 'execa';
import { ProcessExitedError, ProcessStartError, ReadinessTimeout, describeExit, type ExitInfo } from './errors.js';
import { executableError, isDirectory } from './executable.js';
import { killTree, signal, signalGroup } from './kill.js';
import { LineSplitter, cleanLine, describePattern, matcher } from './output.js';
import { formatCommandLine, makeRedactor } from '../common/redact.js';
import { scaled } from '../common/timeouts.js';

export type { ExitInfo } from './errors.js';

export type {
  ManagedProcess,
  ManagedProcessOptions,
  StopOptions,
  TextPattern,
  WaitForTextOptions,
} from './process-types.js';
import type {
  ManagedProcess,
  ManagedProcessOptions,
  StopOptions,
  TextPattern,
  WaitForTextOptions,
} from './process-types.js';

/** How long a partial line must stay unchanged before waits may match it. */
const PARTIAL_QUIET_MS = 25;
/** After exit, how long to wait for the pipes to drain (a surviving grandchild may hold them). */
const DRAIN_MS = 1000;

// Processes alive in this harness: killed (SIGKILL, with their groups) if the harness exits
// without stopping them, e.g. process.exit() from an error path.
const live = new Map<number, ManagedProcessImpl>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' only (not signal-exit): see installExitHook in supervisor.ts.
  process.on('exit', () => {
    for (const pid of live.keys()) {
      signalGroup(pid, 'SIGKILL');
      signal(pid, 'SIGKILL');
    }
  });
}

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

/** Spawn a program as the leader of its own process group, its output piped, nothing buffered. */
function spawnDetached(opts: ManagedProcessOptions, env: NodeJS.ProcessEnv) {
  const child = execa(opts.command, opts.args, {
    env,
    extendEnv: false,
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
    stdin: opts.stdin ?? 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    detached: true,
    cleanup: false,
    forceKillAfterDelay: false,
    stripFinalNewline: false,
    windowsHide: true,
  });
  // The result promise never matters (exit comes from the 'exit' event); keep it from rejecting loudly.
  child.then(undefined, () => undefined);
  return child;
}

class ManagedProcessImpl implements ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly commandLine: string;
  readonly logFile: string;
  readonly exited: Promise<ExitInfo>;
  exitInfo: ExitInfo | undefined;

  private alive = true;
  private stopRequested = false;
  private stopPromise: Promise<ExitInfo> | undefined;
  private readonly lines: string[] = [];
  private readonly tailMax: number;
  private readonly listeners = new Set<(line: string) => void>();
  private readonly waiters = new Set<Waiter>();
  private readonly redactFn: (s: string) => string;
  private readonly splitters: LineSplitter[] = [];
  private quietTimer: NodeJS.Timeout | undefined;
  private logFd: number | undefined;
  private readonly stdinStream: NodeJS.WritableStream | null;
  private readonly defaults: StopOptions;

  constructor(opts: ManagedProcessOptions) {
    this.name = opts.name;
    this.logFile = opts.logFile;
    this.defaults = opts.stop ?? {};
    this.tailMax = Math.max(1, opts.tailLines ?? 500);
    const secrets = (opts.secrets ?? []).filter((s) => s.length > 0);
    this.redactFn = makeRedactor(secrets);
    this.commandLine = formatCommandLine(opts.command, opts.args, secrets);

    const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env, TERM: 'dumb' };
    if (opts.cwd !== undefined && !isDirectory(opts.cwd)) {
      throw new ProcessStartError({
        processName: opts.name,
        path: this.redactFn(opts.cwd),
        code: 'ENOENT',
        reason: '(its working directory) is not a directory',
      });
    }
    const bad = executableError(opts.name, opts.command, opts.cwd, env, this.redactFn);
    if (bad) throw bad;

    mkdirSync(dirname(opts.logFile), { recursive: true });
    this.logFd = openSync(opts.logFile, 'a');
    const child = spawnDetached(opts, env);
    if (child.pid === undefined) {
      this.closeLog();
      // Found and executable a moment ago, yet spawn failed: report what we know.
      throw new ProcessStartError({
        processName: opts.name,
        path: this.redactFn(opts.command),
        code: 'ESPAWN',
        reason: 'could not be started',
      });
    }
    this.pid = child.pid;
    this.stdinStream = child.stdin;
    child.stdin?.on('error', () => undefined); // EPIPE once the program has gone
    this.writeLog([
      `=== saltnet ${new Date().toISOString()} start ${this.name} (pid ${this.pid}): ${this.commandLine}`,
    ]);
    live.set(this.pid, this);
    installExitHook();

    const streams = [child.stdout, child.stderr].filter((s): s is NonNullable<typeof s> => s !== null);
    const drained = streams.map(
      (s) =>
        new Promise<void>((done) => {
          const splitter = new LineSplitter((raw) => this.onRawLines(raw));
          this.splitters.push(splitter);
          s.on('data', (chunk: Buffer | string) => {
            splitter.push(chunk);
            if (splitter.partial) this.partialChanged();
          });
          s.once('end', () => done());
          s.once('close', () => done());
          s.once('error', () => done());
        }),
    );

    this.exited = this.watchExit(child, streams, drained);
  }

  /** The exit: noticed at once, the process group killed, the pipes drained (for a while), waits failed. */
  private watchExit(
    child: ReturnType<typeof spawnDetached>,
    streams: Readable[],
    drained: Promise<void>[],
  ): Promise<ExitInfo> {
    return new Promise<ExitInfo>((resolveExit) => {
      let finished = false;
      const onExit = (code: number | null, sig: NodeJS.Signals | null): void => {
        if (finished) return;
        finished = true;
        this.alive = false;
        live.delete(this.pid);
        // Whatever is left of its process group (orphaned grandchildren) goes with it.
        signalGroup(this.pid, 'SIGKILL');
        const info: ExitInfo = { code, signal: sig, expected: this.stopRequested };
        let drainTimer: NodeJS.Timeout | undefined;
        void Promise.race([
          Promise.all(drained),
          new Promise<void>((r) => (drainTimer = setTimeout(r, DRAIN_MS))),
        ]).then(() => {
          clearTimeout(drainTimer);
          for (const s of streams) s.destroy();
          for (const sp of this.splitters) sp.end();
          if (this.quietTimer) clearTimeout(this.quietTimer);
          this.writeLog([
            `=== saltnet ${new Date().toISOString()} ${this.name} (pid ${this.pid}) ${describeExit(info)}${info.expected ? ' (stopped by saltnet)' : ''}`,
          ]);
          this.closeLog();
          this.exitInfo = info;
          resolveExit(info);
          const err = new ProcessExitedError({
            processName: this.name,
            exit: info,
            tail: this.tail(),
            logFile: this.logFile,
            during: 'while waiting for output',
          });
          for (const w of [...this.waiters]) w.reject(err);
          this.waiters.clear();
        });
      };
      child.once('exit', onExit);
      // Spawn failures are caught above (no pid); we never use child.kill(): nothing else to handle.
      child.on('error', () => undefined);
    });
  }

  get running(): boolean {
    return this.alive;
  }

  private writeLog(lines: string[]): void {
    if (this.logFd === undefined || lines.length === 0) return;
    try {
      writeSync(this.logFd, lines.join('\n') + '\n');
    } catch {
      this.closeLog(); // disk full or similar: keep running without the log
    }
  }

  private closeLog(): void {
    if (this.logFd === undefined) return;
    try {
      closeSync(this.logFd);
    } catch {
      /* already closed */
    }
    this.logFd = undefined;
  }

  private onRawLines(raw: string[]): void {
    const lines = raw.map((l) => this.redactFn(cleanLine(l)));
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
        const text = this.redactFn(cleanLine(sp.partial));
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

  output(): string {
    return this.tail().join('\n');
  }

  onLine(listener: (line: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  waitForText(pattern: TextPattern | readonly TextPattern[], opts: WaitForTextOptions): Promise<string> {
    return this.waitForTextAbsolute(pattern, { ...opts, timeoutMs: scaled(opts.timeoutMs) });
  }

  /** waitForText with an already scaled deadline (for waitUntilReady). */
  waitForTextAbsolute(pattern: TextPattern | readonly TextPattern[], opts: WaitForTextOptions): Promise<string> {
    const test = matcher(pattern);
    const started = performance.now();
    return new Promise<string>((resolvePromise, rejectPromise) => {
      if (opts.signal?.aborted) return rejectPromise(opts.signal.reason);
      if (this.exitInfo) {
        return rejectPromise(
          new ProcessExitedError({
            processName: this.name,
            exit: this.exitInfo,
            tail: this.tail(),
            logFile: this.logFile,
            during: `before ${describePattern(pattern)} appeared`,
          }),
        );
      }
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
          if (err instanceof ProcessExitedError) {
            err = new ProcessExitedError({
              processName: this.name,
              exit: err.exit,
              tail: err.tail,
              ...(err.logFile ? { logFile: err.logFile } : {}),
              during: `before ${describePattern(pattern)} appeared`,
            });
          }
          rejectPromise(err);
        },
      };
      this.waiters.add(waiter);
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      // An unterminated line already there (a prompt no earlier wait matched) may be what we wait for.
      if (this.splitters.some((sp) => sp.partial && sp.version > sp.consumed)) this.partialChanged();
      if (Number.isFinite(opts.timeoutMs)) {
        timer = setTimeout(() => {
          const waitedMs = Math.round(performance.now() - started);
          const waitingFor = describePattern(pattern);
          waiter.reject(
            new ReadinessTimeout({
              processName: this.name,
              waitedMs,
              waitingFor,
              tail: this.tail(),
              logFile: this.logFile,
              summary: `${this.name} did not print ${waitingFor} within ${waitedMs} ms`,
            }),
          );
        }, opts.timeoutMs);
      }
    });
  }

  write(text: string): void {
    if (!this.stdinStream) throw new Error(`${this.name}: stdin is not a pipe (start it with stdin: 'pipe')`);
    if (!this.alive) throw new Error(`${this.name} has exited: cannot write to its stdin`);
    this.stdinStream.write(text);
  }

  endInput(): void {
    this.stdinStream?.end();
  }

  stop(opts?: StopOptions): Promise<ExitInfo> {
    if (this.stopPromise) return this.stopPromise;
    if (this.alive) this.stopRequested = true;
    const graceful = opts?.graceful ?? this.defaults.graceful;
    const graceMs = scaled(opts?.graceMs ?? this.defaults.graceMs ?? 10_000);
    this.stopPromise = (async () => {
      if (!this.alive) return this.exited;
      let graceTimer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'timeout'>((r) => (graceTimer = setTimeout(() => r('timeout'), graceMs)));
      const exited = this.exited.then(() => 'exited' as const);
      if (graceful) {
        void Promise.resolve()
          .then(graceful)
          .catch((err: unknown) => {
            if (!this.alive) return;
            this.writeLog([
              `=== saltnet: graceful stop of ${this.name} failed (${err instanceof Error ? err.message : String(err)}): sending SIGTERM`,
            ]);
            signal(this.pid, 'SIGTERM');
          });
      } else {
        signal(this.pid, 'SIGTERM');
      }
      const how = await Promise.race([exited, graceOver]);
      clearTimeout(graceTimer);
      if (how === 'timeout' && this.alive) {
        this.writeLog([
          `=== saltnet: ${this.name} still running ${graceMs} ms after the stop request: SIGKILL to its process tree`,
        ]);
        await killTree(this.pid, 'SIGKILL');
      }
      return this.exited;
    })();
    return this.stopPromise;
  }

  /** SIGKILL the tree now (second Ctrl-C, harness crash). */
  async kill(): Promise<ExitInfo> {
    if (this.alive) {
      this.stopRequested = true;
      await killTree(this.pid, 'SIGKILL');
    }
    return this.exited;
  }
}

/**
 * Start `opts.command`. Throws ProcessStartError naming the path if the program is missing
 * (ENOENT) or not executable (EACCES).
 */
export function startProcess(opts: ManagedProcessOptions): ManagedProcess {
  return new ManagedProcessImpl(opts);
}

/** SIGKILL a process's tree at once (no graceful step); resolves when it has exited. */
export function killNow(p: ManagedProcess): Promise<ExitInfo> {
  if (p instanceof ManagedProcessImpl) return p.kill();
  return p.stop({ graceMs: 0 });
}

/** waitForText with a deadline that is already scaled (internal to this folder). */
export function waitForTextUnscaled(
  p: ManagedProcess,
  pattern: TextPattern | readonly TextPattern[],
  opts: WaitForTextOptions,
): Promise<string> {
  if (p instanceof ManagedProcessImpl) return p.waitForTextAbsolute(pattern, opts);
  return p.waitForText(pattern, opts);
}
