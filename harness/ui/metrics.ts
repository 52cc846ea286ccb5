// The explorer's metrics view (api/metrics): the testnet's metrics (harness/metrics, the registry `saltnet metrics`
// prints) read at most once a second while a page asks, each reading kept as a point of a ring buffer of the last
// POINTS (height per node, pool size per node, transactions per second, transactions mined), with what the last
// reading says now: the confirmation latency's quantiles from its histogram, the slowest RPC methods by their mean,
// each program's restarts and each wallet's scan lag. The explorer gets the reading from whoever starts it (a layer
// above both: operations/ui.ts), so that ui/ does not import metrics/.

/** One metric as prom-client's getMetricsAsJSON gives it. */
export interface MetricJson {
  name: string;
  values: { value: number; labels: Partial<Record<string, string | number>>; metricName?: string }[];
}

export type MetricsReader = () => Promise<MetricJson[]>;

/** One reading, as the charts draw it. */
export interface MetricsPoint {
  /** When it was read (ms since the epoch). */
  at: number;
  height: Record<string, number>;
  pool: Record<string, number>;
  tps: number;
  mined: number;
}

export interface Quantiles {
  count: number;
  /** Seconds; null while nothing was observed. */
  p50: number | null;
  p90: number | null;
  p99: number | null;
}

export interface RpcMethodView {
  server: string;
  method: string;
  count: number;
  /** Mean seconds. */
  mean: number;
  p90: number | null;
}

export interface MetricsView {
  points: MetricsPoint[];
  confirmation: Quantiles & { blocks: Quantiles };
  /** The slowest methods by their mean, slowest first. */
  rpc: RpcMethodView[];
  restarts: Record<string, number>;
  scanLag: Record<string, number>;
}

/** The points kept: five minutes at one a second. */
export const POINTS = 300;
/** The slowest RPC methods shown. */
const RPC_SHOWN = 8;
/** A page asking sooner than this after the last reading gets that reading again. */
const MIN_INTERVAL_MS = 900;

const byName = (ms: MetricJson[], name: string): MetricJson['values'] => ms.find((m) => m.name === name)?.values ?? [];

const perLabel = (values: MetricJson['values'], label: string): Record<string, number> =>
  Object.fromEntries(values.map((v) => [String(v.labels[label]), v.value]));

/**
 * The q-quantile of a histogram from its cumulative buckets ([upper bound, count]), as Prometheus' histogram_quantile:
 * linear within the bucket the rank falls in (`whole`: its upper bound); in the +Inf bucket, the largest finite bound.
 * Null for no observation.
 */
export function quantile(q: number, buckets: [number, number][], o: { whole?: boolean } = {}): number | null {
  const sorted = [...buckets].sort((a, b) => a[0] - b[0]);
  const total = sorted.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let [lower, below] = [0, 0];
  for (const [bound, count] of sorted) {
    if (count >= rank) {
      if (bound === Infinity) return lower;
      // Whole numbers (blocks): the bucket's bound, not a fraction of a block.
      if (o.whole || count === below) return bound;
      return lower + ((bound - lower) * (rank - below)) / (count - below);
    }
    [lower, below] = [bound, count];
  }
  return lower;
}

/** A histogram's series by the labels besides `le`: its cumulative buckets, count and sum. */
function histograms(values: MetricJson['values'], name: string) {
  const series = new Map<
    string,
    { labels: Record<string, string>; buckets: [number, number][]; count: number; sum: number }
  >();
  for (const v of values) {
    const { le, ...rest } = v.labels;
    const labels = Object.fromEntries(Object.entries(rest).map(([k, x]) => [k, String(x)]));
    const key = JSON.stringify(labels);
    let s = series.get(key);
    if (!s) series.set(key, (s = { labels, buckets: [], count: 0, sum: 0 }));
    if (v.metricName === `${name}_bucket`) s.buckets.push([le === '+Inf' ? Infinity : Number(le), v.value]);
    else if (v.metricName === `${name}_count`) s.count = v.value;
    else if (v.metricName === `${name}_sum`) s.sum = v.value;
  }
  return [...series.values()];
}

function quantiles(ms: MetricJson[], name: string, whole = false): Quantiles {
  const h = histograms(byName(ms, name), name)[0];
  const b = h?.buckets ?? [];
  const at = (q: number): number | null => quantile(q, b, { whole });
  return { count: h?.count ?? 0, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

/** What one reading of the metrics says now (its point aside). */
export function summarizeMetrics(ms: MetricJson[]): Omit<MetricsView, 'points'> {
  const rpc = histograms(byName(ms, 'saltnet_rpc_request_seconds'), 'saltnet_rpc_request_seconds')
    .filter((s) => s.count > 0)
    .map((s) => ({
      server: s.labels.server ?? '',
      method: s.labels.method ?? '',
      count: s.count,
      mean: s.sum / s.count,
      p90: quantile(0.9, s.buckets),
    }))
    .sort((a, b) => b.mean - a.mean)
    .slice(0, RPC_SHOWN);
  return {
    confirmation: {
      ...quantiles(ms, 'saltnet_confirmation_seconds'),
      blocks: quantiles(ms, 'saltnet_confirmation_blocks', true),
    },
    rpc,
    restarts: perLabel(byName(ms, 'saltnet_program_restarts_total'), 'program'),
    scanLag: perLabel(byName(ms, 'saltnet_wallet_scan_lag_blocks'), 'wallet'),
  };
}

export function pointOf(ms: MetricJson[], at: number): MetricsPoint {
  return {
    at,
    height: perLabel(byName(ms, 'saltnet_height'), 'node'),
    pool: perLabel(byName(ms, 'saltnet_pool_transactions'), 'node'),
    tps: byName(ms, 'saltnet_transactions_per_second')[0]?.value ?? 0,
    mined: byName(ms, 'saltnet_transactions_mined_total')[0]?.value ?? 0,
  };
}

export interface MetricsSeries {
  /** The points so far and what the latest reading says (a reading at most once per MIN_INTERVAL_MS). */
  view(): Promise<MetricsView>;
}

export function metricsSeries(read: MetricsReader, now: () => number = Date.now): MetricsSeries {
  const points: MetricsPoint[] = [];
  let last: { at: number; view: Promise<MetricsView> } | undefined;
  const take = async (at: number): Promise<MetricsView> => {
    const ms = await read();
    points.push(pointOf(ms, at));
    if (points.length > POINTS) points.splice(0, points.length - POINTS);
    return { points: [...points], ...summarizeMetrics(ms) };
  };
  return {
    view() {
      const at = now();
      if (!last || at - last.at >= MIN_INTERVAL_MS) {
        const current = { at, view: take(at) };
        last = current;
        // A failed reading is not kept: the next ask reads again.
        current.view.catch(() => {
          if (last === current) last = undefined;
        });
      }
      return last.view;
    },
  };
}
