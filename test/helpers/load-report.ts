// What every load's report must hold, on any backend (test/load/load.test.ts on the simulator, test/real/8-load.test.ts
// on the real programs): percentiles in order, confirmations at least a block and some time after the send, a pool
// that ends no larger than its largest, a chain that grew.
import { expect } from 'vitest';
import type { LoadReport } from '../../harness/load/types.js';

export function expectLoadReportConsistent(r: LoadReport): void {
  for (const q of [r.latency.blocks, r.latency.seconds]) {
    expect(q.p50).toBeLessThanOrEqual(q.p90);
    expect(q.p90).toBeLessThanOrEqual(q.p99);
    expect(q.p99).toBeLessThanOrEqual(q.max);
  }
  expect(r.latency.blocks.p50).toBeGreaterThanOrEqual(1);
  expect(r.latency.seconds.p50).toBeGreaterThan(0);
  expect(r.pool.max).toBeGreaterThanOrEqual(r.pool.end);
  expect(r.heights.end).toBeGreaterThan(r.heights.start);
}
