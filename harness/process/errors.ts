// Errors that tell the reader what happened without opening another file: the process, how it
// ended, the last lines it printed and where its full log is.
import { counted } from '../common/describe.js';

/** The longest line shown in a message or report (a program's log keeps up to output.ts's MAX_LINE_CHARS). */
export const SHOWN_LINE_CHARS = 1000;

/** `line`, cut to `max` characters, saying how many more there were. */
export function clipLine(line: string, max = SHOWN_LINE_CHARS): string {
  return line.length <= max ? line : `${line.slice(0, max)} [… ${line.length - max} more characters]`;
}

export interface ExitInfo {
  code: number | null;
  signal: string | null;
  /** True when we asked it to stop (stop(), stopAll(), a reaper). */
  expected: boolean;
}

const TAIL_IN_MESSAGE = 30;

/**
 * The line in which a program refuses its command line: boost::program_options' `Failed to parse arguments: …`, which
 * salviumd, the wallet programs and the simulator print first, followed by their whole option list (some 240 lines for
 * salviumd), so that the last lines of their output never say why. The last such line of `tail`, if any.
 */
export function refusalLine(tail: readonly string[]): string | undefined {
  return tail.findLast((l) => /^Failed to parse arguments: /.test(l));
}

/** What a report shows of a tail: see reportLines. */
function reportParts(all: readonly string[], n: number): { why?: string; skipped: number; last: string[] } {
  const tail = all.map((l) => clipLine(l));
  const why = refusalLine(tail);
  const at = why === undefined ? -1 : tail.lastIndexOf(why);
  if (at === -1 || at >= tail.length - n || n < 3) return { skipped: 0, last: tail.slice(-n) };
  const last = tail.slice(tail.length - (n - 2));
  return { why: why!, skipped: tail.length - last.length - at - 1, last };
}

/** The lines of reportParts' parts: the line that says why and how many are left out, if any, then the last. */
function partsLines({ why, skipped, last }: ReturnType<typeof reportParts>): string[] {
  if (why === undefined) return last;
  return [why, `[… ${skipped} line${skipped === 1 ? '' : 's'} left out …]`, ...last];
}

/**
 * The last `n` lines of `tail`, for a report; when the line that says why the program stopped (refusalLine) stands
 * before them, it comes first, then how many lines are left out, then the last lines, `n` in all.
 */
export function reportLines(tail: readonly string[], n: number): string[] {
  return partsLines(reportParts(tail, n));
}

function tailBlock(tail: readonly string[], logFile: string | undefined): string {
  const parts = reportParts(tail, TAIL_IN_MESSAGE);
  const { why, last } = parts;
  const lines = partsLines(parts);
  const head = !lines.length
    ? 'no output'
    : why !== undefined
      ? `the line that says why, and the last ${counted(last.length, 'line')} of output`
      : `last ${counted(last.length, 'line')} of output`;
  const where = logFile ? ` (full log: ${logFile})` : '';
  return `\n--- ${head}${where} ---${lines.length ? `\n${lines.join('\n')}\n---` : ''}`;
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
  /** The line in which it refused its command line (refusalLine): it fails so on every start. */
  readonly refusal: string | undefined;

  constructor(opts: {
    processName: string;
    exit: ExitInfo;
    tail: readonly string[];
    logFile?: string;
    during?: string;
  }) {
    const why = refusalLine(opts.tail);
    super(
      `${opts.processName} ${describeExit(opts.exit)}${opts.during ? ` ${opts.during}` : ''}${why ? `: ${why}` : ''}${tailBlock(opts.tail, opts.logFile)}`,
    );
    this.processName = opts.processName;
    this.exit = opts.exit;
    this.tail = [...opts.tail];
    this.logFile = opts.logFile;
    this.refusal = why;
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
