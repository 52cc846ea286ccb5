// After mining, every wallet sees the new blocks before anything else runs — as Bitcoin's
// `generate` followed by `sync_all`. A wallet RPC refreshes on its own only every 20 s; without
// this a transfer right after `mine: 1` finds the funds the block unlocked still locked.
import { setTimeout as sleep } from 'node:timers/promises';
import type { WalletClient } from '../../rpc/wallet.js';
import { counted } from '../../common/describe.js';

export interface SyncTarget {
  name: string;
  client: Pick<WalletClient, 'refresh' | 'height'>;
  /** The height of this wallet's own daemon (a node of several), when it is not the one given to syncWallets. */
  height?: number;
  /** Its daemon's name in messages (`n1`). */
  node?: string;
}

/**
 * Refresh every wallet (in parallel) until each stands at `height` (the daemon's; a wallet's own `height` when it
 * has one); a clear error after `timeoutMs`.
 */
export async function syncWallets(
  height: number,
  wallets: Iterable<SyncTarget>,
  o: { timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  const deadline = Date.now() + o.timeoutMs;
  await Promise.all(
    [...wallets].map(async (w) => {
      const target = w.height ?? height;
      for (;;) {
        o.signal?.throwIfAborted();
        await w.client.refresh();
        const at = await w.client.height();
        if (at >= target) return;
        if (Date.now() > deadline)
          throw new Error(
            `wallet ${w.name} did not sync: it stands at height ${at} after a refresh, ${w.node ? `its daemon (${w.node})` : 'the daemon'} at ${target}`,
          );
        await sleep(50);
      }
    }),
  );
}

/** What to mine: a number of blocks, or up to a height. */
export type MineRequest = number | { blocks: number } | { to: number };

/**
 * The target height of a mine request at `height`. A bare number is a number of blocks; one at least the chain's
 * height is refused with a hint, as it is most likely a height meant as `{ to }` (`mine(net.height + 1)` of old).
 */
export function mineTarget(req: MineRequest, height: number): number {
  const bad = (why: string): never => {
    throw new Error(`mine: ${why}`);
  };
  if (typeof req === 'number') {
    if (!Number.isInteger(req) || req < 1) bad(`blocks must be a whole number >= 1, got ${String(req)}`);
    if (req >= height)
      bad(
        `mine(${req}) mines ${counted(req, 'block')}, more than the chain's ${height}: to mine up to height ${req}, ` +
          `call mine({ to: ${req} }); for that many blocks, mine({ blocks: ${req} })`,
      );
    return height + req;
  }
  if (req === null || typeof req !== 'object')
    return bad(`say how far: mine(1), mine({ blocks: 5 }) or mine({ to: 1300 })`);
  if ('to' in req) {
    if (!Number.isInteger(req.to) || req.to < 0) bad(`to must be a height (a whole number), got ${String(req.to)}`);
    return req.to;
  }
  if ('blocks' in req) {
    if (!Number.isInteger(req.blocks) || req.blocks < 1)
      bad(`blocks must be a whole number >= 1, got ${String(req.blocks)}`);
    return height + req.blocks;
  }
  return bad(`say how far: mine(1), mine({ blocks: 5 }) or mine({ to: 1300 })`);
}
