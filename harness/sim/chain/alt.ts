// Blocks from peers, alternative chains and reorganisation, as salviumd v1.1.3c's Blockchain does
// them (docs/multi-node.md): a block on the top extends the chain; one on an older block is kept as
// an alternative block; when an alternative chain's cumulative difficulty passes the main chain's,
// the main chain's blocks down to the split are popped (their transactions go back to the pool, kept
// there even when the new chain spends their inputs, as kept_by_block transactions are), the
// alternative blocks are added, and the popped blocks become an alternative chain in turn.
import { applyBlock, height, popBlock, tickerTaken, topBlock, validateTx, type Ledger } from './ledger.js';
import type { Block, Tx } from './types.js';
import { TxPool } from './tx-pool.js';

/** The alternative blocks a node knows, by hash. */
export type AltBlocks = Map<string, Block>;

export interface Reorg {
  /** The first height whose block changed. */
  split: number;
  /** The main chain's top index and cumulative difficulty before. */
  topBefore: number;
  cumBefore: bigint;
  /** The new chain's part from the split on. */
  added: Block[];
  popped: Block[];
}

export type Arrival =
  | { kind: 'known' }
  | { kind: 'added' }
  | { kind: 'alt'; reorg?: Reorg }
  | { kind: 'orphan' }
  | { kind: 'invalid'; reason: string };

/** Why these transactions cannot be mined on top of the chain now (each checked after the ones before), or null. */
export function txsProblem(l: Ledger, txs: readonly Tx[]): string | null {
  const saved = l.pool;
  l.pool = new TxPool();
  try {
    for (const tx of txs) {
      const why = tickerTaken(l, tx, l.pool.values()) ? 'token already being created' : validateTx(l, tx);
      if (why) return `tx ${tx.txid}: ${why}`;
      l.pool.set(tx.txid, tx);
    }
    return null;
  } finally {
    l.pool = saved;
  }
}

/** A main-chain block by hash (looked up from its index), or undefined. */
function onMain(l: Ledger, hash: string, index: number): Block | undefined {
  const b = l.blocks[index];
  return b?.hash === hash ? b : undefined;
}

/** The alternative chain ending at `tip`, oldest first (its first block's parent is on the main chain). */
export function altChain(l: Ledger, alt: AltBlocks, tip: Block): Block[] | undefined {
  const chain = [tip];
  for (let b = tip; ;) {
    if (onMain(l, b.prevHash, b.index - 1)) return chain.reverse();
    const parent = alt.get(b.prevHash);
    if (!parent) return undefined;
    chain.push(parent);
    b = parent;
  }
}

/** Switch to the alternative chain (oldest first); on a block that does not fit, back to the old chain. */
function reorganise(l: Ledger, alt: AltBlocks, chain: Block[], now: number): Reorg | { invalid: string } {
  const split = chain[0]!.index;
  const topBefore = height(l) - 1;
  const cumBefore = topBlock(l).cumulativeDifficulty;
  const popped: Block[] = [];
  while (height(l) > split) popped.unshift(popBlock(l, now)!);
  const added: Block[] = [];
  for (const b of chain) {
    const why = txsProblem(l, b.txs);
    if (why) {
      while (height(l) > split) popBlock(l, now);
      for (const p of popped) applyBlock(l, p);
      alt.delete(b.hash);
      return { invalid: why };
    }
    applyBlock(l, b);
    added.push(b);
  }
  for (const b of added) alt.delete(b.hash);
  for (const p of popped) alt.set(p.hash, p);
  return { split, topBefore, cumBefore, added, popped };
}

/** Take a block from a peer (or a submitted one on an older block): see the header. */
export function receiveBlock(l: Ledger, alt: AltBlocks, block: Block, now: number): Arrival {
  if (onMain(l, block.hash, block.index) || alt.has(block.hash)) return { kind: 'known' };
  if (block.index === height(l) && block.prevHash === topBlock(l).hash) {
    const why = txsProblem(l, block.txs);
    if (why) return { kind: 'invalid', reason: why };
    applyBlock(l, block);
    return { kind: 'added' };
  }
  const parent = onMain(l, block.prevHash, block.index - 1) ?? alt.get(block.prevHash);
  if (!parent || parent.index !== block.index - 1) return { kind: 'orphan' };
  alt.set(block.hash, block);
  const chain = altChain(l, alt, block);
  if (!chain || block.cumulativeDifficulty <= topBlock(l).cumulativeDifficulty) return { kind: 'alt' };
  const r = reorganise(l, alt, chain, now);
  return 'invalid' in r ? { kind: 'invalid', reason: r.invalid } : { kind: 'alt', reorg: r };
}

/** A tip's alternative chain as get_alternate_chains lists it (block hashes newest first). */
export interface AltChainInfo {
  tip: Block;
  hashes: string[];
  /** The main-chain block the chain starts from. */
  parent: string;
}

/**
 * Every alternative chain, one per tip (an alternative block no other extends), walked back to the main chain; in the
 * order of their tips' hashes, as the daemon's alt-block table (keyed by hash) gives them.
 */
export function altChains(l: Ledger, alt: AltBlocks): AltChainInfo[] {
  const parents = new Set([...alt.values()].map((b) => b.prevHash));
  const out: AltChainInfo[] = [];
  for (const tip of alt.values()) {
    if (parents.has(tip.hash)) continue;
    const chain = altChain(l, alt, tip);
    if (!chain) continue;
    out.push({ tip, hashes: chain.map((b) => b.hash).reverse(), parent: chain[0]!.prevHash });
  }
  return out.sort((a, b) => (a.tip.hash < b.tip.hash ? -1 : a.tip.hash > b.tip.hash ? 1 : 0));
}
