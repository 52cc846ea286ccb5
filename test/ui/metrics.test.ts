// The explorer's metrics view from the metrics registry's JSON: a histogram's quantiles as Prometheus'
// histogram_quantile gives them, the slowest RPC methods by their mean, and the points kept (one per reading, at most
// one reading a second however many pages ask, the last POINTS only).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { metricsSeries, POINTS, quantile, summarizeMetrics, type MetricJson } from '../../harness/ui/metrics.js';

describe('quantile', () => {
  it('interpolates within the bucket the rank falls in, and says null for no observation', () => {
    // 10 observations: 4 up to 1 s, 4 more up to 2 s, 2 more up to 5 s.
    const b: [number, number][] = [
      [1, 4],
      [2, 8],
      [5, 10],
      [Infinity, 10],
    ];
    expect(quantile(0.5, b)).toBeCloseTo(1.25);
    expect(quantile(0.9, b)).toBeCloseTo(3.5);
    expect(quantile(0.2, b)).toBeCloseTo(0.5);
    expect(
      quantile(0.5, [
        [1, 0],
        [Infinity, 0],
      ]),
    ).toBeNull();
    // Beyond the largest finite bound: that bound.
    expect(
      quantile(0.99, [
        [1, 1],
        [Infinity, 5],
      ]),
    ).toBe(1);
  });
});

/** A registry with the metrics' names, as harness/metrics/registry.ts makes them. */
function registry(): { r: Registry; height: Gauge<'node'>; rpc: Histogram<'server' | 'method'>; conf: Histogram } {
  const r = new Registry();
  const registers = [r];
  const height = new Gauge({ name: 'saltnet_height', help: 'h', labelNames: ['node'], registers });
  new Gauge({ name: 'saltnet_transactions_per_second', help: 't', registers }).set(0.5);
  new Counter({ name: 'saltnet_transactions_mined_total', help: 'm', registers }).inc(3);
  const conf = new Histogram({ name: 'saltnet_confirmation_seconds', help: 'c', buckets: [1, 2, 5], registers });
  new Histogram({ name: 'saltnet_confirmation_blocks', help: 'b', buckets: [1, 2], registers });
  const rpc = new Histogram({
    name: 'saltnet_rpc_request_seconds',
    help: 'r',
    labelNames: ['server', 'method'],
    buckets: [0.01, 0.1, 1],
    registers,
  });
  return { r, height, rpc, conf };
}

describe('summarizeMetrics', () => {
  it('gives the confirmation quantiles and the slowest methods first', async () => {
    const { r, rpc, conf } = registry();
    for (const s of [0.5, 0.5, 1.5, 4]) conf.observe(s);
    rpc.observe({ server: 'daemon', method: 'get_info' }, 0.005);
    rpc.observe({ server: 'wallet', method: 'transfer' }, 0.5);
    rpc.observe({ server: 'wallet', method: 'transfer' }, 0.7);
    const s = summarizeMetrics((await r.getMetricsAsJSON()) as MetricJson[]);
    expect(s.confirmation).toMatchObject({ count: 4, p50: 1 });
    expect(s.confirmation.blocks).toEqual({ count: 0, p50: null, p90: null, p99: null });
    expect(s.rpc.map((m) => [m.method, m.count])).toEqual([
      ['transfer', 2],
      ['get_info', 1],
    ]);
    expect(s.rpc[0]!.mean).toBeCloseTo(0.6);
  });
});

describe('metricsSeries', () => {
  it('reads at most once a second, keeps a point per reading and the last POINTS only', async () => {
    const { r, height } = registry();
    let now = 1_000_000;
    let reads = 0;
    const series = metricsSeries(
      async () => {
        reads++;
        height.set({ node: 'n0' }, 1000 + reads);
        return (await r.getMetricsAsJSON()) as MetricJson[];
      },
      () => now,
    );
    const first = await series.view();
    expect(await series.view()).toBe(first);
    expect(reads).toBe(1);
    expect(first.points).toEqual([{ at: now, height: { n0: 1001 }, pool: {}, tps: 0.5, mined: 3 }]);
    for (let i = 0; i < POINTS + 5; i++) {
      now += 1000;
      await series.view();
    }
    const last = await series.view();
    expect(last.points).toHaveLength(POINTS);
    expect(last.points.at(-1)!.height.n0).toBe(1000 + reads);
    expect(last.points[0]!.at).toBe(now - (POINTS - 1) * 1000);
  });
});
