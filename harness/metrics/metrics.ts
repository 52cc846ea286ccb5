// The metrics of a running testnet, in the process that owns it (the control endpoint serves them at GET /metrics,
// `saltnet metrics` prints them): Prometheus' text format, from a prom-client registry of the testnet's own.
//
// How it samples: each ask reads the testnet afresh (so what it answers is now), and from the first ask on the chain
// is read every second for as long as someone asked in the last two minutes (a Prometheus scrape every 15 s or 1 min
// keeps it going; a testnet nobody watches is not read at all). Reading only at each ask would miss most transactions
// between two scrapes — one mined within a scrape interval is never seen in the pool — and the confirmation times
// would be a scrape interval coarse; a second is what one poll of each node and wallet costs little at.
import { Registry, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { Testnet } from '../testnet/types.js';
import { testnetMetrics, type TestnetMetrics } from './registry.js';
import { observeRpcLatency } from './rpc-latency.js';
import { ChainSampler } from './sampler.js';

/** The chain is read this often while someone watches. */
const POLL_MS = 1000;
/** It stops being read this long after the last ask. */
const IDLE_MS = 120_000;

/** The content type of the text: Prometheus' text exposition format, version 0.0.4. */
export const METRICS_CONTENT_TYPE: string = Registry.PROMETHEUS_CONTENT_TYPE;

export interface MetricsReading {
  /** In Prometheus' text format (METRICS_CONTENT_TYPE). */
  text: string;
  /** The same metrics as prom-client's JSON (for `saltnet metrics --json`). */
  metrics: MetricObjectWithValues<MetricValue<string>>[];
}

class Watched {
  private readonly sampler: ChainSampler;
  private readonly stopRpc: () => void;
  private timer: NodeJS.Timeout | undefined;
  private lastAsked = 0;
  private underway: Promise<void> | undefined;

  constructor(
    private readonly m: TestnetMetrics,
    t: Testnet,
  ) {
    this.sampler = new ChainSampler(t, m);
    this.stopRpc = observeRpcLatency(t, m);
  }

  async read(): Promise<MetricsReading> {
    this.lastAsked = Date.now();
    this.timer ??= setInterval(() => this.tick(), POLL_MS).unref();
    // A sample under way began before this ask: wait it out, then read afresh.
    await this.underway?.catch(() => undefined);
    await this.sampleOnce();
    return {
      text: await this.m.registry.metrics(),
      metrics: await this.m.registry.getMetricsAsJSON(),
    };
  }

  private tick(): void {
    if (Date.now() - this.lastAsked > IDLE_MS) {
      clearInterval(this.timer);
      this.timer = undefined;
    } else if (!this.underway) this.sampleOnce().catch(() => undefined);
  }

  /** One sample at a time: an ask during one joins it. */
  private sampleOnce(): Promise<void> {
    this.underway ??= this.sampler.sample().finally(() => (this.underway = undefined));
    return this.underway;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.stopRpc();
    await this.underway?.catch(() => undefined);
    await this.sampler.close();
  }
}

const watched = new WeakMap<Testnet, Watched>();

function watch(t: Testnet): Watched {
  let w = watched.get(t);
  if (!w) watched.set(t, (w = new Watched(testnetMetrics(t), t)));
  return w;
}

/**
 * Begin the testnet's metrics without reading it: the RPC latency is observed from now on (the chain is first read at
 * the first ask). `saltnet up` begins them as the testnet is ready; otherwise they begin at the first ask.
 */
export function beginMetrics(t: Testnet): void {
  watch(t);
}

/** The testnet's metrics now. */
export function readMetrics(t: Testnet): Promise<MetricsReading> {
  return watch(t).read();
}

/** Stop reading the testnet and observing its RPC latency (when it stops). */
export async function endMetrics(t: Testnet): Promise<void> {
  const w = watched.get(t);
  watched.delete(t);
  await w?.close();
}
