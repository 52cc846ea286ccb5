// A program's output as lines: split (a partial line kept until its newline), cleaned of terminal
// control sequences and redrawn progress, and matched against the patterns a wait looks for.
import { StringDecoder } from 'node:string_decoder';
import { stripVTControlCharacters } from 'node:util';
import type { TextPattern } from './process-types.js';

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

export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  partial = '';
  /** Bumped by every chunk. */
  version = 0;
  /** The version at which a wait last matched the unterminated line (a prompt already answered). */
  consumed = 0;
  constructor(private readonly emit: (lines: string[]) => void) {}
  push(chunk: Buffer | string): void {
    this.version++;
    const text = this.partial + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    if (parts.length) this.emit(parts);
  }
  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest.length) this.emit([rest]);
  }
}
