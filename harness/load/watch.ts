// What a load watches on the chain while it sends: each new block's transactions (a sent one is confirmed in the
// first block that holds it), and the daemon's pool (its size sampled once a second). When the testnet's automine is
// off the load mines its own blocks, one every blockTime seconds (miner below).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Testnet } from '../testnet/types.js';
import type { MixKind } from './types.js';

/** How often the chain is looked at: a block's confirmations are timed to within this. */
export const WATCH_POLL_MS = 200;

export interface Sent {
  txHash: string;
  wallet: string;
  kind: MixKind;
  /** Milliseconds since the load started sending, when the wallet answered. */
  at: number;
  /** The chain's height (block count) the watch knew then: the next block is at this index. */
  height: number;
}

export interface Confirmed extends Sent {
  /** The index of the block that holds it. */
  index: number;
  blocks: number;
  seconds: number;
}

export class ChainWatch {
  readonly pending = new Map<string, Sent>();
  readonly confirmed: Confirmed[] = [];
  readonly samples: { at: number; size: number }[] = [];
  poolMax = 0;
  poolNow = 0;
  /** The chain's height (block count) seen last; the blocks below it are looked at. */
  height = 0;
  /** The hash of each block looked at, by height: a block popped since is looked at again. */
  private readonly hashes = new Map<number, string>();
  private loop: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly t: Testnet,
    /** Date.now() of the load's start: every time is counted from it. */
    private readonly t0: number,
  ) {}

  /** Where the chain stands now; the blocks before it are not the load's. */
  async begin(): Promise<void> {
    this.height = await this.t.height();
    this.loop = this.run();
  }

  track(s: Sent): void {
    this.pending.set(s.txHash, s);
  }

  /** Look once more, then stop watching (an error of the loop is thrown here). */
  async end(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await this.loop;
    await this.poll();
  }

  private async run(): Promise<void> {
    // A look that fails (the daemon restarting) is tried again at the next; the last look (end) must succeed.
    while (!this.stopping) {
      await this.poll().catch(() => undefined);
      await sleep(WATCH_POLL_MS);
    }
  }

  /** One look: the pool's size and the blocks found since the last look. */
  async poll(): Promise<void> {
    const info = await this.t.daemon.client.getInfo();
    const now = Date.now() - this.t0;
    this.poolNow = Number(info.tx_pool_size ?? 0);
    this.poolMax = Math.max(this.poolMax, this.poolNow);
    const second = Math.floor(now / 1000);
    if (this.samples.length === 0 || Math.floor(this.samples[this.samples.length - 1]!.at) < second)
      this.samples.push({ at: Math.round(now) / 1000, size: this.poolNow });
    // The chain is as the last look left it when it is as high and its top block is the one looked at then: nothing
    // was popped or replaced, and no block need be asked for.
    if (info.height !== this.height || info.top_block_hash !== this.hashes.get(this.height - 1)) await this.rewind();
    // Mining exactly (Testnet.mine) pops the empty blocks a miner found past its target: a height the info gave may
    // be gone by the time its block is asked for; it is looked at at the next look.
    for (; this.height < info.height; this.height++) {
      const block = await this.block(this.height);
      if (!block) break;
      this.hashes.set(this.height, block.hash);
      for (const hash of block.txs) this.confirm(hash, this.height, now);
    }
  }

  private async block(height: number): Promise<{ hash: string; txs: string[] } | undefined> {
    const b = await this.t.daemon.client
      .call<{ block_header?: { hash?: string }; tx_hashes?: string[] }>('get_block', { height })
      .catch(() => undefined);
    return b ? { hash: b.block_header?.hash ?? '', txs: b.tx_hashes ?? [] } : undefined;
  }

  /**
   * Step back over the blocks looked at that are no longer on the chain (popped, or replaced): their transactions
   * are pending again, and the blocks at their heights are looked at anew.
   */
  private async rewind(): Promise<void> {
    while (this.height > 0 && this.hashes.has(this.height - 1)) {
      const seen = this.hashes.get(this.height - 1)!;
      if ((await this.block(this.height - 1))?.hash === seen) return;
      this.height--;
      this.hashes.delete(this.height);
      for (let i = this.confirmed.length - 1; i >= 0; i--) {
        const c = this.confirmed[i]!;
        if (c.index !== this.height) continue;
        this.confirmed.splice(i, 1);
        this.pending.set(c.txHash, c);
      }
    }
  }

  private confirm(hash: string, index: number, now: number): void {
    const s = this.pending.get(hash);
    if (!s) return;
    this.pending.delete(hash);
    this.confirmed.push({
      ...s,
      index,
      blocks: Math.max(1, index - s.height + 1),
      seconds: Math.max(0, now - s.at) / 1000,
    });
  }
}

/** Mine a block every `blockTime` seconds until stopped (the load's own blocks, automine being off). */
export function miner(t: Testnet, blockTime: number): { stop(): Promise<void> } {
  const aborter = new AbortController();
  let failure: unknown;
  const loop = (async () => {
    while (!aborter.signal.aborted) {
      const next = Date.now() + blockTime * 1000;
      try {
        await t.mine(1, { signal: aborter.signal });
      } catch (err) {
        if (!aborter.signal.aborted) failure ??= err;
      }
      await sleep(Math.max(0, next - Date.now()), undefined, { signal: aborter.signal }).catch(() => undefined);
    }
  })();
  return {
    async stop() {
      aborter.abort();
      await loop;
      if (failure !== undefined) throw failure;
    },
  };
}
