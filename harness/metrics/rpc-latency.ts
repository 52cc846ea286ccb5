// The RPC latency of a testnet: every request of the harness's own clients is published on rpc/http.ts's
// diagnostics channel (one place every daemon and wallet request goes through); those to this testnet's daemons and
// wallet RPCs are observed, by server and method. The sampler's own requests are not published (EndpointOptions
// .unobserved): they would swamp what the testnet's work asks.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { RPC_CHANNEL, type RpcObservation } from '../rpc/http.js';
import type { Testnet } from '../testnet/types.js';
import type { TestnetMetrics } from './registry.js';

/** Observe the RPC latency of `t` from now on; returns the function that stops it. */
export function observeRpcLatency(t: Testnet, m: TestnetMetrics): () => void {
  const serverOf = (url: string): 'daemon' | 'wallet' | undefined => {
    if (t.nodes.some((n) => n.url.replace(/\/$/, '') === url)) return 'daemon';
    for (const w of t.wallets().values()) if (w.url.replace(/\/$/, '') === url) return 'wallet';
    return undefined;
  };
  const listener = (message: unknown): void => {
    const o = message as RpcObservation;
    const server = serverOf(o.url);
    if (server) m.rpcSeconds.observe({ server, method: o.method }, o.seconds);
  };
  subscribe(RPC_CHANNEL, listener);
  return () => void unsubscribe(RPC_CHANNEL, listener);
}
