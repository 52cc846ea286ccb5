// The simulated miner: produces blocks at difficulty / (hash rate × threads) seconds each, or at the fast pace as fast
// as the daemon's clients ask about the height (see `requested`), and stops itself, like the real one, when it can no
// longer build a template (CN address at HF10).
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
  /**
   * A client asked where the chain stands (main.ts HEIGHT_POLLS). At the fast pace (`minBlockMs` above 0) the first
   * block comes at once; then a request that comes once the top block has been told (a request before it was
   * answered with it) lets the miner find one more, and one more for every RAMP it found since /start_mining; with
   * none left it waits for such a request, or `minBlockMs` for one block. So a client that polls the height while it
   * mines sees every block and stops the miner at the height it waits for, or a block past it when another client
   * asked meanwhile (about a tenth past it on a long run); the more it polls the faster blocks come.
   */
  requested(): void;
}

/** At the fast pace, blocks for up to this long in one turn of the event loop (then requests are served). */
const BURST_MS = 5;

/** At the fast pace, a request lets the miner find one more block per this many it found since it started. */
const RAMP = 10;

function mineNext(deps: MinerDeps, address: string): void {
  const index = height(deps.ledger);
  const difficulty = deps.difficulty();
  const { block, dropped } = mineBlock(deps.ledger, address, Math.floor(Date.now() / 1000), difficulty);
  deps.log.log('I', `Found block <${block.hash}> at height ${index} for difficulty: ${difficulty}`);
  deps.onBlock(block, dropped);
}

/** The miner cannot build a block template (a CN address from HF10): the real miner's lines, and true. */
function cannotMine(deps: MinerDeps, family: 'cn' | 'carrot'): boolean {
  const err = templateError(deps.ledger, family);
  if (!err) return false;
  deps.log.log('E', err);
  deps.log.log('E', 'Failed to get_block_template(), stopping mining');
  return true;
}

/** The time to the next block at the paced pace: difficulty / (rate × threads), jittered if asked. */
function blockDelay(deps: MinerDeps, threads: number): number {
  const rate = deps.config.hashRatePerThread * Math.max(threads, 1);
  const mean = rate > 0 ? (Number(deps.difficulty()) / rate) * 1000 : Number.POSITIVE_INFINITY;
  const ms = deps.config.jitter ? -Math.log(1 - Math.random()) * mean : mean;
  return Math.max(ms, deps.config.minBlockMs);
}

/** When blocks come: the paced pace's block times, or the fast pace's requests (Miner.requested). */
interface Pace {
  /** Milliseconds to the next block (below 1: the next turn of the event loop). */
  delay(threads: number): number;
  /** A turn of the miner begins. */
  turn(): void;
  /** The turn mines another block now. */
  more(): boolean;
  started(): void;
  found(): void;
  /** A request came, with the chain's height then: true if a next block that waits on a timer comes now. */
  requested(top: number): boolean;
}

function createPace(deps: MinerDeps): Pace {
  const fast = deps.config.pace === 'fast';
  /** The fast pace without a floor: blocks as fast as the process makes them, whoever asks. */
  const unthrottled = fast && deps.config.minBlockMs <= 0;
  /** Blocks found since the miner started, and those the requests let it find now (fast pace). */
  let found = 0;
  let allowance = 0;
  let until = 0;
  /** The height a request came at last: a request at a new height is the first to be told its top block. */
  let told = -1;
  return {
    delay: (threads) => (!fast ? blockDelay(deps, threads) : unthrottled || allowance > 0 ? 0 : deps.config.minBlockMs),
    turn() {
      if (!fast) return;
      // a turn without allowance is the timer of minBlockMs without a request: one block
      allowance = Math.max(allowance, 1);
      until = performance.now() + BURST_MS;
    },
    more: () => fast && performance.now() < until && (unthrottled || allowance > 0),
    started() {
      found = 0;
      allowance = 1;
    },
    found() {
      found++;
      allowance = Math.max(allowance - 1, 0);
    },
    requested(top) {
      if (!fast) return false;
      // The first request at a new height is answered with the block just found: the client that waits for that
      // height stops the miner now, and no block is found for it while its stop is on the way.
      if (top !== told) {
        told = top;
        return false;
      }
      allowance = Math.max(allowance, 1 + Math.floor(found / RAMP));
      return true;
    },
  };
}

/**
 * Run `fn` in `ms` (below 1 ms, which a timer would make 1 ms: on the next turn of the event loop); returns what
 * cancels it.
 */
function later(fn: () => void, ms: number): () => void {
  if (ms < 1) {
    const i = setImmediate(fn);
    return () => clearImmediate(i);
  }
  const t = setTimeout(fn, ms);
  return () => clearTimeout(t);
}

export function createMiner(deps: MinerDeps): Miner {
  let active = false;
  let address = '';
  /** The mining address's family, decoded once per start (decoding checks the keys: not per block). */
  let family: 'cn' | 'carrot' = 'cn';
  let threads = 0;
  /** Cancels the scheduled next block, if any. */
  let cancel: (() => void) | undefined;
  /** The next block waits on a timer, not for the next turn of the event loop. */
  let waiting = false;
  let stoppingUntil = 0;
  const pace = createPace(deps);

  const schedule = (): void => {
    const ms = pace.delay(threads);
    waiting = ms >= 1;
    cancel = later(tick, ms);
  };

  const halt = (): void => {
    cancel?.();
    cancel = undefined;
    for (let i = 0; i < threads; i++) deps.log.log('I', `Miner thread stopped [${i}]`);
    active = false;
  };

  function tick(): void {
    cancel = undefined;
    pace.turn();
    do mineOne();
    while (active && pace.more());
    if (active) schedule();
  }

  function mineOne(): void {
    if (!active) return;
    if (cannotMine(deps, family)) {
      halt();
      stoppingUntil = Date.now() + deps.config.restartDelayMs;
      return;
    }
    mineNext(deps, address);
    pace.found();
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
      pace.started();
      for (let i = 0; i < threads; i++) deps.log.log('I', `Miner thread was started [${i}]`);
      schedule();
    },
    stop() {
      if (active) halt();
    },
    requested() {
      if (!pace.requested(height(deps.ledger)) || !active || !waiting) return;
      cancel?.();
      schedule();
    },
  };
}
