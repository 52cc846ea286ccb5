// writeOutputFile: a report is written atomically into a file, but a named pipe (or a device such as
// /dev/stdout) given as the output is written into, never replaced by a file.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, readSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { writeOutputFile } from '../../harness/common/output-file.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const dir = tempDir('saltnet-output-file-');
afterAll(() => cleanup(dir));

it('writes into a named pipe that is read, and the pipe stays a pipe', () => {
  const fifo = join(dir, 'report.fifo');
  execFileSync('mkfifo', [fifo]);
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    writeOutputFile('--output', fifo, '<testsuites/>\n');
    const buf = Buffer.alloc(100);
    const n = readSync(reader, buf);
    expect(buf.subarray(0, n).toString()).toBe('<testsuites/>\n');
  } finally {
    closeSync(reader);
  }
  expect(statSync(fifo).isFIFO()).toBe(true);
});

it('refuses at once a named pipe that nothing reads, naming it, and leaves it a pipe', () => {
  const fifo = join(dir, 'unread.fifo');
  execFileSync('mkfifo', [fifo]);
  expect(() => writeOutputFile('--output', fifo, 'x')).toThrow(
    `--output ${fifo}: cannot write the report (it is a named pipe that nothing reads)`,
  );
  expect(statSync(fifo).isFIFO()).toBe(true);
});

it('replaces a file, and a link to a file, without touching what the link points at', () => {
  const file = join(dir, 'r.xml');
  writeOutputFile('--output', file, 'one');
  writeOutputFile('--output', file, 'two');
  expect(readFileSync(file, 'utf8')).toBe('two');
  const elsewhere = join(dir, 'elsewhere.txt');
  writeFileSync(elsewhere, 'kept');
  const link = join(dir, 'link.xml');
  symlinkSync(elsewhere, link);
  writeOutputFile('--output', link, 'report');
  expect(readFileSync(elsewhere, 'utf8')).toBe('kept');
  expect(readFileSync(link, 'utf8')).toBe('report');
});
