// What the real daemon tallies as it adds blocks (BlockchainLMDB::add_transaction_data and
// BlockchainDB::add_block, v1.1.3c): the circulating supply per currency (get_supply_info), the
// coinbase sums (get_coinbase_tx_sum) and the yield-block info of the last blocks (get_yield_info).
import { HF_TOKENS, TxType, coinbaseAsset, hardForkAt } from './constants.js';
import { height, isTokenAsset, type Ledger } from './ledger.js';
import { chainTxs } from './outputs.js';
import type { Block } from './types.js';

/** STAKE_LOCK_PERIOD on testnet: the yield cache holds this many blocks plus one. */
export const TESTNET_STAKE_LOCK_PERIOD = 20;

const add = (m: Map<string, bigint>, k: string, v: bigint): void => void m.set(k, (m.get(k) ?? 0n) + v);

/** The tally changes one block makes. */
function tallyBlock(m: Map<string, bigint>, b: Block): void {
  const [miner, protocol, ...user] = chainTxs(b);
  // The miner tx: its outputs are new coins of the coinbase asset; its amount_burnt (the stakers'
  // share, burnt while nothing is staked) goes to BURN.
  add(
    m,
    coinbaseAsset(b.index),
    miner!.outputs.reduce((s, o) => s + o.amount, 0n),
  );
  add(m, 'BURN', b.minerTx.burnt);
  // The protocol tx mints (token supplies); SAL and SAL1 it pays out come back from BURN.
  for (const o of protocol!.outputs) {
    add(m, o.asset, o.amount);
    if (o.asset === 'SAL' || o.asset === 'SAL1') add(m, 'BURN', -o.amount);
  }
  for (const { tx } of user) {
    if (isTokenAsset(tx.sourceAsset)) continue; // a token transfer: its fee is paid by its ROLLUP
    const burnt = tx.type === TxType.TRANSFER ? 0n : tx.burnt;
    // From the token-enabled tx version a non-SAL1 source's fee is paid by a ROLLUP.
    const fee = hardForkAt(b.index) >= HF_TOKENS && tx.sourceAsset !== 'SAL1' ? 0n : tx.fee;
    add(m, tx.sourceAsset, -(burnt + fee));
    add(m, 'BURN', burnt + fee);
  }
}

/**
 * get_supply_info's tally: currency label → amount (a negative tally as 0), sorted by label as a std::map,
 * STAKE 0 included.
 */
export function supplyTally(l: Ledger): { currency_label: string; amount: string }[] {
  const m = new Map<string, bigint>();
  for (const b of l.blocks) tallyBlock(m, b);
  m.set('STAKE', 0n); // nothing is ever staked on the simulated chain
  return [...m.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => ({ currency_label: k, amount: String((m.get(k) ?? 0n) < 0n ? 0n : m.get(k)!) }));
}

/**
 * core::get_coinbase_tx_sum over blocks [start, start + count): per block the miner tx's SAL1
 * outputs (get_outs_money_amount counts no other asset) plus its amount_burnt, less the fees of its
 * transactions; and the fees.
 */
export function coinbaseSum(l: Ledger, start: number, count: number): { emission: bigint; fees: bigint } {
  let emission = 0n;
  let fees = 0n;
  for (let h = start; h < Math.min(start + count, height(l)); h++) {
    const b = l.blocks[h]!;
    const [miner] = chainTxs(b);
    const sal1 = miner!.outputs.filter((o) => o.asset === 'SAL1').reduce((s, o) => s + o.amount, 0n);
    const blockFees = b.txs.reduce((s, t) => s + t.fee, 0n);
    emission += sal1 + b.minerTx.burnt - blockFees;
    fees += blockFees;
  }
  return { emission, fees };
}

export interface YieldBlock {
  block_height: number;
  locked_coins_tally: number;
  locked_coins_this_block: number;
  network_health_percentage: number;
  slippage_total_this_block: bigint;
}

/** The yield-block info the real daemon caches: the last STAKE_LOCK_PERIOD + 1 blocks (nothing staked). */
export function yieldBlocks(l: Ledger): YieldBlock[] {
  const n = height(l);
  const from = Math.max(0, n - (TESTNET_STAKE_LOCK_PERIOD + 1));
  return l.blocks.slice(from).map((b) => ({
    block_height: b.index,
    locked_coins_tally: 0,
    locked_coins_this_block: 0,
    network_health_percentage: 100,
    // Before conversions are enabled the slippage of a block is its miner tx's amount_burnt.
    slippage_total_this_block: b.minerTx.burnt,
  }));
}
