// Building the next block: which pool transactions it takes, its coinbase (the miner's share, the
// treasury's, token mints) and its size, as the real daemon's Blockchain::create_block_template.
// mineBlock builds and applies one (the miner); the daemon's get_block_template builds one without
// applying it, and submit_block applies it later.
import { randomBytes } from 'node:crypto';
import {
  HF_CARROT,
  HF_SAL1,
  MINED_MONEY_UNLOCK_WINDOW,
  TESTNET_HARD_FORKS,
  TREASURY_MINT,
  TxType,
  coinbaseAsset,
  hardForkAt,
  isTreasuryMintHeight,
} from './constants.js';
import { baseReward, splitReward } from './emission.js';
import {
  TREASURY_ADDRESS,
  applyBlock,
  emptyTx,
  height,
  readyToMine,
  sha256Hex,
  tickerTaken,
  topBlock,
  validateTx,
  type Ledger,
} from './ledger.js';
import type { Block, Tx, TxOutput } from './types.js';
import { TxPool } from './tx-pool.js';

export interface PoolSelection {
  /** What the next block takes, in the order the block holds them. */
  txs: Tx[];
  /** Pool txs that are no longer valid (the miner drops them). */
  dropped: string[];
}

/** fill_block_template's order: the highest fee per byte of weight first, then the earliest received. */
function byFeeRate(pool: Iterable<Tx>): Tx[] {
  const rate = (tx: Tx): number => Number(tx.fee) / (tx.weight || 1);
  return [...pool]
    .map((tx, arrival) => ({ tx, arrival }))
    .sort((a, b) => rate(b.tx) - rate(a.tx) || a.arrival - b.arrival)
    .map((e) => e.tx);
}

/**
 * The pool txs the next block takes, in fill_block_template's order (byFeeRate), each checked against the chain and
 * the txs before it (a hard fork may have made one invalid); a token transfer waits for its ROLLUP to be on chain, a
 * second creation of a ticker waits for ever (tickerTaken). The pool itself is left as it is.
 */
export function selectPoolTxs(l: Ledger): PoolSelection {
  const saved = l.pool;
  const txs: Tx[] = [];
  const dropped: string[] = [];
  l.pool = new TxPool();
  try {
    for (const tx of byFeeRate(saved.values())) {
      if (tickerTaken(l, tx, txs)) continue;
      if (validateTx(l, tx)) {
        dropped.push(tx.txid);
        continue;
      }
      if (readyToMine(l, tx)) txs.push(tx);
      l.pool.set(tx.txid, tx);
    }
  } finally {
    l.pool = saved;
  }
  return { txs, dropped };
}

/** What the real miner tx pays in a block built on `l` with `fees`: the miner, then the treasury's share and mints. */
export function coinbaseSplit(
  l: Ledger,
  fees: bigint,
): { base: bigint; miner: bigint; stake: bigint; treasury: bigint[] } {
  const index = height(l);
  const base = baseReward(topBlock(l).alreadyGenerated);
  const split = splitReward(index, base, fees);
  const treasury = [
    ...(split.treasury > 0n ? [split.treasury] : []),
    ...(isTreasuryMintHeight(index) ? [TREASURY_MINT] : []),
  ];
  return { base, miner: split.miner, stake: split.stake, treasury };
}

export interface BlockOptions {
  /** The block's hash (default: derived from its contents). */
  hash?: string;
  /** The block's nonce (default: from its hash). */
  nonce?: number;
}

