// Console and file logging in the format of Monero's easylogging setup (§1.4):
// console `YYYY-MM-DD HH:MM:SS.mmm<TAB><L> message`, one prefixed line per message line;
// file `datetime<TAB>thread<TAB>LEVEL<TAB>category<TAB>file:line<TAB>message`.
import { appendFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { makeDirs } from './mkdir.js';

export type Level = 'I' | 'W' | 'E' | 'F' | 'D' | 'T';

const LEVEL_NAMES: Record<Level, string> = { I: 'INFO', W: 'WARNING', E: 'ERROR', F: 'FATAL', D: 'DEBUG', T: 'TRACE' };
/** TERM values for which the real programs write ANSI colours even when stdout is a pipe. */
const COLOUR_TERMS = new Set([
  'xterm',
  'xterm-color',
  'xterm-256color',
  'screen',
  'screen-256color',
  'screen.xterm-256color',
  'linux',
  'cygwin',
]);
const COLOURS: Partial<Record<Level, string>> = { W: '\x1b[1;33m', E: '\x1b[1;31m', F: '\x1b[1;31m' };

export function timestamp(date = new Date()): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}

export interface Logger {
  /** A log line: shown on the console at the default level unless `quiet`, always written to the file. */
  log(level: Level, message: string, opts?: { quiet?: boolean; colour?: string }): void;
  /** A plain console line (no prefix), e.g. the banner lines printed before logging starts. */
  plain(text: string): void;
  readonly file: string | undefined;
}

export interface LoggerOptions {
  file?: string;
  /** Echo log lines to stdout (daemon and wallet RPC do; wallet CLI does not). */
  console: boolean;
  category: string;
  sourceFile: string;
  /** `--log-level`: 0 shows INFO of the global category plus warnings; 1 shows everything. */
  level?: number;
  /** Mode of a new log file: the real wallet programs write theirs 0600 (v1.1.3c), the daemon its 0644. */
  mode?: number;
}

export function createLogger(opts: LoggerOptions): Logger {
  const colourOn = COLOUR_TERMS.has(process.env.TERM ?? '');
  let fileOk = opts.file !== undefined;
  if (opts.file) {
    try {
      makeDirs(dirname(opts.file));
    } catch {
      fileOk = false;
    }
  }
  const level = opts.level ?? 0;
  const writeFile = (lvl: Level, lines: string[]): void => {
    if (!fileOk || !opts.file) return;
    const ts = timestamp();
    const text = lines
      .map((l) => `${ts}\t${process.pid}\t${LEVEL_NAMES[lvl]}\t${opts.category}\t${opts.sourceFile}\t${l}\n`)
      .join('');
    try {
      appendFileSync(opts.file, text, opts.mode === undefined ? undefined : { mode: opts.mode });
    } catch {
      fileOk = false;
    }
  };
  return {
    file: opts.file,
    log(lvl, message, o = {}) {
      const lines = message.split('\n');
      writeFile(lvl, lines);
      if (!opts.console || (o.quiet && level < 1)) return;
      const ts = timestamp();
      const colour = colourOn ? (o.colour ?? COLOURS[lvl]) : undefined;
      const out = lines
        .map((l) => {
          const line = `${ts}\t${lvl} ${l}`;
          return colour ? `${colour}${line}\x1b[0m` : line;
        })
        .join('\n');
      process.stdout.write(out + '\n');
    },
    plain(text) {
      process.stdout.write(text + '\n');
    },
  };
}

/** The yellow colour the daemon uses for its offline banner. */
export const YELLOW = '\x1b[1;33m';
