// Automine: blocks without `saltnet mine`, as anvil's interval mining and Nigiri's mine-on-send do.
// `mineOnTx` mines a block as soon as the daemon's pool holds a transaction; `blockTime` mines one
// every so many seconds; both may be on at once, and neither (manual) is the default. Each block is
// mined by the testnet's own `mine` (under its chain lock, with every wallet synced afterwards), so
// an app that only sends transactions sees them confirmed, and the testnet's wallets see them at once.
//
// A transaction the daemon leaves in the pool block after block (one it will never mine) would make
// mine-on-tx mine forever: after STUCK_AFTER blocks with it still there, it no longer counts (said
// once in the log). A token transfer is two transactions, the ROLLUP mined one block before the
// token's own: that one is mined by the next block, as it should be.
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_BLOCK_TIME } from '../../limits.js';
import { counted } from '../../common/describe.js';

export interface AutomineMode {
  /** Mine a block as soon as the pool holds a transaction. */
  mineOnTx: boolean;
  /** Mine a block every this many seconds; 0: no interval. */
  blockTime: number;
}

/** A change of mode: what is left out stays as it is; `'off'` turns both off (manual mining). */
export type AutomineChange = Partial<AutomineMode> | 'off';

export const MANUAL: AutomineMode = { mineOnTx: false, blockTime: 0 };

/** How often the pool is looked at while mine-on-tx is on. */
export const POOL_POLL_MS = 200;
/** Blocks mined with a transaction still in the pool after which it is left there. */
export const STUCK_AFTER = 3;

export interface AutomineHost {
  /** The hashes of the transactions in the daemon's pool. */
  poolHashes(): Promise<string[]>;
  /**
   * Mine one block (under the chain lock), sync every wallet, return the new height; or, when `due()` answers false
   * once the lock is held (the mode changed while it waited), mine nothing and return undefined.
   */
  mineBlock(signal: AbortSignal, due: () => boolean): Promise<number | undefined>;
  log(line: string): void;
  /** A line only a verbose run shows (each block it mines). */
  detail(line: string): void;
}

/** The mode after `change`, checked: a clear error names the bad field. */
export function applyChange(mode: AutomineMode, change: AutomineChange): AutomineMode {
  if (change === 'off') return { ...MANUAL };
  if (change === null || typeof change !== 'object')
    throw new Error(`automine: expected 'off' or { mineOnTx?, blockTime? }, got ${JSON.stringify(change)}`);
  const next = { ...mode };
  if (change.mineOnTx !== undefined) {
    if (typeof change.mineOnTx !== 'boolean')
      throw new Error(`automine: mineOnTx must be true or false, got ${JSON.stringify(change.mineOnTx)}`);
    next.mineOnTx = change.mineOnTx;
  }
  if (change.blockTime !== undefined) {
    const s = change.blockTime;
    if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > MAX_BLOCK_TIME)
      throw new Error(
        `automine: blockTime must be a number of seconds from 0 (no interval) to ${MAX_BLOCK_TIME}, got ${JSON.stringify(s)}`,
      );
    next.blockTime = s;
  }
  return next;
}

/** "mine-on-tx and a block every 5 s", "a block every 5 s", "mine-on-tx", "manual". */
export function describeAutomine(m: AutomineMode): string {
  const parts = [...(m.mineOnTx ? ['mine-on-tx'] : []), ...(m.blockTime > 0 ? [`a block every ${m.blockTime} s`] : [])];
  return parts.length ? parts.join(' and ') : 'manual';
}

export class Automine {
  private mode: AutomineMode;
  private readonly aborter = new AbortController();
  private wake: AbortController = new AbortController();
  private loop: Promise<void> | undefined;
  private lastBlockAt = Date.now();
  /** Pool transactions and how many blocks were mined while each stayed. */
  private readonly survived = new Map<string, number>();
  private readonly ignored = new Set<string>();
  private lastError: string | undefined;

  constructor(
    private readonly host: AutomineHost,
    initial: AutomineMode = MANUAL,
  ) {
    this.mode = applyChange(MANUAL, initial);
  }

  get(): AutomineMode {
    return { ...this.mode };
  }

