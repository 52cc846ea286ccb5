// A program's output as lines: a line longer than MAX_LINE_CHARS (a program that prints megabytes
// without a newline) is kept only up to that length, saying how much was not kept; and what a message
// or report shows of a line is cut shorter still.
import { expect, it } from 'vitest';
import { SHOWN_LINE_CHARS, reportLines } from '../../harness/process/errors.js';
import { LineSplitter, MAX_LINE_CHARS } from '../../harness/process/output.js';

function split(chunks: (string | Buffer)[]): { lines: string[]; partials: number[] } {
  const lines: string[] = [];
  const partials: number[] = [];
  const sp = new LineSplitter((l) => lines.push(...l));
  for (const c of chunks) {
    sp.push(c);
    partials.push(sp.partial.length);
  }
  sp.end();
  return { lines, partials };
}

it('splits lines across chunks as written, the unterminated last one at the end', () => {
  expect(split(['a', 'b\nc', 'd\n\ne']).lines).toEqual(['ab', 'cd', '', 'e']);
  expect(split([Buffer.from([0xc3]), Buffer.from([0xa9, 0x0a])]).lines).toEqual(['é']);
});

it('keeps a 4 MB line without a newline up to MAX_LINE_CHARS, saying how much was not kept', () => {
  const chunk = 'x'.repeat(64 * 1024);
  const { lines, partials } = split([...Array.from({ length: 64 }, () => chunk), 'tail\nnext\n']);
  const dropped = 64 * chunk.length + 'tail'.length - MAX_LINE_CHARS;
  expect(lines).toEqual([`${'x'.repeat(MAX_LINE_CHARS)} [… ${dropped} more characters not kept]`, 'next']);
  expect(Math.max(...partials)).toBe(MAX_LINE_CHARS);
});

it('a report shows at most SHOWN_LINE_CHARS of a line', () => {
  const long = 'y'.repeat(SHOWN_LINE_CHARS + 10);
  expect(reportLines(['short', long], 10)).toEqual(['short', `${'y'.repeat(SHOWN_LINE_CHARS)} [… 10 more characters]`]);
});
