// The simulated chain: blocks, spent key images, tokens and the mempool, with the
// consensus checks a real daemon applies to a transaction (reference §4, §5, §7).
import { createHash } from 'node:crypto';
import { decodeAddress } from '../crypto/address.js';
import {
  CARROT_MAX_INPUTS,
  CARROT_MAX_OUTPUTS,
  DEFAULT_TX_SPENDABLE_AGE,
  HF_CARROT,
  HF_SHUTDOWN,
  HF_TOKENS,
  MAX_TOKEN_SUPPLY,
  MAX_TX_WEIGHT,
  MINED_MONEY_UNLOCK_WINDOW,
  PREMINE,
  TxType,
  hardForkAt,
  tokenPrice,
} from './constants.js';
import { baseReward, feeEstimate } from './emission.js';
import type { Block, IndexedOutput, TokenRecord, Tx } from './types.js';
import { TxPool } from './tx-pool.js';

/** Where the premine and the treasury's outputs go: fixed addresses no harness wallet owns. */
export const PREMINE_ADDRESS = 'premine';
export const TREASURY_ADDRESS = 'treasury';

export interface Ledger {
  blocks: Block[];
  outputs: Map<string, IndexedOutput>;
  spentKeyImages: Set<string>;
  tokens: Map<string, TokenRecord>;
  pool: TxPool;
  /** Unix seconds at which each pool tx arrived. */
  poolArrival: Map<string, number>;
  /** Global index of each block's first output (outputs are numbered in chain order, genesis first). */
  firstOutput: number[];
  /** Token transfers paid for by a ROLLUP on chain (Blockchain::is_tx_paid_for). */
  paid: Set<string>;
  /**
   * Pool txs that came back from a popped block (pop_blocks, a reorganisation): kept in the pool even when the chain
   * now spends their inputs, as the real pool keeps kept_by_block transactions (never mined, never dropped here).
   */
  kept: Set<string>;
}

const outputCount = (b: Block): number =>
  [b.minerTx, b.protocolTx, ...b.txs].reduce((n, tx) => n + tx.outputs.length, 0);

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

const ZERO_HASH = '0'.repeat(64);
const ZERO_PID = '0'.repeat(16);

export function emptyTx(type: TxType, txid: string, timestamp: number): Tx {
  return {
    txid,
    type,
    inputs: [],
    outputs: [],
    fee: 0n,
    burnt: 0n,
    sourceAsset: 'SAL1',
    destAsset: 'SAL1',
    paymentId: ZERO_PID,
    weight: 0,
    timestamp,
    unlockTime: 0,
  };
}

/** The genesis block: timestamp 0, nonce 10001, 89 bytes, as the real testnet's (its hash is the simulator's own). */
export function genesisBlock(): Block {
  const timestamp = 0;
  const minerTx = emptyTx(TxType.MINER, sha256Hex('saltnet-sim genesis miner tx'), timestamp);
  minerTx.sourceAsset = minerTx.destAsset = 'SAL';
  minerTx.outputs.push({ id: `${minerTx.txid}:0`, address: PREMINE_ADDRESS, amount: PREMINE, asset: 'SAL' });
  const protocolTx = emptyTx(TxType.PROTOCOL, sha256Hex('saltnet-sim genesis protocol tx'), timestamp);
  return {
    index: 0,
    hash: sha256Hex('saltnet-sim testnet genesis'),
    prevHash: ZERO_HASH,
    timestamp,
    nonce: 10001,
    majorVersion: 1,
    minorVersion: 1,
    difficulty: 1n,
    cumulativeDifficulty: 1n,
    alreadyGenerated: PREMINE,
    minerTx,
    protocolTx,
    txs: [],
    reward: PREMINE,
    weight: 89,
  };
}

