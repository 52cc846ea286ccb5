// The processes of one run (one testnet): started in order, stopped in reverse order, recorded in
// the run registry and watched by the reaper, and stopped on Ctrl-C, SIGTERM, SIGHUP or a crash of
// the harness.
import { randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import type { ExitInfo } from './errors.js';
import { signal, signalGroup } from './kill.js';
import { killNow, startProcess, type ManagedProcess, type ManagedProcessOptions } from './managed.js';
import { identityOfStarted, RUN_ENV, runStrays, selfIdentity } from './identity.js';
import { exitHeld, interrupt, SIGNAL_EXIT_CODES } from './interrupt.js';
import { startReaper, type Reaper } from './reaper.js';
import { ownerFile, removeRun, writeRun, type RunRecord } from './registry.js';
import { scaled } from '../common/timeouts.js';

export interface Supervisor {
  readonly runId: string;
  /** The run's record as last written (a copy). */
  readonly record: RunRecord;
  /** The watchdog's pid (0 without one). */
  readonly reaperPid: number;
  /** Start a program of the run and record it (the reaper watches it from now on). */
  start(opts: ManagedProcessOptions): ManagedProcess;
  processes(): ManagedProcess[];
  /** Called at once when a process exits that we did not stop. Returns an unsubscribe function. */
  onUnexpectedExit(listener: (p: ManagedProcess, exit: ExitInfo) => void): () => void;
  /** Stored in the run record (endpoints etc. for `saltnet status`); replaces the previous info. */
  setInfo(info: Record<string, unknown>): void;
  /** Add to the info of the run record. */
  updateInfo(patch: Record<string, unknown>): void;
  /**
   * Whether whoever reaps this run after a death of its saltnet keeps its temporary workdir (RunRecord.keepWorkdir).
   */
  keepWorkdir(keep: boolean): void;
  /**
   * Stop every process, last started first, each gracefully then killed after its grace; remove the run record.
   * Idempotent.
   */
  stopAll(): Promise<void>;
}

export interface SupervisorOptions {
  workdir: string;
  /** The run created `workdir` as a temporary folder: a reaper removes it with the run (RunRecord.tempWorkdir). */
  tempWorkdir?: boolean;
  runId?: string;
  /**
   * SIGINT/SIGTERM/SIGHUP → interrupt(), stopAll(), what holdExit() holds, then exit 130/143/129;
   * uncaughtException/unhandledRejection → stopAll() then exit 1 (default true).
   */
  trapSignals?: boolean;
  /** Start the watchdog that reaps the run if this process dies without stopping it (default true). */
  reaper?: boolean;
  /**
   * Runs once after every process has stopped, on every path that stops them (stopAll, a trapped signal, a second
   * Ctrl-C).
   */
  afterStop?: () => void;
}

function newRunId(): string {
  const t = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${t}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

class SupervisorImpl implements Supervisor {
  readonly runId: string;
  private readonly rec: RunRecord;
  private readonly procs: ManagedProcess[] = [];
  private readonly unexpected = new Set<(p: ManagedProcess, exit: ExitInfo) => void>();
  private stopping: Promise<void> | undefined;
  private reaper: Reaper | undefined;
  private afterStop: (() => void) | undefined;
  private ownerFd: number | undefined;
  readonly trapping: boolean;

  constructor(opts: SupervisorOptions) {
    this.runId = opts.runId ?? newRunId();
    this.rec = {
      runId: this.runId,
      ownerPid: process.pid,
      owner: selfIdentity(),
      startedAt: new Date().toISOString(),
      workdir: opts.workdir,
      processes: [],
      ...(opts.tempWorkdir ? { tempWorkdir: true } : {}),
    };
    writeRun(this.rec);
    // Held open while the run lives: what proves this process is the run's owner (`saltnet down` signals only it).
    this.ownerFd = openSync(ownerFile(this.runId), 'w', 0o600);
    this.afterStop = opts.afterStop;
    this.trapping = opts.trapSignals ?? true;
    active.add(this);
    installExitHook();
    if (this.trapping) trapSignals();
    if (opts.reaper ?? true) {
      try {
        this.reaper = startReaper(this.runId);
      } catch (err) {
        active.delete(this);
        closeSync(this.ownerFd);
        removeRun(this.runId);
        untrapIfIdle();
        throw err;
      }
    }
  }

  get record(): RunRecord {
    return structuredClone(this.rec);
  }

  /** The reaper's pid (0 without a reaper). */
  get reaperPid(): number {
    return this.reaper?.pid ?? 0;
  }

  start(opts: ManagedProcessOptions): ManagedProcess {
    if (this.stopping) throw new Error(`run ${this.runId} is stopping: cannot start ${opts.name}`);
    // Marked as this run's: nothing is ever signalled on the registry's word alone (identity.ts).
    const p = startProcess({ ...opts, env: { ...opts.env, [RUN_ENV]: this.runId } });
    this.procs.push(p);
    // Its identity, read now (before it can exit and its pid be reused): a process gone already is not recorded.
    const id = identityOfStarted(p.pid, opts.command, opts.args);
    if (id) this.rec.processes.push({ name: p.name, pid: p.pid, commandLine: p.commandLine, ...id });
    writeRun(this.rec);
    void p.exited.then((exit) => {
      if (this.stopping) return;
      // The record lists the processes that run now (status and the reaper read it), not every pid the run ever had.
      this.rec.processes = this.rec.processes.filter((r) => r.pid !== p.pid);
      writeRun(this.rec);
      if (exit.expected || opts.expectExit) return;
      for (const l of [...this.unexpected]) {
        try {
          l(p, exit);
        } catch {
          /* a listener's bug must not hide the exit from the others */
        }
      }
    });
    return p;
  }

  processes(): ManagedProcess[] {
    return [...this.procs];
  }

  onUnexpectedExit(listener: (p: ManagedProcess, exit: ExitInfo) => void): () => void {
    this.unexpected.add(listener);
    return () => this.unexpected.delete(listener);
  }

  setInfo(info: Record<string, unknown>): void {
    this.rec.info = { ...info };
    if (!this.stopping) writeRun(this.rec);
  }

  updateInfo(patch: Record<string, unknown>): void {
    this.setInfo({ ...this.rec.info, ...patch });
  }

  keepWorkdir(keep: boolean): void {
    if ((this.rec.keepWorkdir ?? false) === keep) return;
    this.rec.keepWorkdir = keep;
    if (!this.stopping) writeRun(this.rec);
  }

  stopAll(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      for (const p of [...this.procs].reverse()) await p.stop();
      this.finish();
      this.runAfterStop();
    })();
    return this.stopping;
  }

  private runAfterStop(): void {
    const hook = this.afterStop;
    this.afterStop = undefined;
    try {
      hook?.();
    } catch {
      /* a cleanup hook must not turn a clean stop into a failure */
    }
  }

  /** SIGKILL everything now (a second Ctrl-C). */
  async killAll(): Promise<void> {
    if (!this.stopping) this.stopping = Promise.resolve();
    await Promise.all(this.procs.map((p) => killNow(p)));
    this.finish();
    this.runAfterStop();
  }

  /** Synchronous last resort from process.on('exit'): SIGKILL every process group, then forget the run. */
  exitNow(): void {
    for (const p of this.procs) {
      if (!p.running) continue;
      signalGroup(p.pid, 'SIGKILL');
      signal(p.pid, 'SIGKILL');
    }
    this.finish();
  }

  private finish(): void {
    if (!active.has(this)) return;
    active.delete(this);
    // What a program left running outside its tree (a grandchild in a session of its own) goes with the run.
    for (const pid of runStrays(this.runId)) signal(pid, 'SIGKILL');
    if (this.ownerFd !== undefined) closeSync(this.ownerFd);
    this.ownerFd = undefined;
    removeRun(this.runId);
    this.reaper?.stop();
    untrapIfIdle();
  }
}

