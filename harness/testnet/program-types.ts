// What a program of a testnet is (program.ts runs it): its definition, the options of its lifecycle,
// its crash reports and the events it tells.
import type { ExitInfo, ProcessExitedError } from '../process/errors.js';
import type { ManagedProcess } from '../process/managed.js';
import type { LivenessProbe, Unresponsive } from './liveness.js';

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