export function newLedger(): Ledger {
  const ledger: Ledger = {
    blocks: [],
    outputs: new Map(),
    spentKeyImages: new Set(),
    tokens: new Map(),
    pool: new TxPool(),
    poolArrival: new Map(),
    firstOutput: [],
    paid: new Set(),
    kept: new Set(),
  };
  applyBlock(ledger, genesisBlock());
  return ledger;
}

export const height = (l: Ledger): number => l.blocks.length;
export const topBlock = (l: Ledger): Block => l.blocks[l.blocks.length - 1] as Block;

/** Index a block's effects: outputs, spent key images, tokens; drop its txs from the pool. */
export function applyBlock(l: Ledger, block: Block): void {
  const prev = l.blocks[l.blocks.length - 1];
  l.firstOutput.push(prev ? (l.firstOutput[l.firstOutput.length - 1] as number) + outputCount(prev) : 0);
  l.blocks.push(block);
  const coinbaseTxs = [block.minerTx, block.protocolTx];
  for (const tx of coinbaseTxs)
    for (const o of tx.outputs) l.outputs.set(o.id, { output: o, blockIndex: block.index, coinbase: true });
  for (const tx of block.txs) {
    for (const o of tx.outputs) l.outputs.set(o.id, { output: o, blockIndex: block.index, coinbase: false });
    for (const i of tx.inputs) l.spentKeyImages.add(i.keyImage);
    for (const id of paidBy(tx)) l.paid.add(id);
    if (tx.token) {
      const t = tx.token;
      l.tokens.set(`sal${t.ticker}`, {
        assetType: `sal${t.ticker}`,
        ticker: t.ticker,
        supply: t.supply,
        name: t.name,
        url: t.url,
        hash: t.hash,
        size: t.size,
        creator: t.creator,
        height: block.index,
      });
    }
    l.pool.delete(tx.txid);
    l.poolArrival.delete(tx.txid);
    l.kept.delete(tx.txid);
  }
  if (prev && hardForkAt(height(l)) !== hardForkAt(height(l) - 1)) revalidatePool(l);
}

/** Per-byte fee levels the daemon quotes for the next block. */
export function currentFees(l: Ledger): bigint[] {
  return feeEstimate(baseReward(topBlock(l).alreadyGenerated));
}

/** Spendable in a block at index `atIndex`? Coinbase/protocol outputs after 60 blocks, others after 10. */
export function isUnlocked(o: IndexedOutput, atIndex: number): boolean {
  return atIndex >= o.blockIndex + (o.coinbase ? MINED_MONEY_UNLOCK_WINDOW : DEFAULT_TX_SPENDABLE_AGE);
}

export function isTokenAsset(asset: string): boolean {
  return /^sal[0-9A-Z]{4}$/.test(asset);
}

/** The members of a ring a wallet builds: 16, as Carrot's T-CLSAG takes them. */
export const RING_SIZE = 16;

/**
 * The ring of an input of `asset` in a tx of the block at `blockIndex` (or the pool, at the top): 16 members, or every
 * output of a token with fewer below it (v1.1.3c spends a token's only output, its supply, with a ring of one).
 */
export function ringSize(l: Ledger, asset: string, blockIndex: number): number {
  if (!isTokenAsset(asset)) return RING_SIZE;
  let n = 0;
  for (const o of l.outputs.values())
    if (o.output.asset === asset && o.blockIndex < blockIndex && ++n >= RING_SIZE) break;
  return Math.max(1, n);
}

/** A token TRANSFER: its fee is nominal, burnt by the ROLLUP that pays for it, not taken from its inputs. */
export function isTokenTransfer(tx: Tx): boolean {
  return tx.type === TxType.TRANSFER && isTokenAsset(tx.sourceAsset);
}

/** Can this pool tx go into the next block? A token transfer waits for its ROLLUP to be on chain. */
/**
 * The token txs a ROLLUP pays for on chain: the first it lists alone. Salvium 1.1.3c's is_tx_paid_for finds only the
 * first of a request's token txs (all under one rollup binding tag), so of a transfer_split that builds several, the
 * others wait in the pool for ever. Established on the real programs: 24 token outputs paid in one request (a ROLLUP
 * and four token txs) had one token tx mined, three left pending fifty blocks on.
 */