// One set of process-wide handlers serves every live supervisor, so that a signal stops all of
// them before the single exit.
const active = new Set<SupervisorImpl>();
let trapped = false;
let shuttingDown = false;
let killing = false;

function trapping(): SupervisorImpl[] {
  return [...active].filter((s) => s.trapping);
}

/** Whether the supervisors' signal handlers are installed (a testnet is up): they stop it and exit on a signal. */
export function trappingSignals(): boolean {
  return trapped;
}

/**
 * Whether a second signal has started killing every process: this process exits as soon as they are gone, and
 * progress told from now on (a program that became ready meanwhile) would only contradict that.
 */
export function killingEverything(): boolean {
  return killing;
}

function onSignal(sig: NodeJS.Signals): void {
  const code = SIGNAL_EXIT_CODES[sig] ?? 1;
  // First of all: whatever waits on the testnet learns why it is about to go away.
  interrupt(sig);
  if (shuttingDown) {
    // Asked twice: no more grace.
    say(`saltnet: ${sig} again, killing every process now\n`);
    killing = true;
    void Promise.all(trapping().map((s) => s.killAll())).finally(() => process.exit(code));
    return;
  }
  shuttingDown = true;
  say(`saltnet: ${sig} received, stopping the testnet (again to kill at once)\n`);
  const all = trapping();
  // Then stop, and let what must be finished first (a run's report: holdExit) finish.
  void Promise.all(all.map((s) => s.stopAll()))
    .then(() => exitHeld(scaled(60_000)))
    .finally(() => process.exit(code));
}

