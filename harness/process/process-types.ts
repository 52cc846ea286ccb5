// What a managed process is and takes (managed.ts implements it).
import type { ExitInfo } from './errors.js';

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

export type TextPattern = RegExp | string;

export interface WaitForTextOptions {
  /** Deadline (scaled); Infinity waits until the process exits or `signal` aborts. */
  timeoutMs: number;
  signal?: AbortSignal;
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