export const paidBy = (tx: Tx): string[] => (tx.rollup ?? []).slice(0, 1);

export const readyToMine = (l: Ledger, tx: Tx): boolean => !isTokenTransfer(tx) || l.paid.has(tx.txid);

/**
 * A CREATE_TOKEN for a ticker that is on chain, or that one of `before` creates. The pool takes any number of them
 * (tx_pool's uniqueness check is a TODO in v1.1.3c); fill_block_template mines the first and leaves the others in the
 * pool, where they stay pending.
 */
export function tickerTaken(l: Ledger, tx: Tx, before: Iterable<Tx>): boolean {
  const ticker = tx.type === TxType.CREATE_TOKEN ? tx.token?.ticker : undefined;
  if (ticker === undefined) return false;
  if (l.tokens.has(`sal${ticker}`)) return true;
  for (const b of before) if (b.type === TxType.CREATE_TOKEN && b.token?.ticker === ticker) return true;
  return false;
}

/** Token tickers a filter matches: substring of the asset type or of the token name (case-sensitive). */
export function matchTokens(l: Ledger, filter: string): string[] {
  const out: string[] = [];
  for (const t of l.tokens.values())
    if (filter === '' || t.assetType.includes(filter) || t.name.includes(filter)) out.push(t.assetType);
  return out.sort();
}

export function checkTicker(ticker: string): string | null {
  if (!/^[0-9A-Z]{4}$/.test(ticker)) return 'invalid ticker';
  if (ticker.startsWith('SAL')) return 'ticker cannot start with SAL';
  if (ticker === 'BURN') return 'reserved ticker';
  return null;
}

/**
 * Consensus and pool checks for a transaction that would go into the next block.
 * Returns null when acceptable, else the daemon's rejection reason.
 */
export function validateTx(l: Ledger, tx: Tx): string | null {
  const next = height(l);
  const hf = hardForkAt(next);
  if (hf === HF_SHUTDOWN) return 'HF shutdown: non-coinbase tx rejected';
  if (l.pool.has(tx.txid) || l.outputs.has(`${tx.txid}:0`)) return 'tx already known';
  if (tx.inputs.length === 0) return 'tx has no inputs';
  if (hf >= HF_CARROT && tx.inputs.length > CARROT_MAX_INPUTS) return 'too many inputs';
  // A ROLLUP and a CREATE_TOKEN pay no one: their change is their one output.
  const fewest = tx.type === TxType.ROLLUP || tx.type === TxType.CREATE_TOKEN ? 1 : 2;
  if (hf >= HF_CARROT && (tx.outputs.length < fewest || tx.outputs.length > CARROT_MAX_OUTPUTS))
    return 'wrong number of outputs';
  if (tx.weight > MAX_TX_WEIGHT) return 'tx too big';
  const sums = new Map<string, bigint>();
  const seen = new Set<string>();
  for (const input of tx.inputs) {
    if (seen.has(input.keyImage) || l.spentKeyImages.has(input.keyImage) || l.pool.spends(input.keyImage))
      return 'double spend';
    seen.add(input.keyImage);
    const out = l.outputs.get(input.outputId);
    if (!out || out.output.amount !== input.amount || out.output.asset !== input.asset) return 'invalid input';
    if (!isUnlocked(out, next)) return 'input is locked';
    if (hf >= HF_TOKENS && input.asset === 'SAL') return 'SAL inputs are invalid from HF11';
    sums.set(input.asset, (sums.get(input.asset) ?? 0n) + input.amount);
  }
  for (const o of tx.outputs) {
    const a = decodeAddress(o.address);
    if (!a || a.network !== 'testnet' || a.coin !== 'salvium') return 'invalid output address';
    if (hf >= HF_CARROT && a.family !== 'carrot') return 'non-Carrot output after HF10';
    if (hf < HF_CARROT && a.family !== 'cn') return 'Carrot output before HF10';
    if (o.amount < 0n) return 'invalid output';
    sums.set(o.asset, (sums.get(o.asset) ?? 0n) - o.amount);
  }
  sums.set('SAL1', (sums.get('SAL1') ?? 0n) - (isTokenTransfer(tx) ? 0n : tx.fee) - tx.burnt);
  for (const [asset, rest] of sums) if (rest !== 0n) return `overspend or unbalanced amounts in ${asset}`;
  if (tx.type === TxType.CREATE_TOKEN) {
    const t = tx.token;
    if (!t) return 'CREATE_TOKEN without token data';
    if (hf < HF_TOKENS) return 'tokens not enabled';
    const bad = checkTicker(t.ticker);
    if (bad) return bad;
    if (t.supply < 1n || t.supply > MAX_TOKEN_SUPPLY) return 'invalid token supply';
    if (tx.burnt !== tokenPrice(t.ticker)) return 'Invalid fee paid for CREATE_TOKEN';
    if (l.tokens.has(`sal${t.ticker}`)) return 'token already exists';
  } else if (tx.type === TxType.ROLLUP) {
    if (hf < HF_TOKENS) return 'ROLLUP TXs are not permitted before HF11';
    if (!tx.rollup?.length) return 'ROLLUP must include at least one paid TX entry';
  } else if (tx.type !== TxType.TRANSFER && tx.type !== TxType.BURN) {
    return `unsupported tx type ${tx.type}`;
  }
  return null;
}

