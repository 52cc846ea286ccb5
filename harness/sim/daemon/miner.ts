// The simulated miner: produces blocks at difficulty / (hash rate × threads) seconds each,
// and stops itself, like the real one, when it can no longer build a template (CN address at HF10).
import { decodeAddress } from '../crypto/address.js';
import type { SimConfig } from '../common/config.js';
import type { Logger } from '../common/log.js';
import { height, type Ledger } from '../chain/ledger.js';
import { mineBlock, templateError } from '../chain/build.js';
import type { Block } from '../chain/types.js';

export interface MinerDeps {
  ledger: Ledger;
  config: SimConfig;
  log: Logger;
  difficulty: () => bigint;
  onBlock: (block: Block, dropped: string[]) => void;
}

export interface Miner {
  readonly active: boolean;
  readonly address: string;
  readonly threads: number;
  /** Hashes per second over all threads while active. */
  readonly speed: number;
  /** True while a just-stopped miner is still winding down (start attempts fail). */
  readonly stopping: boolean;
  start(address: string, threads: number): void;
  stop(): void;
}

/** At the fast pace, blocks for up to this long in one turn of the event loop (then requests are served). */
const BURST_MS = 5;

function mineNext(deps: MinerDeps, address: string): void {
  const index = height(deps.ledger);
  const difficulty = deps.difficulty();
  const { block, dropped } = mineBlock(deps.ledger, address, Math.floor(Date.now() / 1000), difficulty);
  deps.log.log('I', `Found block <${block.hash}> at height ${index} for difficulty: ${difficulty}`);
  deps.onBlock(block, dropped);
}

/** The time to the next block: none at the fast pace, else difficulty / (rate × threads), jittered if asked. */
function blockDelay(deps: MinerDeps, threads: number): number {
  if (deps.config.pace === 'fast') return 0;
  const rate = deps.config.hashRatePerThread * Math.max(threads, 1);
  const mean = rate > 0 ? (Number(deps.difficulty()) / rate) * 1000 : Number.POSITIVE_INFINITY;
  const ms = deps.config.jitter ? -Math.log(1 - Math.random()) * mean : mean;
  return Math.max(ms, deps.config.minBlockMs);
}

export function createMiner(deps: MinerDeps): Miner {
  let active = false;
  let address = '';
  /** The mining address's family, decoded once per start (decoding checks the keys: not per block). */
  let family: 'cn' | 'carrot' = 'cn';
  let threads = 0;
  /** Cancels the scheduled next block, if any. */
  let cancel: (() => void) | undefined;
  let stoppingUntil = 0;

  /** Below 1 ms a timer would be clamped to 1 ms; the next event-loop turn is as soon as possible. */
  const schedule = (): void => {
    const delay = blockDelay(deps, threads);
    if (delay < 1) {
      const i = setImmediate(tick);
      cancel = () => clearImmediate(i);
    } else {
      const t = setTimeout(tick, delay);
      cancel = () => clearTimeout(t);
    }
  };

  const halt = (): void => {
    cancel?.();
    cancel = undefined;
    for (let i = 0; i < threads; i++) deps.log.log('I', `Miner thread stopped [${i}]`);
    active = false;
  };

  function tick(): void {
    cancel = undefined;
    const until = deps.config.pace === 'fast' ? performance.now() + BURST_MS : 0;
    do mineOne();
    while (active && performance.now() < until);
    if (active) schedule();
  }

  function mineOne(): void {
    if (!active) return;
    const err = templateError(deps.ledger, family);
    if (err) {
      deps.log.log('E', err);
      deps.log.log('E', 'Failed to get_block_template(), stopping mining');
      halt();
      stoppingUntil = Date.now() + deps.config.restartDelayMs;
      return;
    }
    mineNext(deps, address);
  }

  return {
    get active() {
      return active;
    },
    get address() {
      return active ? address : '';
    },
    get threads() {
      return active ? threads : 0;
    },
    get speed() {
      return active ? Math.round(deps.config.hashRatePerThread * threads) : 0;
    },
    get stopping() {
      return Date.now() < stoppingUntil;
    },
    start(addr, n) {
      address = addr;
      family = decodeAddress(addr)?.family ?? 'cn';
      threads = Math.max(1, n);
      active = true;
      for (let i = 0; i < threads; i++) deps.log.log('I', `Miner thread was started [${i}]`);
      schedule();
    },
    stop() {
      if (active) halt();
    },
  };
}
