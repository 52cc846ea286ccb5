// Finding any transaction of the chain or the pool by its id, as the real wallet asks its daemon
// (/gettransactions): the simulated wallet walks the blocks it gets over /getblocks.bin once and
// keeps an index per daemon connection, extended as the chain grows (rebuilt when it shrinks).
import type { Tx } from '../chain/types.js';
import type { DaemonClient } from './daemon-client.js';

export interface FoundTx {
  tx: Tx;
  /** The block's height and time; 0 and the tx's own time in the pool. */
  height: number;
  timestamp: number;
  inPool: boolean;
}

interface Index {
  height: number;
  txs: Map<string, { tx: Tx; height: number; timestamp: number }>;
}

const indexes = new WeakMap<DaemonClient, Index>();

async function index(daemon: DaemonClient): Promise<Index> {
  let idx = indexes.get(daemon);
  if (!idx || (await daemon.height()) < idx.height) indexes.set(daemon, (idx = { height: 0, txs: new Map() }));
  for (;;) {
    const { blocks, currentHeight } = await daemon.blocks(idx.height);
    for (const b of blocks) {
      if (b.index !== idx.height) continue;
      for (const tx of [b.minerTx, b.protocolTx, ...b.txs])
        idx.txs.set(tx.txid, { tx, height: b.index, timestamp: b.timestamp });
      idx.height = b.index + 1;
    }
    if (blocks.length === 0 || idx.height >= currentHeight) return idx;
  }
}

/** The tx with this id (lowercase hex), on chain or in the pool; undefined when the daemon has none. */
export async function findTx(daemon: DaemonClient, txid: string): Promise<FoundTx | undefined> {
  const hit = (await index(daemon)).txs.get(txid);
  if (hit) return { ...hit, inPool: false };
  const pooled = (await daemon.pool()).find((t) => t.txid === txid);
  return pooled ? { tx: pooled, height: 0, timestamp: pooled.timestamp, inPool: true } : undefined;
}
