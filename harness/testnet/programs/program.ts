// One generic lifecycle for every long-running program of a testnet (the shape of prool's
// `Instance.define` and Bitcoin's `TestNode`): a small definition says how one program starts,
// is ready, is stopped gracefully and answers a health check; a Program owns one running process
// of it and gives every program the same start, stop, restart, crash detection and recovery.
//
// A crash (an exit nobody asked for) is noticed at once: it is reported with the program, its
// signal or exit code and the last lines it printed (and the line that says why, when it refused its
// command line: that one is never started again), and the program is started again on the same
// data and endpoint, at most `maxRestarts` times per run; only then does the testnet fail. Clients
// that hit the dead endpoint in the meantime wait for the restart and repeat their request when
// that is safe (see `recover`).
import { setTimeout as sleep } from 'node:timers/promises';
import {
  ProcessExitedError,
  clipLine,
  describeExit,
  refusalLine,
  reportLines,
  type ExitInfo,
} from '../../process/errors.js';
import { killTree } from '../../process/kill.js';
import type { ManagedProcess } from '../../process/managed.js';
import { PortTakenError } from '../../process/ports.js';
import type { ConnectionProblem, Recovery } from '../../rpc/http.js';
import { watchLiveness, type LivenessProbe, type LivenessWatch, type Unresponsive } from './liveness.js';

export interface Instance {
  proc: ManagedProcess;
}

export interface ProgramDefinition<H extends Instance> {
  /** The process name (`daemon`, `wallet-rpc`, `wallet-rpc-bob`): messages and log files use it. */
  readonly name: string;
  /**
   * Start the program and wait until it is ready. `previous`: the instance it replaces (a restart keeps its endpoint
   * and credentials).
   */
  start(previous: H | undefined): Promise<H>;
  /** The graceful part of a stop, before SIGTERM (e.g. the wallet's `store`). */
  beforeStop?(h: H): Promise<void>;
  /** Answers its RPC now. */
  health(h: H): Promise<boolean>;
  /** A cheap request its RPC answers, for the liveness watch (liveness.ts); without one only a freeze is noticed. */
  probe?(h: H): LivenessProbe;
  /** A failed start that no restart can mend (a wrong password, a missing wallet file). */
  permanent?(err: ProcessExitedError): boolean;
}

export interface CrashReport {
  program: string;
  pid: number;
  exit: ExitInfo;
  tail: string[];
  logFile: string;
  /** What the testnet was doing (`while building the chain`, `while the testnet was up`). */
  during: string;
  /** The restart this crash led to (1-based), or 0 when it was one too many. */
  restart: number;
  at: string;
}

/**
 * What happens to a program while the testnet runs, as it happens (`saltnet up --json` prints each):
 * `crash` an exit nobody asked for; `pid` the program runs under a new pid (first start, a restart
 * asked for, a save or checkpoint that stops and starts it, or the recovery from a crash);
 * `stopped` stopped on purpose (before a restart, a save or a checkpoint, or for good);
 * `failed` no restart is left: the testnet cannot go on.
 */
export type ProgramEvent =
  | ({ event: 'crash' } & Omit<CrashReport, 'tail'> & { tail: string[] })
  | {
      event: 'pid';
      program: string;
      pid: number;
      previousPid: number;
      reason: 'start' | 'restart' | 'crash';
      during: string;
      at: string;
    }
  | { event: 'stopped'; program: string; pid: number; during: string; at: string }
  | ({ event: 'unresponsive'; program: string; pid: number; during: string; at: string } & Unresponsive)
  | { event: 'responsive'; program: string; pid: number; afterMs: number; at: string }
  | { event: 'failed'; program: string; message: string; logFile: string; at: string };

export interface ProgramOptions {
  /** Restarts after crashes per run (default 3); one more crash fails the testnet. */
  maxRestarts?: number;
  /** Told of every crash, pid change and failure (see ProgramEvent). */
  onEvent?: (e: ProgramEvent) => void;
  log: (line: string) => void;
  /** The program crashed once too often (or could not be started again): the testnet cannot go on. */
  onFatal: (err: Error) => void;
  /** What the testnet is doing now, for crash reports. */
  phase: () => string;
  /** Why a crashed program must not be started again (its workdir is gone), if so. */
  mayRestart?: () => string | undefined;
}

export type ProgramState = 'stopped' | 'starting' | 'running' | 'recovering' | 'failed';