/**
 * tx_memory_pool::validate: take each pool tx out and check it again, in txid order, dropping those the pool would
 * now refuse (a second creation of a ticker mined since, for one). The real daemon does this when the next block's
 * hard-fork version changes, on a block added or popped, and once at startup. A tx a popped block returned is kept,
 * as the real pool keeps kept_by_block txs. The others keep their order.
 */
export function revalidatePool(l: Ledger): void {
  const before = [...l.pool];
  for (const txid of [...l.pool.keys()].sort()) {
    const tx = l.pool.get(txid)!;
    l.pool.delete(txid);
    if (validateTx(l, tx) && !l.kept.has(txid)) l.poolArrival.delete(txid);
    else l.pool.set(txid, tx);
  }
  const kept = new Set(l.pool.keys());
  l.pool.clear();
  for (const [txid, tx] of before) if (kept.has(txid)) l.pool.set(txid, tx);
}

export function addToPool(l: Ledger, tx: Tx, now: number): string | null {
  const reason = validateTx(l, tx);
  if (reason) return reason;
  l.pool.set(tx.txid, tx);
  l.poolArrival.set(tx.txid, now);
  return null;
}

/**
 * Take the top block off the chain (never the genesis block), undoing its effects, and return its
 * transactions to the pool, as the real `Blockchain::pop_block_from_blockchain` does.
 */
export function popBlock(l: Ledger, now: number): Block | undefined {
  if (l.blocks.length <= 1) return undefined;
  const block = l.blocks.pop() as Block;
  l.firstOutput.pop();
  for (const tx of [block.minerTx, block.protocolTx, ...block.txs]) for (const o of tx.outputs) l.outputs.delete(o.id);
  for (const tx of block.txs) {
    for (const i of tx.inputs) l.spentKeyImages.delete(i.keyImage);
    if (tx.token) l.tokens.delete(`sal${tx.token.ticker}`);
    for (const id of paidBy(tx)) l.paid.delete(id);
    l.pool.set(tx.txid, tx);
    l.poolArrival.set(tx.txid, now);
    l.kept.add(tx.txid);
  }
  if (hardForkAt(height(l)) !== hardForkAt(height(l) + 1)) revalidatePool(l);
  return block;
}
