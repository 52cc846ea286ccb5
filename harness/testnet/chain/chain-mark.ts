// A one-node testnet's checkpoint keeps its daemon running (no restart, so no new RandomX
// dataset): the checkpoint marks where the chain stood (its height, the hash of its top block and the
// transactions in the pool), and a revert pops the blocks mined since with pop_blocks, empties the
// pool and sends the marked pool transactions again. On salviumd, popping a block removes what its
// transactions did (a token's creation included), as a reorganisation does; the RandomX seed does not
// change below height 2112, so the dataset is kept.
import type { DaemonClient } from '../../rpc/daemon.js';

export interface ChainMark {
  height: number;
  /** The hash of the block at height - 1, the checkpoint's top. */
  top: string;
  /** The pool's transactions at the checkpoint, as the daemon's blobs (hex). */
  pool: string[];
}

async function hashAt(daemon: DaemonClient, height: number): Promise<string> {
  return (await daemon.call<{ block_header: { hash: string } }>('get_block_header_by_height', { height })).block_header
    .hash;
}

/** Where the daemon's chain stands now (nothing must mine or send meanwhile: the chain lock is held). */
export async function markChain(daemon: DaemonClient): Promise<ChainMark> {
  const height = await daemon.height();
  const pool = await daemon.post<{ transactions?: { tx_blob: string }[] }>('/get_transaction_pool');
  return { height, top: await hashAt(daemon, height - 1), pool: (pool.transactions ?? []).map((t) => t.tx_blob) };
}

/**
 * Refuses, changing nothing, when the chain no longer holds the marked top block: it was popped, or reorganised below
 * the checkpoint, since it was taken.
 */
export async function assertCanRewind(daemon: DaemonClient, mark: ChainMark, name: string): Promise<void> {
  const now = await daemon.height();
  const top = now >= mark.height ? await hashAt(daemon, mark.height - 1) : undefined;
  if (top === mark.top) return;
  throw new Error(
    `cannot revert to checkpoint ${name}: the chain no longer holds its top block (height ${mark.height - 1}, ` +
      `${mark.top.slice(0, 16)}…): ${top === undefined ? `the chain is at height ${now} now, below it` : 'blocks at or below it were replaced'}. ` +
      'A one-node testnet reverts by popping the blocks mined since the checkpoint, so take the checkpoint again after popping blocks below it',
  );
}

/** The chain back to the mark: the blocks since popped, the pool emptied and refilled with the marked transactions. */
export async function rewindChain(daemon: DaemonClient, mark: ChainMark, name: string): Promise<void> {
  const now = await daemon.height();
  if (now > mark.height) {
    const height = await daemon.popBlocks(now - mark.height);
    if (height !== mark.height)
      throw new Error(`reverting to checkpoint ${name}: pop_blocks left the chain at ${height}, not ${mark.height}`);
  }
  // The popped blocks' transactions went back to the pool, beside those sent since the checkpoint: all go.
  await daemon.call('flush_txpool', {});
  for (const [i, blob] of mark.pool.entries()) {
    const r = await daemon.post<{ status: string; reason?: string }>('/send_raw_transaction', {
      tx_as_hex: blob,
      do_not_relay: false,
    });
    if (r.status !== 'OK')
      throw new Error(
        `reverting to checkpoint ${name}: the daemon refused pool transaction ${i + 1} of ${mark.pool.length} again: ${r.reason || r.status}`,
      );
  }
}
