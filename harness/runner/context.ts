// What the two ways of running scenarios (own-testnets.ts, and the shared runs of run-scenarios.ts) share:
// the run's context, the worker pool that spreads scenarios over workers, and funding one wallet
// of a testnet from another.
import pMap, { pMapSkip } from 'p-map';
import type { BackendSpec } from '../coin/backends.js';
import { fundFromWallet } from '../testnet/mining/funding.js';
import { fundWallet } from '../testnet/mining/mining.js';
import type { Testnet, TestnetOptions, WalletHandle } from '../testnet/testnet.js';
import type { RunnerOptions } from './options.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioResult } from '../scenario/types.js';

/**
 * What runFresh and runShared share: the run's options, the testnet options of every start, and the bail bookkeeping.
 */
export interface RunContext {
  o: RunnerOptions;
  base: TestnetOptions;
  stop: () => boolean;
  record: (r: ScenarioResult) => ScenarioResult;
  skipped: (s: Scenario, backend: string, why: string) => ScenarioResult;
  /** The backend's spec, resolved once for the whole run (rejects with what resolveBackend threw). */
  spec: Promise<BackendSpec>;
}

/**
 * Transfer `amount` of `asset` from one wallet of the testnet to another and wait until it is unlocked there (blocks
 * mined meanwhile go to the main wallet).
 */
export async function payBetweenWallets(
  t: Testnet,
  from: WalletHandle,
  to: WalletHandle,
  asset: string | undefined,
  amount: bigint,
): Promise<void> {
  await fundFromWallet({
    daemon: t.daemon.client,
    spec: t.backend.spec,
    from: from.client,
    to,
    minerAddresses: t.miner.addresses,
    amount,
    threads: t.mining.threads,
    ...(asset ? { asset } : {}),
  });
}

/** Wait until `to` holds `amount` of `asset` unlocked (funded ahead: mining only if it does not yet). */
export async function waitUnlocked(
  t: Testnet,
  to: WalletHandle,
  asset: string | undefined,
  amount: bigint,
): Promise<void> {
  await fundWallet(t.daemon.client, to.client, {
    spec: t.backend.spec,
    addresses: t.miner.addresses,
    timeoutMs: 600_000,
    amount,
    ...(asset ? { asset } : {}),
    threads: t.mining.threads,
  });
}

/**
 * Run `fn` over the items with at most `workers` at once (p-map), and tell it which worker (0-based) runs the item:
 * each worker of a shared run has a testnet of its own. Items not begun once `stop()` holds are left out.
 */
export function workerPool<T, R>(
  items: T[],
  workers: number,
  fn: (item: T, index: number, worker: number) => Promise<R>,
  stop: () => boolean,
): Promise<R[]> {
  const n = Math.max(1, Math.min(workers, items.length));
  // A worker number is free while no item holds it (0 goes first).
  const free = Array.from({ length: n }, (_, i) => n - 1 - i);
  const one = async (item: T, i: number): Promise<R | typeof pMapSkip> => {
    if (stop()) return pMapSkip;
    const worker = free.pop()!;
    try {
      return await fn(item, i, worker);
    } finally {
      free.push(worker);
    }
  };
  return pMap(items, one, { concurrency: n });
}