  /** Change the mode now (the loop starts on the first mode that mines). */
  set(change: AutomineChange): AutomineMode {
    if (this.aborter.signal.aborted) throw new Error('automine: the testnet is stopping');
    const before = this.mode;
    this.mode = applyChange(this.mode, change);
    if (this.mode.blockTime > 0 && this.mode.blockTime !== before.blockTime) this.lastBlockAt = Date.now();
    if (describeAutomine(before) !== describeAutomine(this.mode))
      this.host.log(`saltnet: automine: ${describeAutomine(this.mode)}`);
    this.start();
    this.wake.abort();
    return this.get();
  }

  /** Start the loop when a mode that mines is set (the constructor's mode included). */
  start(): void {
    if (!this.loop && this.mining()) this.loop = this.run();
  }

  /** Stop for good; a block being mined is abandoned. */
  async stop(): Promise<void> {
    this.aborter.abort(new Error('the testnet is stopping'));
    this.wake.abort();
    await this.loop;
  }

  private mining(): boolean {
    return this.mode.mineOnTx || this.mode.blockTime > 0;
  }

  private async run(): Promise<void> {
    const signal = this.aborter.signal;
    while (!signal.aborted) {
      // A change of mode from here on cuts the pause below short.
      this.wake = new AbortController();
      const changed = this.wake.signal;
      try {
        const why = await this.due();
        if (why) await this.mineOne(why, signal, changed);
        else await this.pause(this.waitMs());
        this.lastError = undefined;
      } catch (err) {
        if (signal.aborted) break;
        const msg = err instanceof Error ? err.message : String(err);
        // Said once, not at every retry (a daemon restarting refuses for a while).
        if (msg !== this.lastError) this.host.log(`saltnet: automine: ${msg}; trying again`);
        this.lastError = msg;
        await this.pause(1000);
      }
    }
  }

  /** Why a block is due now, or undefined. */
  private async due(): Promise<{ why: string; pool: string[] } | undefined> {
    const m = this.mode;
    if (m.blockTime > 0 && Date.now() >= this.lastBlockAt + m.blockTime * 1000)
      return { why: `every ${m.blockTime} s`, pool: m.mineOnTx ? await this.host.poolHashes() : [] };
    if (!m.mineOnTx) return undefined;
    const pool = await this.host.poolHashes();
    const waiting = pool.filter((h) => !this.ignored.has(h));
    return waiting.length
      ? { why: `${waiting.length} tx${waiting.length === 1 ? '' : 's'} in the pool`, pool }
      : undefined;
  }

  private waitMs(): number {
    const m = this.mode;
    if (!this.mining()) return Number.POSITIVE_INFINITY;
    const interval = m.blockTime > 0 ? Math.max(0, this.lastBlockAt + m.blockTime * 1000 - Date.now()) : Infinity;
    return Math.min(interval, m.mineOnTx ? POOL_POLL_MS : Infinity);
  }

  /**
   * Mine the block `d` is due for, unless the mode changes (`changed`) before the chain lock is held: a scenario that
   * puts automine back to manual and then waits for the lock must find no block mined after it.
   */
  private async mineOne(d: { why: string; pool: string[] }, signal: AbortSignal, changed: AbortSignal): Promise<void> {
    const height = await this.host.mineBlock(signal, () => !changed.aborted);
    if (height === undefined) return;
    this.lastBlockAt = Date.now();
    this.host.detail(`saltnet: automine: block ${height - 1} (${d.why})`);
    if (!this.mode.mineOnTx || d.pool.length === 0) return;
    const still = new Set(await this.host.poolHashes());
    for (const h of [...this.survived.keys()]) if (!still.has(h)) this.survived.delete(h);
    for (const h of d.pool) {
      if (!still.has(h) || this.ignored.has(h)) continue;
      const n = (this.survived.get(h) ?? 0) + 1;
      this.survived.set(h, n);
      if (n >= STUCK_AFTER) {
        this.ignored.add(h);
        this.host.log(
          `saltnet: automine: tx ${h} is still in the pool after ${counted(n, 'block')} (the daemon does not mine it); mine-on-tx leaves it there`,
        );
      }
    }
  }

  /** Sleep `ms` (Infinity: until woken), or until the mode changes or the testnet stops. */
  private async pause(ms: number): Promise<void> {
    const signal = AbortSignal.any([this.wake.signal, this.aborter.signal]);
    if (signal.aborted) return;
    try {
      if (ms === Number.POSITIVE_INFINITY)
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      else await sleep(ms, undefined, { signal });
    } catch {
      /* woken */
    }
  }
}