/** Requests that may be sent again when it is unknown whether the dead process handled them. */
const READ_ONLY =
  /^(get_|getbalance$|getaddress$|getheight$|incoming_transfers$|refresh$|store$|query_key$|auto_refresh$|mining_status$|on_get_block_hash$|validate_address$)/;

function repeatable(path: string, request: unknown): boolean {
  if (path !== '/json_rpc') return /^\/(get_|mining_status|start_mining|stop_mining)/.test(path);
  const method = (request as { method?: unknown } | null)?.method;
  return typeof method === 'string' && READ_ONLY.test(method);
}

/** Why a program that refused its command line is not started again. */
const REFUSED = 'it refused its command line, as it would on every start';

/** How many times a restart after a crash tries the ports it must keep. */
const PORT_TRIES = 3;

/** `work`, or a rejection as soon as the watch finds the program unresponsive (its answer would never come). */
async function untilSilent<T>(work: Promise<T>, watch: LivenessWatch | undefined): Promise<T> {
  if (!watch) return work;
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, fail) => {
    timer = setInterval(() => {
      if (watch.unresponsive) fail(new Error(watch.unresponsive.reason));
    }, 250);
  });
  try {
    return await Promise.race([work, silent]);
  } finally {
    clearInterval(timer);
  }
}

export class Program<H extends Instance> {
  readonly crashes: CrashReport[] = [];
  private inst: H | undefined;
  private state: ProgramState = 'stopped';
  private recovering: Promise<H> | undefined;
  private failure: Error | undefined;
  private watch: LivenessWatch | undefined;

  constructor(
    readonly def: ProgramDefinition<H>,
    private readonly o: ProgramOptions,
  ) {}

  get name(): string {
    return this.def.name;
  }

  /** The running instance (the last one while it restarts). */
  get current(): H {
    if (!this.inst) throw new Error(`${this.name} has not been started`);
    return this.inst;
  }

  get pid(): number {
    return this.current.proc.pid;
  }

  /** Where it is in its lifecycle now (`recovering`: restarting after a crash). */
  get status(): ProgramState {
    return this.state;
  }

  get restarts(): number {
    return this.crashes.filter((c) => c.restart > 0).length;
  }

  /** Start it (a crash during the start counts against the restarts, as any crash does). */
  async start(): Promise<H> {
    this.state = 'starting';
    try {
      return await this.startWithRetries();
    } catch (err) {
      this.state = 'failed';
      throw err;
    }
  }

  /** Why it does not answer now (liveness.ts), if it does not. */
  get unresponsive(): Unresponsive | undefined {
    return this.watch?.unresponsive;
  }

