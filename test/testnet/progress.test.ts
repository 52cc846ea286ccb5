// Mining progress in plain lines (CI logs): the first line after 5 s of mining, an ETA only once the
// rate means something (a two-second build printed `ETA 1456s` from its first slow blocks).
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createProgress } from '../../harness/testnet/mining/progress.js';

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