/**
 * Our own stdout/stderr may have lost their reader (the parent that read them died): a write then
 * fails with EPIPE. Unheard, that error is an uncaught exception whose report fails the same way,
 * a loop at 100% CPU that starves the stop (seen: an orphaned `saltnet run` spinning for an hour).
 */
const ignoreStdioError = (): void => undefined;

function say(text: string): void {
  if (process.stderr.destroyed || process.stderr.writableEnded) return;
  try {
    process.stderr.write(text);
  } catch {
    /* nowhere to say it */
  }
}

function onFatal(kind: string, err: unknown): void {
  say(`saltnet: ${kind}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  if (shuttingDown) return;
  shuttingDown = true;
  void Promise.all(trapping().map((s) => s.stopAll())).finally(() => process.exit(1));
}

const handlers = {
  SIGINT: () => onSignal('SIGINT'),
  SIGTERM: () => onSignal('SIGTERM'),
  SIGHUP: () => onSignal('SIGHUP'),
  uncaughtException: (err: unknown) => onFatal('uncaught exception', err),
  unhandledRejection: (err: unknown) => onFatal('unhandled rejection', err),
};

function trapSignals(): void {
  if (trapped) return;
  trapped = true;
  process.on('SIGINT', handlers.SIGINT);
  process.on('SIGTERM', handlers.SIGTERM);
  process.on('SIGHUP', handlers.SIGHUP);
  process.on('uncaughtException', handlers.uncaughtException);
  process.on('unhandledRejection', handlers.unhandledRejection);
  process.stdout.on('error', ignoreStdioError);
  process.stderr.on('error', ignoreStdioError);
}

function untrapIfIdle(): void {
  if (!trapped || trapping().length > 0 || shuttingDown) return;
  trapped = false;
  process.off('SIGINT', handlers.SIGINT);
  process.off('SIGTERM', handlers.SIGTERM);
  process.off('SIGHUP', handlers.SIGHUP);
  process.off('uncaughtException', handlers.uncaughtException);
  process.off('unhandledRejection', handlers.unhandledRejection);
  process.stdout.off('error', ignoreStdioError);
  process.stderr.off('error', ignoreStdioError);
}

let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // process.exit() with runs still up: SIGKILL their processes and forget the runs. Only 'exit', not
  // signal-exit's onExit: that also acts on a fatal signal where nothing of ours traps it (a vitest
  // worker on Ctrl-C), killing the programs under the reaper's feet and leaving their run record.
  process.on('exit', () => {
    for (const s of [...active]) s.exitNow();
  });
}

/** Create the supervisor of one run; writes its run record and (by default) starts its reaper and traps signals. */
export function createSupervisor(opts: SupervisorOptions): Supervisor {
  return new SupervisorImpl(opts);
}
