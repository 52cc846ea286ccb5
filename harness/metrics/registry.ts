// The metrics of one testnet, in a prom-client registry of its own (never the global default registry: a process may
// hold several testnets, the vitest pool's for one): what each metric is, its labels and buckets. The sampler
// (sampler.ts) sets the chain's; the RPC latency is observed as the harness's clients answer (rpc-latency.ts); the
// restarts are read from the testnet's crashes at each scrape.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Testnet } from '../testnet/types.js';

export interface TestnetMetrics {
  registry: Registry;
  height: Gauge<'node'>;
  pool: Gauge<'node'>;
  tps: Gauge;
  mined: Counter;
  confirmationSeconds: Histogram;
  confirmationBlocks: Histogram;
  rpcSeconds: Histogram<'server' | 'method'>;
  scanLag: Gauge<'wallet'>;
}

/** The window `saltnet_transactions_per_second` averages over, in seconds. */
export const TPS_WINDOW_S = 60;

/** Every metric of `t`, registered in a registry of its own. */
export function testnetMetrics(t: Testnet): TestnetMetrics {
  const registry = new Registry();
  const registers = [registry];
  new Counter({
    name: 'saltnet_program_restarts_total',
    help: 'Restarts of a program of the testnet after it crashed',
    labelNames: ['program'],
    registers,
    collect() {
      this.reset();
      for (const c of t.crashes()) if (c.restart > 0) this.inc({ program: c.program });
    },
  });
  return {
    registry,
    height: new Gauge({
      name: 'saltnet_height',
      help: "The node's chain height (its block count)",
      labelNames: ['node'],
      registers,
    }),
    pool: new Gauge({
      name: 'saltnet_pool_transactions',
      help: "Transactions in the node's pool",
      labelNames: ['node'],
      registers,
    }),
    tps: new Gauge({
      name: 'saltnet_transactions_per_second',
      help: `Transactions mined per second over the last ${TPS_WINDOW_S} s, by the timestamps of n0's blocks`,
      registers,
    }),
    mined: new Counter({
      name: 'saltnet_transactions_mined_total',
      help: "Transactions (besides the miner's) in the blocks n0 added since the metrics were first asked for",
      registers,
    }),
    confirmationSeconds: new Histogram({
      name: 'saltnet_confirmation_seconds',
      help: "Seconds from a transaction first seen in n0's pool to seeing it in a block",
      buckets: [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600],
      registers,
    }),
    confirmationBlocks: new Histogram({
      name: 'saltnet_confirmation_blocks',
      help: "Blocks from a transaction first seen in n0's pool to its block (1: the next block)",
      buckets: [1, 2, 3, 5, 10, 20, 50],
      registers,
    }),
    rpcSeconds: new Histogram({
      name: 'saltnet_rpc_request_seconds',
      help: "Seconds the harness's own RPC clients waited for an answer, by server (daemon, wallet) and method",
      labelNames: ['server', 'method'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    scanLag: new Gauge({
      name: 'saltnet_wallet_scan_lag_blocks',
      help: "The wallet's node's height minus the wallet's (blocks it has yet to scan)",
      labelNames: ['wallet'],
      registers,
    }),
  };
}
