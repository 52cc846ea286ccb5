// The chain's outputs as the real daemon numbers them: a global index over every output in chain
// order and an index per asset type (`asset_type_output_indices`, /get_outs with an asset type, the
// output distribution). In each block the real order is the miner tx's outputs (the miner's, then the
// treasury's share and mints, which the simulator keeps in its protocol tx), the protocol tx's (token
// mints), then each transaction's.
import { TREASURY_ADDRESS, height, type Ledger } from './ledger.js';
import type { Block, Tx, TxOutput } from './types.js';

/** A transaction as the real chain holds it: its id and outputs in order. */
export interface ChainTx {
  txid: string;
  outputs: TxOutput[];
  kind: 'miner' | 'protocol' | 'user';
  tx: Tx;
}

/** The block's transactions in the real order, with the treasury's outputs moved into the miner tx. */
export function chainTxs(b: Block): ChainTx[] {
  const treasury = b.protocolTx.outputs.filter((o) => o.address === TREASURY_ADDRESS);
  const mints = b.protocolTx.outputs.filter((o) => o.address !== TREASURY_ADDRESS);
  return [
    { txid: b.minerTx.txid, outputs: [...b.minerTx.outputs, ...treasury], kind: 'miner', tx: b.minerTx },
    { txid: b.protocolTx.txid, outputs: mints, kind: 'protocol', tx: b.protocolTx },
    ...b.txs.map((tx) => ({ txid: tx.txid, outputs: tx.outputs, kind: 'user' as const, tx })),
  ];
}

interface Counts {
  /** Blocks counted so far and the hash of the last one (the chain may have been popped since). */
  blocks: number;
  topHash: string;
  /** Per asset type: the number of its outputs in blocks 0..h, for each h. */
  cumulative: Map<string, number[]>;
}

const cache = new WeakMap<Ledger, Counts>();

/** The per-asset cumulative counts, extended for blocks mined since the last call (rebuilt after a pop). */
function counts(l: Ledger): Counts {
  let c = cache.get(l);
  const n = height(l);
  if (!c || c.blocks > n || (c.blocks > 0 && l.blocks[c.blocks - 1]!.hash !== c.topHash)) {
    c = { blocks: 0, topHash: '', cumulative: new Map() };
    cache.set(l, c);
  }
  for (let h = c.blocks; h < n; h++) {
    const added = new Map<string, number>();
    for (const t of chainTxs(l.blocks[h]!))
      for (const o of t.outputs) added.set(o.asset, (added.get(o.asset) ?? 0) + 1);
    for (const asset of added.keys())
      if (!c.cumulative.has(asset)) c.cumulative.set(asset, new Array<number>(h).fill(0));
    for (const [asset, list] of c.cumulative) list.push((h > 0 ? (list[h - 1] ?? 0) : 0) + (added.get(asset) ?? 0));
  }
  c.blocks = n;
  c.topHash = n > 0 ? l.blocks[n - 1]!.hash : '';
  return c;
}

/** How many outputs of `asset` blocks 0..h hold. */
export function assetOutputsUpTo(l: Ledger, asset: string, h: number): number {
  if (h < 0) return 0;
  return counts(l).cumulative.get(asset)?.[h] ?? 0;
}

/** The global and per-asset index of each output of the transaction `txid` in block `b`. */
export function txOutputIndexes(l: Ledger, b: Block, txid: string): { global: number[]; asset: number[] } {
  let global = l.firstOutput[b.index] ?? 0;
  const next = new Map<string, number>();
  for (const t of chainTxs(b)) {
    const out = { global: [] as number[], asset: [] as number[] };
    for (const o of t.outputs) {
      const i = next.get(o.asset) ?? assetOutputsUpTo(l, o.asset, b.index - 1);
      out.global.push(global++);
      out.asset.push(i);
      next.set(o.asset, i + 1);
    }
    if (t.txid === txid) return out;
  }
  return { global: [], asset: [] };
}

export interface LocatedOutput {
  output: TxOutput;
  txid: string;
  block: Block;
}

/** The `i`-th output of the block's real order. */
function nth(b: Block, i: number, asset?: string): LocatedOutput | undefined {
  let k = 0;
  for (const t of chainTxs(b))
    for (const o of t.outputs) {
      if (asset !== undefined && o.asset !== asset) continue;
      if (k++ === i) return { output: o, txid: t.txid, block: b };
    }
  return undefined;
}

/** The output with global index `i` (chain order, genesis first). */
export function outputByGlobalIndex(l: Ledger, i: number): LocatedOutput | undefined {
  const first = l.firstOutput;
  let lo = 0;
  let hi = first.length - 1;
  if (hi < 0 || i < 0) return undefined;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((first[mid] ?? 0) <= i) lo = mid;
    else hi = mid - 1;
  }
  return nth(l.blocks[lo]!, i - (first[lo] ?? 0));
}

/** The `i`-th output of `asset` in chain order. */
export function outputByAssetIndex(l: Ledger, asset: string, i: number): LocatedOutput | undefined {
  const cum = counts(l).cumulative.get(asset);
  if (!cum || i < 0 || i >= (cum[cum.length - 1] ?? 0)) return undefined;
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cum[mid] ?? 0) > i) hi = mid;
    else lo = mid + 1;
  }
  return nth(l.blocks[lo]!, i - (lo > 0 ? (cum[lo - 1] ?? 0) : 0), asset);
}

/** Every output in the chain (genesis first): what get_output_histogram counts under amount 0. */
export function totalOutputs(l: Ledger): number {
  const n = height(l);
  if (n === 0) return 0;
  const last = l.blocks[n - 1]!;
  return (l.firstOutput[n - 1] ?? 0) + chainTxs(last).reduce((s, t) => s + t.outputs.length, 0);
}

/** The block holding the transaction `txid`, searched from the top. */
export function blockOfTx(l: Ledger, txid: string): Block | undefined {
  for (let h = height(l) - 1; h >= 0; h--) {
    const b = l.blocks[h]!;
    if (b.minerTx.txid === txid || b.protocolTx.txid === txid || b.txs.some((t) => t.txid === txid)) return b;
  }
  return undefined;
}