/** The next block paying `minerAddress` with `txs`, not applied to the chain. */
export function buildBlock(
  l: Ledger,
  minerAddress: string,
  timestamp: number,
  difficulty: bigint,
  txs: Tx[],
  o: BlockOptions = {},
): Block {
  const index = height(l);
  const prev = topBlock(l);
  const hf = hardForkAt(index);
  const cb = coinbaseSplit(
    l,
    txs.reduce((s, t) => s + t.fee, 0n),
  );
  const asset = coinbaseAsset(index);
  // The real miner tx holds a random key (its tx key before HF10, the Janus anchor of its Carrot output from HF10:
  // construct_miner_tx), so two nodes mining on the same block in the same second never make the same block.
  const txKey = randomBytes(8).toString('hex');
  const hash =
    o.hash ??
    sha256Hex(`${prev.hash}:${index}:${timestamp}:${minerAddress}:${txs.map((t) => t.txid).join(',')}:${txKey}`);
  const minerTx = emptyTx(TxType.MINER, sha256Hex(`miner:${hash}`), timestamp);
  minerTx.sourceAsset = minerTx.destAsset = asset;
  minerTx.burnt = cb.stake;
  // From HF10 the Carrot coinbase txs (miner and protocol) carry unlock_time 60, as the real daemon's
  // get_block shows; before it the real miner tx has 0 (with 60 on the output), here index + 60 (the
  // wallet's view of that is not established).
  minerTx.unlockTime = hf >= HF_CARROT ? MINED_MONEY_UNLOCK_WINDOW : index + 60;
  minerTx.outputs.push({ id: `${minerTx.txid}:0`, address: minerAddress, amount: cb.miner, asset });
  const protocolTx = emptyTx(TxType.PROTOCOL, sha256Hex(`protocol:${hash}`), timestamp);
  if (hf >= HF_CARROT) protocolTx.unlockTime = MINED_MONEY_UNLOCK_WINDOW;
  const protocolOutputs: Omit<TxOutput, 'id'>[] = cb.treasury.map((amount) => ({
    address: TREASURY_ADDRESS,
    amount,
    asset: 'SAL1',
  }));
  for (const tx of txs) {
    if (tx.token)
      protocolOutputs.push({
        address: tx.token.creator,
        amount: tx.token.supply * 100_000_000n,
        asset: `sal${tx.token.ticker}`,
      });
  }
  protocolTx.outputs = protocolOutputs.map((out, i) => ({ ...out, id: `${protocolTx.txid}:${i}` }));
  const minerTxAmounts = [cb.miner, ...cb.treasury];
  return {
    index,
    hash,
    prevHash: prev.hash,
    timestamp,
    nonce: o.nonce ?? Number.parseInt(hash.slice(0, 8), 16),
    majorVersion: hf,
    // Blockchain::create_block_template votes with the newest version this build knows.
    minorVersion: TESTNET_HARD_FORKS[TESTNET_HARD_FORKS.length - 1]!.version,
    difficulty,
    cumulativeDifficulty: prev.cumulativeDifficulty + difficulty,
    alreadyGenerated: prev.alreadyGenerated + cb.base,
    minerTx,
    protocolTx,
    txs,
    // As get_outs_money_amount(miner_tx): the real miner tx also carries the treasury's share
    // and its mints (here in the protocol tx).
    reward: minerTxAmounts.reduce((s, a) => s + a, 0n),
    weight: minerTxWeight(index, hf, minerTxAmounts) + txs.reduce((s, t) => s + t.weight, 0),
  };
}

export interface MinedBlock {
  block: Block;
  /** Pool txs that were no longer valid and were dropped. */
  dropped: string[];
}

/** Drop pool txs that are no longer valid (those a popped block returned stay: see Ledger.kept). */
export function dropFromPool(l: Ledger, txids: readonly string[]): void {
  for (const id of txids) {
    if (l.kept.has(id)) continue;
    l.pool.delete(id);
    l.poolArrival.delete(id);
  }
}

/** Build and apply the next block paying `minerAddress`, including every valid pool tx. */
export function mineBlock(l: Ledger, minerAddress: string, timestamp: number, difficulty: bigint): MinedBlock {
  const { txs, dropped } = selectPoolTxs(l);
  dropFromPool(l, dropped);
  const block = buildBlock(l, minerAddress, timestamp, difficulty, txs);
  applyBlock(l, block);
  return { block, dropped };
}

export const varintBytes = (n: bigint | number): number => Math.max(1, Math.ceil(BigInt(n).toString(2).length / 7));

/**
 * The size of the real miner tx (a block's weight when it holds no other tx), fitted to the real
 * v1.1.3c testnet: 90 bytes + the height's varint (+1 for the SAL1 asset type from HF6) before
 * Carrot; from HF10 112 bytes for the miner's output and 90 + the amount's varint per other output
 * (the treasury's share from HF11, the treasury mints). Within a byte of what the real daemon reports.
 */
export function minerTxWeight(index: number, hf: number, amounts: readonly bigint[]): number {
  if (hf < HF_CARROT) return 90 + varintBytes(index) + (hf >= HF_SAL1 ? 1 : 0);
  return 112 + amounts.slice(1).reduce((s, a) => s + 90 + varintBytes(a), 0);
}

/** Would a miner with this address be able to build the next block's template? */
export function templateError(l: Ledger, family: 'cn' | 'carrot'): string | null {
  const hf = hardForkAt(height(l));
  if (hf >= HF_CARROT && family === 'cn')
    return 'mining to CryptoNote wallet address, but Carrot wallet address is required';
  if (hf < HF_CARROT && family === 'carrot') return "Mining to Carrot wallet address, but Carrot isn't supported yet";
  return null;
}
