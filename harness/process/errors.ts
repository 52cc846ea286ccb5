// Errors that tell the reader what happened without opening another file: the process, how it
// ended, the last lines it printed and where its full log is.

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** True when we asked it to stop (stop(), stopAll(), a reaper). */
  expected: boolean;
}

const TAIL_IN_MESSAGE = 30;

function tailBlock(tail: readonly string[], logFile: string | undefined): string {
  const last = tail.slice(-TAIL_IN_MESSAGE);
  const head = last.length ? `last ${last.length} line${last.length === 1 ? '' : 's'} of output` : 'no output';
  const where = logFile ? ` (full log: ${logFile})` : '';
  return `\n--- ${head}${where} ---${last.length ? `\n${last.join('\n')}\n---` : ''}`;
}

export function describeExit(exit: Pick<ExitInfo, 'code' | 'signal'>): string {
  if (exit.signal) return `exited with signal ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}

export class ProcessExitedError extends Error {
  override readonly name = 'ProcessExitedError';
  readonly processName: string;
  readonly exit: ExitInfo;
  readonly tail: string[];
  readonly logFile: string | undefined;

  constructor(opts: {
    processName: string;
    exit: ExitInfo;
    tail: readonly string[];
    logFile?: string;
    during?: string;
  }) {
    super(
      `${opts.processName} ${describeExit(opts.exit)}${opts.during ? ` ${opts.during}` : ''}${tailBlock(opts.tail, opts.logFile)}`,
    );
    this.processName = opts.processName;
    this.exit = opts.exit;
    this.tail = [...opts.tail];
    this.logFile = opts.logFile;
  }
}

export class ReadinessTimeout extends Error {
  override readonly name = 'ReadinessTimeout';
  readonly processName: string;
  readonly waitedMs: number;
  readonly tail: string[];
  readonly logFile: string | undefined;

  /** `summary` replaces the default first line "<name> was not ready after <ms> ms (waited for <waitingFor>)". */
  constructor(opts: {
    processName: string;
    waitedMs: number;
    waitingFor: string;
    tail: readonly string[];
    logFile?: string;
    summary?: string;
  }) {
    super(
      `${opts.summary ?? `${opts.processName} was not ready after ${opts.waitedMs} ms (waited for ${opts.waitingFor})`}${tailBlock(opts.tail, opts.logFile)}`,
    );
    this.processName = opts.processName;
    this.waitedMs = opts.waitedMs;
    this.tail = [...opts.tail];
    this.logFile = opts.logFile;
  }
}

/** startProcess() could not start the program: missing (ENOENT) or not executable (EACCES). */
export class ProcessStartError extends Error {
  override readonly name = 'ProcessStartError';
  readonly processName: string;
  readonly path: string;
  readonly code: string;

  constructor(opts: { processName: string; path: string; code: string; reason: string }) {
    super(`cannot start ${opts.processName}: ${opts.path} ${opts.reason} (${opts.code})`);
    this.processName = opts.processName;
    this.path = opts.path;
    this.code = opts.code;
  }
}
