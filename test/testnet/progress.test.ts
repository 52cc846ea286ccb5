// Mining progress in plain lines (CI logs): the first line after 5 s of mining, an ETA only once the
// rate means something (a two-second build printed `ETA 1456s` from its first slow blocks); and told to listeners, once
// per new height.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgress } from '../../harness/testnet/mining/progress.js';
import { startTestnet, type MiningProgress } from '../../harness/testnet/testnet.js';
import { cleanup, tempDir } from '../helpers/sim.js';

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-11-26T00:00:00Z'));
});
afterEach(() => vi.useRealTimers());

it('prints nothing for a build shorter than 5 s, then one line every 5 s', () => {
  const lines: string[] = [];
  const p = createProgress('mining', 0, 1200, 'lines', (l) => lines.push(l));
  vi.advanceTimersByTime(100);
  p.update(1);
  vi.advanceTimersByTime(1900);
  p.update(40);
  expect(lines).toEqual([]);
  vi.advanceTimersByTime(3500);
  p.update(600);
  expect(lines).toHaveLength(1);
  vi.advanceTimersByTime(1000);
  p.update(700);
  expect(lines).toHaveLength(1);
});

it('shows no ETA before 3 s and 5 blocks; then the remaining blocks at the rate so far', () => {
  const lines: string[] = [];
  const p = createProgress('mining', 0, 1000, 'lines', (l) => lines.push(l));
  vi.advanceTimersByTime(5000);
  p.update(3);
  expect(lines[0]).toMatch(/height 3\/1000 .* ETA \?$/);
  vi.advanceTimersByTime(5000);
  p.update(500);
  // 500 blocks in 10 s: 50 blocks/s, 500 to go
  expect(lines[1]).toBe('mining: height 500/1000 (50%), 50.0 blocks/s, ETA 10s');
});

describe('progress told to listeners (Testnet.onProgress, TestnetOptions.onProgress)', () => {
  it('each new height of a mining job once, with its start and target, to both', async () => {
    vi.useRealTimers();
    const cacheDir = tempDir('saltnet-progress-');
    const fromStart: MiningProgress[] = [];
    const t = await startTestnet({
      backend: 'sim',
      progress: 'none',
      trapSignals: false,
      log: () => undefined,
      cacheDir,
      onProgress: (p) => fromStart.push(p),
    });
    try {
      const heard: MiningProgress[] = [];
      const off = t.onProgress((p) => heard.push(p));
      const start = await t.height();
      const end = await t.mine(3);
      off();
      await t.mine(1);
      const blocks = heard.filter((p) => p.event === 'block');
      // The simulated daemon's miner is polled many times a block: each height is told once, in order (a poll may see
      // two new blocks at once on a loaded machine: the first told is above the start, not always start + 1).
      const heights = blocks.map((p) => p.height);
      expect(heights.length).toBeGreaterThan(0);
      expect(heights).toEqual([...new Set(heights)].sort((a, b) => a - b));
      expect(heights[0]).toBeGreaterThan(start);
      expect(heights.at(-1)).toBeGreaterThanOrEqual(end);
      expect(blocks.every((p) => p.start === start && p.target === start + 3 && p.node === 'n0')).toBe(true);
      // Unsubscribed: the last block was not told to it; the listener given at the start heard both jobs.
      expect(heard.some((p) => p.event === 'block' && p.target === end + 1)).toBe(false);
      expect(fromStart.filter((p) => p.event === 'block' && p.target === end + 1).length).toBeGreaterThan(0);
    } finally {
      await t.stop();
      cleanup(cacheDir);
    }
  });
});