  /**
   * Stop it gracefully (not a crash); a recovery under way is waited for first. One that does not answer is killed at
   * once (its graceful part would only wait). Resolves with why the stop was not clean (its graceful part failed, or it
   * had to be killed), undefined when it was.
   */
  async stop(): Promise<string | undefined> {
    if (this.recovering) await this.recovering.catch(() => undefined);
    this.state = 'stopped';
    const h = this.inst;
    const watch = this.watch;
    this.watch = undefined;
    let silent = watch?.unresponsive;
    let problem = silent ? `it did not answer (${silent.reason}): killed` : undefined;
    if (h?.proc.running && this.def.beforeStop && !silent)
      await untilSilent(this.def.beforeStop(h), watch).catch((err: unknown) => {
        silent = watch?.unresponsive;
        problem = silent
          ? `it stopped answering (${silent.reason}): killed`
          : `its graceful stop failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
      });
    watch?.stop();
    // Gone already: clean unless its graceful part failed (it died during it).
    if (!h?.proc.running) return problem;
    const exit = await h.proc.stop(silent ? { graceMs: 0 } : undefined);
    if (!problem && exit.signal === 'SIGKILL') problem = 'it did not stop in time: killed';
    this.emit({
      event: 'stopped',
      program: this.name,
      pid: h.proc.pid,
      during: this.o.phase(),
      at: new Date().toISOString(),
    });
    return problem;
  }

  /** Stop, then start again on the same endpoint (asked for: not counted as a crash). */
  async restart(): Promise<H> {
    await this.stop();
    return this.start();
  }

  /**
   * If it does not answer: killed now, and started again as after a crash (waited for); true when it was. For a caller
   * that gave up on it (a scenario whose step it failed).
   */
  async recoverIfUnresponsive(): Promise<boolean> {
    const h = this.inst;
    if (!this.watch?.unresponsive || this.state !== 'running' || !h?.proc.running) return false;
    this.o.log(
      `saltnet: ${this.name} (pid ${h.proc.pid}) does not answer: killing it, to start it again as after a crash`,
    );
    await killTree(h.proc.pid, 'SIGKILL');
    await h.proc.exited;
    await this.ready().catch(() => undefined);
    return true;
  }

  /** The instance once it is running: waits for a crash recovery under way; rejects if the program failed for good. */
  async ready(): Promise<H> {
    if (this.recovering) return this.recovering;
    if (this.state === 'failed' && this.failure) throw this.failure;
    return this.current;
  }

  /** Running and answering its RPC now (the definition's health check). */
  async health(): Promise<boolean> {
    return (
      this.state === 'running' &&
      this.inst !== undefined &&
      this.inst.proc.running &&
      (await this.def.health(this.inst).catch(() => false))
    );
  }

  /**
   * For clients of the program (EndpointOptions.recover): after a connection problem, true when
   * the request should be sent again — the program had crashed and is running again, and the
   * request either never reached it or only reads. Its `restarting` holds every request while a
   * restart after a crash is under way (Recovery.restarting).
   */
  readonly recover: Recovery = Object.assign(
    async (p: ConnectionProblem): Promise<boolean> => {
      // The refused connection can come a moment before the exit is seen.
      for (let i = 0; i < 40 && this.state === 'running' && this.inst?.proc.running; i++) await sleep(50);
      if (this.state === 'running' && this.inst?.proc.running) return false;
      if (this.state !== 'recovering' && this.state !== 'running') return false;
      try {
        await this.ready();
      } catch {
        return false;
      }
      return !p.sent || repeatable(p.path, p.request);
    },
    { restarting: () => this.recovering },
  );

  private async startWithRetries(reason: 'start' | 'crash' = 'start'): Promise<H> {
    // A port it must keep (a restart keeps its endpoint) may be free again in a moment: a few tries, then it fails.
    let portTries = 0;
    for (;;) {
      const previous = this.inst;
      // A first start picks free ports itself (withFreshPorts); a later one, after a crash or a stop, keeps them.
      const keepsPorts = previous !== undefined;
      try {
        const h = await this.def.start(previous);
        this.inst = h;
        const why = reason === 'crash' ? 'crash' : previous ? 'restart' : 'start';
        this.emit({
          event: 'pid',
          program: this.name,
          pid: h.proc.pid,
          previousPid: previous?.proc.pid ?? 0,
          reason: why,
          during: this.o.phase(),
          at: new Date().toISOString(),
        });
        // Running from here: an exit from now on is a crash, even before the caller hears of the start.
        this.state = 'running';
        this.watchOver(h);
        void h.proc.exited.then((exit) => this.onExit(h, exit));
        return h;
      } catch (err) {
        if (err instanceof PortTakenError && keepsPorts && ++portTries < PORT_TRIES) {
          this.o.log(`saltnet: ${this.name}: ${err.message}; trying again in a second`);
          await sleep(1000);
          continue;
        }
        if (err instanceof PortTakenError && keepsPorts)
          throw new Error(
            `${err.message} (tried ${PORT_TRIES} times): it keeps its ports on a restart, since its clients use them; free the port`,
            { cause: err },
          );
        if (!(err instanceof ProcessExitedError) || this.def.permanent?.(err)) throw err;
        const more = this.noteCrash(
          { pid: 0, exit: err.exit, tail: err.tail, logFile: err.logFile ?? '' },
          'while starting',
          err.refusal ? REFUSED : undefined,
        );
        if (!more) throw err;
      }
    }
  }

  /** Record a crash and say so; false when the restarts are used up (or `blocked` says why it must not restart). */
  private noteCrash(
    c: { pid: number; exit: ExitInfo; tail: string[]; logFile: string },
    during: string,
    blocked?: string,
  ): boolean {
    const more = !blocked && this.restarts < (this.o.maxRestarts ?? 3);
    const restart = more ? this.restarts + 1 : 0;
    const kept = { ...c, tail: reportLines(c.tail, 30) };
    const report: CrashReport = { program: this.name, ...kept, during, restart, at: new Date().toISOString() };
    this.crashes.push(report);
    const last = reportLines(c.tail, 10);
    this.emit({ event: 'crash', ...report, tail: last });
    const why = refusalLine(c.tail);
    const tail = last.map((l) => `    ${l}`).join('\n');
    const what = more
      ? `starting it again on the same data (restart ${restart} of ${this.o.maxRestarts ?? 3})`
      : blocked
        ? `not started again: ${blocked}`
        : 'no restarts left';
    this.o.log(
      `saltnet: ${this.name}${c.pid ? ` (pid ${c.pid})` : ''} ${describeExit(c.exit)} ${during}${why ? `: ${why}` : ''}; ${what}${tail ? `\n  last lines${c.logFile ? ` (${c.logFile})` : ''}:\n${tail}` : ''}`,
    );
    return more;
  }

  /** The liveness watch of a running instance: its changes told as events; a restart when it stays unresponsive. */
  private watchOver(h: H): void {
    this.watch?.stop();
    const pid = h.proc.pid;
    const at = (): string => new Date().toISOString();
    let since = 0;
    this.watch = watchLiveness({
      proc: h.proc,
      ...(this.def.probe ? { probe: this.def.probe(h) } : {}),
      onChange: (u) => {
        if (u) {
          since = Date.now();
          // What it last said tells what it is stuck in (the next CI flake of this kind is then readable).
          const last = h.proc.tail(5).map((l) => `    ${clipLine(l)}`);
          const lines = last.length
            ? `\n  its last lines${h.proc.logFile ? ` (${h.proc.logFile})` : ''}:\n${last.join('\n')}`
            : '';
          this.o.log(`saltnet: ${this.name} (pid ${pid}) is not answering: ${u.reason}${lines}`);
          this.emit({ event: 'unresponsive', program: this.name, pid, during: this.o.phase(), ...u, at: at() });
        } else {
          this.o.log(`saltnet: ${this.name} (pid ${pid}) answers again`);
          this.emit({ event: 'responsive', program: this.name, pid, afterMs: Date.now() - since, at: at() });
        }
      },
      onRestartDue: (u) => {
        if (h !== this.inst || !h.proc.running) return;
        this.o.log(
          `saltnet: ${this.name} (pid ${pid}) has not answered since ${u.since} (${u.reason}): killing it, to start it again as after a crash`,
        );
        void killTree(pid, 'SIGKILL');
      },
    });
  }

  private onExit(h: H, exit: ExitInfo): void {
    if (h === this.inst) {
      this.watch?.stop();
      this.watch = undefined;
    }
    if (h !== this.inst || exit.expected || this.state !== 'running') return;
    const during = this.o.phase();
    const err = new ProcessExitedError({
      processName: this.name,
      exit,
      tail: h.proc.tail(),
      logFile: h.proc.logFile,
      during,
    });
    const blocked = this.o.mayRestart?.();
    const crash = { pid: h.proc.pid, exit, tail: h.proc.tail(), logFile: h.proc.logFile };
    if (!this.noteCrash(crash, during, blocked)) {
      const first = err.message.split('\n')[0];
      this.fail(blocked ? new Error(`${first}; not started again: ${blocked}`) : err);
      return;
    }
    this.state = 'recovering';
    const r = this.startWithRetries('crash');
    this.recovering = r;
    r.then(
      () => {
        this.state = 'running';
        this.recovering = undefined;
        this.o.log(`saltnet: ${this.name} is running again (pid ${this.current.proc.pid})`);
      },
      (e: unknown) => {
        this.recovering = undefined;
        const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
        this.fail(
          e instanceof ProcessExitedError
            ? e
            : new Error(`${err.message.split('\n')[0]}, and could not be started again: ${why}`, { cause: e }),
        );
      },
    );
  }

  private fail(err: Error): void {
    this.state = 'failed';
    this.failure = err;
    this.emit({
      event: 'failed',
      program: this.name,
      message: err.message.split('\n')[0] ?? err.message,
      logFile: err instanceof ProcessExitedError ? (err.logFile ?? '') : (this.inst?.proc.logFile ?? ''),
      at: new Date().toISOString(),
    });
    this.o.onFatal(err);
  }

  private emit(e: ProgramEvent): void {
    try {
      this.o.onEvent?.(e);
    } catch {
      /* a listener's bug must not stop the program's supervision */
    }
  }
}
