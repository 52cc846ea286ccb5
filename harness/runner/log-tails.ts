// The last lines of each program's log worth reading under a failed scenario: what the programs
// said around the failure, with the miner's `Found block` lines folded into one line per run of them
// (how many, which heights), without the daemon's banner or the wallet CLI that restored a wallet
// before the scenario started — and never a key. The lines are read from the end of the program's
// log file, not its in-memory tail: a long mine leaves thousands of `Found block` lines, and the
// lines before them are what says something.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { clipLine } from '../process/errors.js';
import type { ManagedProcess } from '../process/managed.js';

/** A miner's block, with its height. */
const FOUND = /\bFound block <[0-9a-f]+> at height (\d+)\b/;

/** Lines that say nothing about a failure. */
const NOISE = [
  /\bMiner thread (?:was )?(?:started|stopped)\b/,
  /\bmining (?:started|stopped|has stopped)\b/i,
  /^(?:[\d-]+ [\d:.]+\s+\w\s*)?\**\s*$/,
  /The daemon is running offline and will not attempt to sync|set_log <level\|categories>|where <level> is between 0|Use the "help" command|Use "help <command>"/,
];

/** A key printed by a wallet program (`View key: …`, `Spend key: …`, `secret …`). */
const KEY = /\b((?:view|spend|secret)[ _]?key\s*[:=]\s*)[0-9a-f]{64}\b/gi;

/** How much of the end of a log file is read for its tail. */
const TAIL_BYTES = 1024 * 1024;

/** The line that stands for a run of `Found block` lines (other noise between them does not end the run). */
function foldedBlocks(count: number, first: string, last: string): string {
  const heights = first === last ? `height ${first}` : `heights ${first}–${last}`;
  return `[saltnet: ${count} × Found block, ${heights}]`;
}

export function meaningfulLines(lines: readonly string[], n: number): string[] {
  const out: string[] = [];
  let run: { count: number; first: string; last: string } | undefined;
  for (const l of lines) {
    const found = FOUND.exec(l);
    if (found) {
      const h = found[1]!;
      run = run ? { ...run, count: run.count + 1, last: h } : { count: 1, first: h, last: h };
      continue;
    }
    if (NOISE.some((re) => re.test(l))) continue;
    if (run) out.push(foldedBlocks(run.count, run.first, run.last));
    run = undefined;
    out.push(clipLine(l.replace(KEY, '$1***')));
  }
  if (run) out.push(foldedBlocks(run.count, run.first, run.last));
  return out.slice(-n);
}

/** The whole lines within the last `bytes` of a file; undefined if it cannot be read. */
export function fileTail(file: string, bytes = TAIL_BYTES): string[] | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    // one byte before the window: whether its first line starts there
    const start = Math.max(0, size - bytes - 1);
    const buf = Buffer.alloc(size - start);
    const read = readSync(fd, buf, 0, buf.length, start);
    const lines = buf.subarray(0, read).toString('utf8').split('\n');
    if (start > 0) lines.shift();
    if (lines.at(-1) === '') lines.pop();
    return lines;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The tails of the programs that serve the scenario (the wallet CLIs that built the state are left out): from the end
 * of each one's log file, else (no file) from its in-memory tail.
 */
export function logTails(
  processes: Iterable<Pick<ManagedProcess, 'name' | 'tail'> & { logFile?: string }>,
  n = 12,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of processes) {
    if (p.name.startsWith('wallet-cli')) continue;
    const lines = (p.logFile !== undefined ? fileTail(p.logFile) : undefined) ?? p.tail(400);
    out[p.name] = meaningfulLines(lines, n);
  }
  return out;
}
