// What `saltnet mine` and `fund` say of the testnet's mining progress (harness/cli/progress-lines.ts).
import { describe, expect, it, vi } from 'vitest';
import { progressPrinter, progressWords } from '../../harness/cli/progress-lines.js';
import type { MiningProgress } from '../../harness/testnet/types.js';

const block = (height: number, ms: number): MiningProgress => ({
  event: 'block',
  node: 'n0',
  height,
  start: 1201,
  target: 1211,
  ms,
});

describe('progress in words', () => {
  it('a block: its place in the job, the height, and an estimate from the pace so far', () => {
    expect(progressWords(block(1204, 3000))).toBe('block 3 of 10 (height 1204), ETA 7s');
    // The last block: no estimate; a block past the target (another node's) counts as the last.
    expect(progressWords(block(1211, 9000))).toBe('block 10 of 10 (height 1211)');
    expect(progressWords(block(1212, 9000))).toBe('block 10 of 10 (height 1212)');
  });

  it('the dataset: loaded, or built with its share done and an estimate', () => {
    expect(progressWords({ event: 'dataset', state: 'building', percent: 64, etaMs: 10_200 })).toBe(
      "waiting for RandomX's dataset: 64% built, ETA 11s (built once per machine)",
    );
    expect(progressWords({ event: 'dataset', state: 'loading', percent: 100, etaMs: 1000 })).toBe(
      "loading RandomX's dataset from the cache folder",
    );
  });
});

describe('the printer', () => {
  it('with --json, every event as a JSON line', () => {
    const lines: string[] = [];
    const print = progressPrinter('mine', { json: true, terminal: false, write: (l) => lines.push(l) });
    print(block(1202, 900));
    print(block(1203, 1800));
    expect(lines.map((l) => JSON.parse(l))).toEqual([block(1202, 900), block(1203, 1800)]);
  });

  it('on a terminal at most a line a second, in a log at most one every five', () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const tty: string[] = [];
      const log: string[] = [];
      const onTty = progressPrinter('fund', { json: false, terminal: true, write: (l) => tty.push(l) });
      const inLog = progressPrinter('fund', { json: false, terminal: false, write: (l) => log.push(l) });
      for (let i = 1; i <= 10; i++) {
        vi.setSystemTime(i * 700);
        onTty(block(1201 + i, i * 700));
        inLog(block(1201 + i, i * 700));
      }
      // 7 s in all: lines at 1.4, 2.8, 4.2, 5.6 and 7.0 s on a terminal; one at 5.6 s in a log.
      expect(tty).toHaveLength(5);
      expect(tty[0]).toBe('saltnet: fund: block 2 of 10 (height 1203), ETA 6s');
      expect(log).toEqual(['saltnet: fund: block 8 of 10 (height 1209), ETA 2s']);
    } finally {
      vi.useRealTimers();
    }
  });
});
