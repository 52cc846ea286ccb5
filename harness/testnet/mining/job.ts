// A mining job: where blocks are paid (the CN address below the Carrot height, the Carrot address from it), the
// options every way of mining takes, and the wait for the pool's transactions to be minable.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DaemonClient } from '../../rpc/daemon.js';
import type { BackendSpec } from '../../coin/backends.js';
import type { RandomxLib } from '../../randomx/library.js';
import type { DatasetStatus, ModeChoice, RandomxMiner } from '../../randomx/miner.js';
import type { Progress } from './progress.js';

/** saltnet hashes the blocks itself: the library, the folder of datasets, and how a job picks its mode. */
export interface BlockHasher {
  lib: RandomxLib;
  dir: string;
  choice: ModeChoice;
}

export interface MiningAddresses {
  cn: string;
  carrot?: string;
}

export interface MineOptions {
  spec: BackendSpec;
  addresses: MiningAddresses;
  threads?: number;
  /**
   * Height poll interval right after a block (default: the backend's heightPollMs, else 5 ms: real Salvium mines ~5-10
   * blocks/s at difficulty 1); it backs off while no block comes (see pollDelay).
   */
  pollMs?: number;
  timeoutMs: number;
  progress?: Progress;
  /** Aborted when a process of the testnet dies, or its caller gives up: mining stops at once with that reason. */
  signal?: AbortSignal;
  /** How long /start_mining may answer BUSY before mining fails (default BUSY_MS). */
  busyMs?: number;
  /** Told why the chain ends above the target when the blocks past it could not be popped. */
  warn?: (line: string) => void;
  /** saltnet hashes the blocks itself (get_block_template, submit_block); undefined: the daemon's own miner. */
  hasher?: BlockHasher;
  /** Told once per job that it waits for the RandomX dataset (its state then). */
  onDataset?: (state: DatasetStatus, miner: RandomxMiner) => void;
}

export class MiningError extends Error {}

/** The address to send to on a chain of this height: Carrot from the Carrot height, CN before (and on Monero). */
export function addressAt(spec: BackendSpec, a: MiningAddresses, height: number): string {
  return spec.carrotHeight !== undefined && a.carrot && height >= spec.carrotHeight ? a.carrot : a.cn;
}

export function miningAddress(spec: BackendSpec, a: MiningAddresses, height: number): string {
  if (spec.carrotHeight !== undefined && height >= spec.carrotHeight) {
    if (!a.carrot) throw new MiningError(`height ${height} needs a Carrot address to mine to, and the wallet has none`);
    return a.carrot;
  }
  return a.cn;
}

/**
 * Wait, at most `maxMs`, until the daemon has relayed every transaction of its pool: one submitted a moment ago may not
 * be minable yet (see BackendSpec.relaySettleMs). A pool of settled transactions costs one request; a daemon that does
 * not answer is left to the mining that follows.
 */
export async function settleRelay(daemon: DaemonClient, maxMs: number): Promise<void> {
  const end = Date.now() + maxMs;
  while (Date.now() < end) {
    try {
      if ((await daemon.unrelayed()).length === 0) return;
    } catch {
      return;
    }
    await sleep(10);
  }
}
