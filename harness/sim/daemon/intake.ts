// What a daemon does with a block that comes from outside its miner (a peer, submit_block) and with
// transactions from a peer: the chain (chain/alt.ts) decides where the block goes; here it is logged
// with the real daemon's lines, persisted, and relayed to the other peers.
import { receiveBlock, type Arrival } from '../chain/alt.js';
import { addToPool } from '../chain/ledger.js';
import type { Block, Tx } from '../chain/types.js';
import type { Peer } from './p2p-types.js';
import { now, type DaemonContext } from './views.js';

/** The four lines the real daemon logs for a block it keeps as an alternative one. */
function logAlternative(ctx: DaemonContext, b: Block): void {
  ctx.log.log(
    'I',
    `----- BLOCK ADDED AS ALTERNATIVE ON HEIGHT ${b.index}\nid:\t<${b.hash}>\nPoW:\t<${b.hash.split('').reverse().join('')}>\ndifficulty:\t${b.difficulty}`,
  );
}

/** Take the block; a block on top (or a reorganisation onto a heavier chain) is persisted and, if asked, relayed. */
export function acceptBlock(ctx: DaemonContext, block: Block, o: { relay: boolean; except?: Peer }): Arrival {
  const r = receiveBlock(ctx.ledger, ctx.state.alt, block, now());
  if (r.kind === 'added') {
    ctx.blockAdded(block);
    if (o.relay) ctx.p2p?.relayBlock(block, o.except);
  } else if (r.kind === 'alt') {
    logAlternative(ctx, block);
    const g = r.reorg;
    if (!g) return r;
    const size = g.added.length;
    const cum = g.added[size - 1]!.cumulativeDifficulty;
    ctx.log.log(
      'I',
      `###### REORGANIZE on height: ${g.split} of ${g.topBefore} with cum_difficulty ${g.cumBefore}\n alternative blockchain size: ${size} with cum_difficulty ${cum}`,
    );
    for (const p of g.popped) logAlternative(ctx, p);
    ctx.log.log('I', `REORGANIZE SUCCESS! on height: ${g.split}, new blockchain size: ${ctx.ledger.blocks.length}`);
    ctx.chainRewritten();
    if (o.relay) ctx.p2p?.relayBlock(block, o.except);
  }
  return r;
}

/** Transactions from a peer: each new one that the pool accepts is relayed to the others. */
export function acceptPeerTxs(ctx: DaemonContext, txs: readonly Tx[], from: Peer): void {
  const taken = txs.filter((tx) => !ctx.ledger.pool.has(tx.txid) && addToPool(ctx.ledger, tx, now()) === null);
  if (taken.length === 0) return;
  ctx.poolTook(taken);
  ctx.p2p?.relayTxs(taken, from);
}
