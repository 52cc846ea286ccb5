// One generic lifecycle for every long-running program of a testnet (the shape of prool's
// `Instance.define` and Bitcoin's `TestNode`): a small definition says how one program starts,
// is ready, is stopped gracefully and answers a health check; a Program owns one running process
// of it and gives every program the same start, stop, restart, crash detection and recovery.
//
// A crash (an exit nobody asked for) is noticed at once: it is reported with the program, its
// signal or exit code and the last lines it printed, and the program is started again on the same
// data and endpoint, at most `maxRestarts` times per run; only then does the testnet fail. Clients
// that hit the dead endpoint in the meantime wait for the restart and repeat their request when
// that is safe (see `recover`).
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessExitedError, describeExit, type ExitInfo } from '../process/errors.js';
import type { ManagedProcess } from '../process/managed.js';
import type { ConnectionProblem } from '../rpc/http.js';

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
  | { event: 'failed'; program: string; message: string; logFile: string; at: string };

export interface ProgramOptions {
  /** Restarts after crashes per run (default 3); one more crash fails the testnet. */
  maxRestarts?: number;
  /** Told of every crash, pid change and failure (see ProgramEvent). */
  onEvent?: (e: ProgramEvent) => void;
  log: (line: string) => void;
  /** The program crashed once too often (or could not be started again): the testnet cannot go on. */
  onFatal: (err: ProcessExitedError) => void;
  /** What the testnet is doing now, for crash reports. */
  phase: () => string;
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

export class Program<H extends Instance> {
  readonly crashes: CrashReport[] = [];
  private inst: H | undefined;
  private state: ProgramState = 'stopped';
  private recovering: Promise<H> | undefined;
  private failure: ProcessExitedError | undefined;

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

  /** Stop it gracefully (not a crash); a recovery under way is waited for first. */
  async stop(): Promise<void> {
    if (this.recovering) await this.recovering.catch(() => undefined);
    this.state = 'stopped';
    const h = this.inst;
    if (!h?.proc.running) return;
    if (this.def.beforeStop) await this.def.beforeStop(h).catch(() => undefined);
    await h.proc.stop();
    this.emit({
      event: 'stopped',
      program: this.name,
      pid: h.proc.pid,
      during: this.o.phase(),
      at: new Date().toISOString(),
    });
  }

  /** Stop, then start again on the same endpoint (asked for: not counted as a crash). */
  async restart(): Promise<H> {
    await this.stop();
    return this.start();
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
   * request either never reached it or only reads.
   */
  readonly recover = async (p: ConnectionProblem): Promise<boolean> => {
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
  };

  private async startWithRetries(reason: 'start' | 'crash' = 'start'): Promise<H> {
    for (;;) {
      try {
        const previous = this.inst;
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
        void h.proc.exited.then((exit) => this.onExit(h, exit));
        return h;
      } catch (err) {
        if (!(err instanceof ProcessExitedError) || this.def.permanent?.(err)) throw err;
        const more = this.noteCrash(
          { pid: 0, exit: err.exit, tail: err.tail, logFile: err.logFile ?? '' },
          'while starting',
        );
        if (!more) throw err;
      }
    }
  }

  /** Record a crash and say so; false when the restarts are used up. */
  private noteCrash(c: { pid: number; exit: ExitInfo; tail: string[]; logFile: string }, during: string): boolean {
    const more = this.restarts < (this.o.maxRestarts ?? 3);
    const restart = more ? this.restarts + 1 : 0;
    const report: CrashReport = { program: this.name, ...c, during, restart, at: new Date().toISOString() };
    this.crashes.push(report);
    this.emit({ event: 'crash', ...report, tail: c.tail.slice(-10) });
    const tail = c.tail
      .slice(-10)
      .map((l) => `    ${l}`)
      .join('\n');
    const what = more
      ? `starting it again on the same data (restart ${restart} of ${this.o.maxRestarts ?? 3})`
      : 'no restarts left';
    this.o.log(
      `saltnet: ${this.name}${c.pid ? ` (pid ${c.pid})` : ''} ${describeExit(c.exit)} ${during}; ${what}${tail ? `\n  last lines${c.logFile ? ` (${c.logFile})` : ''}:\n${tail}` : ''}`,
    );
    return more;
  }

  private onExit(h: H, exit: ExitInfo): void {
    if (h !== this.inst || exit.expected || this.state !== 'running') return;
    const during = this.o.phase();
    const err = new ProcessExitedError({
      processName: this.name,
      exit,
      tail: h.proc.tail(30),
      logFile: h.proc.logFile,
      during,
    });
    if (!this.noteCrash({ pid: h.proc.pid, exit, tail: h.proc.tail(30), logFile: h.proc.logFile }, during)) {
      this.fail(err);
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
        this.fail(e instanceof ProcessExitedError ? e : err);
      },
    );
  }

  private fail(err: ProcessExitedError): void {
    this.state = 'failed';
    this.failure = err;
    this.emit({
      event: 'failed',
      program: this.name,
      message: err.message.split('\n')[0] ?? err.message,
      logFile: err.logFile ?? '',
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
