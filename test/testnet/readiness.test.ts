// A testnet's own programs run on this machine and are reached over loopback: their readiness probes poll often, so
// that the start of `up` does not wait an interval after a program already answers.
import { describe, expect, it } from 'vitest';
import { backendSpec } from '../../harness/coin/backends.js';
import type { ResolvedBackend } from '../../harness/testnet/programs/binaries.js';
import { daemonReadiness } from '../../harness/testnet/programs/daemon.js';
import { walletRpcReadiness } from '../../harness/testnet/programs/wallet-rpc.js';
import type { ReadyStrategy } from '../../harness/process/ready.js';

const probeIntervals = (strategies: ReadyStrategy[]): number[] =>
  strategies.flatMap((s) => (s.kind === 'probe' ? [s.everyMs ?? 200] : []));

describe('readiness of a testnet program', () => {
  it("waits for the daemon's ready line and polls its /get_height at most every 50 ms", () => {
    const be = { spec: backendSpec('sim') } as ResolvedBackend;
    const s = daemonReadiness(be, 'http://127.0.0.1:1');
    expect(s.map((x) => (x.kind === 'log' ? 'log' : x.name))).toEqual(['log', 'get_height']);
    expect(probeIntervals(s)).toHaveLength(1);
    for (const ms of probeIntervals(s)) expect(ms).toBeLessThanOrEqual(50);
  });

  it("waits for the wallet RPC's ready line and polls its /json_rpc at most every 50 ms", () => {
    for (const login of [false, true]) {
      const s = walletRpcReadiness('http://127.0.0.1:1', login);
      expect(s.map((x) => (x.kind === 'log' ? 'log' : x.name))).toEqual(['log', 'json_rpc']);
      expect(probeIntervals(s)).toHaveLength(1);
      for (const ms of probeIntervals(s)) expect(ms).toBeLessThanOrEqual(50);
    }
  });
});
