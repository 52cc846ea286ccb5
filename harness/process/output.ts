// A program's output as lines: split (a partial line kept until its newline), cleaned of terminal
// control sequences and redrawn progress, and matched against the patterns a wait looks for.
import { StringDecoder } from 'node:string_decoder';
import { stripVTControlCharacters } from 'node:util';

export type TextPattern = RegExp | string;

export function describePattern(p: TextPattern | readonly TextPattern[]): string {
  const list = Array.isArray(p) ? p : [p];
  return list.map((x) => (typeof x === 'string' ? JSON.stringify(x) : String(x))).join(' or ');
}

export function matcher(p: TextPattern | readonly TextPattern[]): (line: string) => boolean {
  const list: TextPattern[] = Array.isArray(p) ? [...p] : [p as TextPattern];
  if (list.length === 0) throw new Error('waitForText: no pattern');
  // A global or sticky RegExp keeps state between test() calls: match with a fresh copy.
  const tests = list.map((x) => {
    if (typeof x === 'string') return (line: string) => line.includes(x);
    const re = x.global || x.sticky ? new RegExp(x.source, x.flags.replace(/[gy]/g, '')) : x;
    return (line: string) => re.test(line);
  });
  return (line) => tests.some((t) => t(line));
}

export function cleanLine(raw: string): string {
  let line = stripVTControlCharacters(raw);
  if (line.endsWith('\r')) line = line.slice(0, -1);
  // A carriage return redraws the line (progress bars): keep what is left visible.
  const cr = line.lastIndexOf('\r');
  if (cr >= 0) line = line.slice(cr + 1);
  return line;
}

/**
 * The longest line of a program's output that is kept (in its log, its tail, for the waits): the rest of a longer line
 * is dropped as it arrives, and the line says how much. A program that prints megabytes without a newline then costs
 * neither memory nor time (each chunk is scanned once).
 */
export const MAX_LINE_CHARS = 64 * 1024;

export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  /** The unterminated line so far (at most MAX_LINE_CHARS). */
  partial = '';
  /** Characters of the unterminated line dropped beyond MAX_LINE_CHARS. */
  private dropped = 0;
  /** Bumped by every chunk. */
  version = 0;
  /** The version at which a wait last matched the unterminated line (a prompt already answered). */
  consumed = 0;
  constructor(private readonly emit: (lines: string[]) => void) {}
  push(chunk: Buffer | string): void {
    this.version++;
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const lines: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      this.add(text.slice(start, nl));
      lines.push(this.take());
      start = nl + 1;
    }
    this.add(text.slice(start));
    if (lines.length) this.emit(lines);
  }
  end(): void {
    this.add(this.decoder.end());
    if (this.partial.length || this.dropped) this.emit([this.take()]);
  }
  private add(s: string): void {
    const room = MAX_LINE_CHARS - this.partial.length;
    if (s.length <= room) this.partial += s;
    else {
      this.partial += s.slice(0, room);
      this.dropped += s.length - room;
    }
  }
  private take(): string {
    const line = this.dropped ? `${this.partial} [… ${this.dropped} more characters not kept]` : this.partial;
    this.partial = '';
    this.dropped = 0;
    return line;
  }
}
