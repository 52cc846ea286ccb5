// One program started by the harness: spawned, its output read into its transcript (transcript.ts:
// log file, tail, listeners, text waits), its stdin, its exit noticed, and a stop that always ends
// with the process gone.
//
// Every program is spawned detached, i.e. as the leader of its own process group: a Ctrl-C in the
// terminal reaches the harness only, which then stops its programs in order, and a signal to the
// group reaches grandchildren even after their parent died.
import type { Readable } from 'node:stream';
import { execa } from 'execa';
import { ProcessStartError, describeExit, type ExitInfo } from './errors.js';
import { executableError, isDirectory } from './executable.js';
import { killTree, signal, signalGroup } from './kill.js';
import { Transcript } from './transcript.js';
import { formatCommandLine, makeRedactor } from '../common/redact.js';
import { scaled } from '../common/timeouts.js';

export type { ExitInfo } from './errors.js';

export type { TextPattern } from './output.js';
export type { WaitForTextOptions } from './transcript.js';
import type { TextPattern } from './output.js';
import type { WaitForTextOptions } from './transcript.js';

export interface StopOptions {
  /** The graceful step (e.g. an RPC `stop_daemon`); default: SIGTERM. If it throws, SIGTERM is sent. */
  graceful?: () => Promise<unknown>;
  /** How long the graceful step and the exit may take before the tree is SIGKILLed (default 10 000; scaled). */
  graceMs?: number;
}

export interface ManagedProcessOptions {
  /** 'daemon', 'wallet-rpc', 'wallet-cli': used in messages. */
  name: string;
  command: string;
  args: string[];
  /** Merged over process.env; TERM=dumb is always set. */
  env?: Record<string, string>;
  cwd?: string;
  /** stdout+stderr are appended here line by line (the file and its folder are created). */
  logFile: string;
  /** Redacted from commandLine, the log file, the tail, lines, waits and errors. */
  secrets?: string[];
  /** In-memory tail length (default 500). */
  tailLines?: number;
  /** 'pipe' to answer prompts with write(); default 'ignore'. */
  stdin?: 'ignore' | 'pipe';
  /** A one-shot program (e.g. a wallet CLI that creates a wallet): its own exit is not "unexpected". */
  expectExit?: boolean;
  /** Defaults for stop() (and so for Supervisor.stopAll()) when it is called without options. */
  stop?: StopOptions;
}

export interface ManagedProcess {
  readonly name: string;
  readonly pid: number;
  readonly commandLine: string;
  readonly logFile: string;
  readonly running: boolean;
  /** Set once the process has exited and its output is drained (when `exited` resolves). */
  readonly exitInfo: ExitInfo | undefined;
  /** Resolves once the process has exited and its output is drained; never rejects. */
  readonly exited: Promise<ExitInfo>;
  /** The last n lines (default: all kept), ANSI stripped and redacted. */
  tail(n?: number): string[];
  /** The kept tail as one string (the whole output is not kept). */
  output(): string;
  /** Each complete line, and a final unterminated line at exit. Returns an unsubscribe function. */
  onLine(listener: (line: string) => void): () => void;
  /**
   * Resolves with the first line printed after this call that matches (any of) `pattern` (a string
   * matches as a substring; a RegExp line by line, so ^ and $ are line bounds). The unterminated
   * last line (a prompt) counts once it has been quiet for 25 ms, so "Enter the number ...: "
   * matches and a line arriving in two pieces does not match half-written; a prompt already
   * printed before the call counts too unless an earlier wait matched it (so wait, write the
   * answer, wait for the next prompt works even when both arrive in one chunk). A program reading
   * a pipe does not echo the answer: what it prints next continues the prompt's line
   * ("Password: Wrong password"). Rejects with
   * ProcessExitedError if the process exits first, ReadinessTimeout at the (scaled) deadline.
   */
  waitForText(pattern: TextPattern | readonly TextPattern[], opts: WaitForTextOptions): Promise<string>;
  /** Write to stdin (stdin: 'pipe'). */
  write(text: string): void;
  /** Close stdin. */
  endInput(): void;
  /**
   * The graceful step (default SIGTERM); if the process has not exited after graceMs (default
   * 10 000, scaled), SIGKILL to its whole tree and process group. Idempotent: later calls return
   * the first call's promise. Never rejects.
   */
  stop(opts?: StopOptions): Promise<ExitInfo>;
}

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
  private readonly transcript: Transcript;
  private readonly stdinStream: NodeJS.WritableStream | null;
  private readonly defaults: StopOptions;

  constructor(opts: ManagedProcessOptions) {
    this.name = opts.name;
    this.logFile = opts.logFile;
    this.defaults = opts.stop ?? {};
    const secrets = (opts.secrets ?? []).filter((s) => s.length > 0);
    const redact = makeRedactor(secrets);
    this.commandLine = formatCommandLine(opts.command, opts.args, secrets);

    const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env, TERM: 'dumb' };
    if (opts.cwd !== undefined && !isDirectory(opts.cwd)) {
      throw new ProcessStartError({
        processName: opts.name,
        path: redact(opts.cwd),
        code: 'ENOENT',
        reason: '(its working directory) is not a directory',
      });
    }
    const bad = executableError(opts.name, opts.command, opts.cwd, env, redact);
    if (bad) throw bad;

    this.transcript = new Transcript(opts.name, opts.logFile, redact, opts.tailLines);
    const child = spawnDetached(opts, env);
    if (child.pid === undefined) {
      this.transcript.closeLog();
      // Found and executable a moment ago, yet spawn failed: report what we know.
      throw new ProcessStartError({
        processName: opts.name,
        path: redact(opts.command),
        code: 'ESPAWN',
        reason: 'could not be started',
      });
    }
    this.pid = child.pid;
    this.stdinStream = child.stdin;
    child.stdin?.on('error', () => undefined); // EPIPE once the program has gone
    this.transcript.writeLog([
      `=== saltnet ${new Date().toISOString()} start ${this.name} (pid ${this.pid}): ${this.commandLine}`,
    ]);
    live.set(this.pid, this);
    installExitHook();

    const streams = [child.stdout, child.stderr].filter((s): s is NonNullable<typeof s> => s !== null);
    this.exited = this.watchExit(
      child,
      streams,
      streams.map((s) => this.transcript.read(s)),
    );
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
          this.transcript.finish(
            info,
            `=== saltnet ${new Date().toISOString()} ${this.name} (pid ${this.pid}) ${describeExit(info)}${info.expected ? ' (stopped by saltnet)' : ''}`,
          );
          this.exitInfo = info;
          resolveExit(info);
          this.transcript.failWaits();
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

  tail(n?: number): string[] {
    return this.transcript.tail(n);
  }

  output(): string {
    return this.tail().join('\n');
  }

  onLine(listener: (line: string) => void): () => void {
    return this.transcript.onLine(listener);
  }

  waitForText(pattern: TextPattern | readonly TextPattern[], opts: WaitForTextOptions): Promise<string> {
    return this.transcript.waitFor(pattern, { ...opts, timeoutMs: scaled(opts.timeoutMs) });
  }

  /** waitForText with an already scaled deadline (for waitUntilReady). */
  waitForTextAbsolute(pattern: TextPattern | readonly TextPattern[], opts: WaitForTextOptions): Promise<string> {
    return this.transcript.waitFor(pattern, opts);
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
            this.transcript.writeLog([
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
        this.transcript.writeLog([
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
