// Transactions and outputs by id or index (core_rpc_server.cpp, v1.1.3c): /get_transactions and
// /get_outs. Hex blobs hold the simulator's own encoding (a real tx blob cannot be produced without
// its cryptography); everything else is as the real daemon answers.
import { encode, toHex } from '../../chain/codec.js';
import { height, type Ledger } from '../../chain/ledger.js';
import {
  blockOfTx,
  chainTxs,
  outputByAssetIndex,
  outputByGlobalIndex,
  txOutputIndexes,
  type ChainTx,
  type LocatedOutput,
} from '../../chain/outputs.js';
import type { Block } from '../../chain/types.js';
import { bool, list, obj, params, str, u64 } from '../../http/params.js';
import type { Handler } from '../../http/server.js';
import { chainView, coinbaseTxJson, fakeHex, txJson } from '../block-json.js';
import type { DaemonContext } from '../views.js';
import { ACCESS, type Methods } from './table.js';

const txsParams = params({ txs_hashes: list(str()), decode_as_json: bool(), prune: bool(), split: bool() });
const outsParams = params({
  outputs: list(obj({ amount: u64(), index: u64(), is_global_out: bool() })),
  get_txid: bool(),
  asset_type: str(),
});

/** keccak-256 of nothing: the prunable hash of a coinbase tx, which has no prunable part. */
const EMPTY_PRUNABLE_HASH = 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470';

const RESTRICTED_TRANSACTIONS_COUNT = 100;
const MAX_GET_TRANSACTIONS_COUNT = 1000;
const MAX_GET_OUTPUTS_COUNT = 50000;
const MAX_RESTRICTED_GLOBAL_FAKE_OUTS_COUNT = 5000;

interface Found {
  t: ChainTx;
  block?: Block;
}

/** A tx in the pool, or in the chain (the real miner tx, the protocol tx, a user tx): the pool is looked in first. */
function lookUp(l: Ledger, txid: string): Found | undefined {
  const tx = l.pool.get(txid);
  if (tx) return { t: { txid, outputs: tx.outputs, kind: 'user', tx } };
  const block = blockOfTx(l, txid);
  return block ? { t: chainTxs(block).find((t) => t.txid === txid)!, block } : undefined;
}

/** One entry of /get_transactions' `txs`, as on_get_transactions fills it. */
function entry(l: Ledger, given: string, f: Found, p: ReturnType<typeof txsParams.parse>): Record<string, unknown> {
  const coinbase = f.t.kind !== 'user';
  const index = f.block?.index ?? height(l);
  const hex = toHex(encode(coinbase ? { ...f.t.tx, outputs: f.t.outputs } : f.t.tx));
  // A coinbase tx has no prunable part, so it always comes split.
  const split = p.split || p.prune || coinbase;
  const json = !p.decode_as_json
    ? ''
    : coinbase
      ? coinbaseTxJson(f.block!, f.t)
      : txJson(f.t.tx, index, chainView(l, index), !p.prune);
  const e: Record<string, unknown> = {
    tx_hash: given,
    as_hex: split ? '' : hex,
    pruned_as_hex: split ? hex : '',
    prunable_as_hex: split && !p.prune && !coinbase ? fakeHex(`${f.t.txid}:prunable`, 64) : '',
    prunable_hash: coinbase ? EMPTY_PRUNABLE_HASH : fakeHex(`${f.t.txid}:prunable-hash`, 32),
    as_json: json,
    in_pool: !f.block,
    double_spend_seen: false,
  };
  if (!f.block) return { ...e, relayed: true, received_timestamp: l.poolArrival.get(f.t.txid) ?? 0 };
  const indexes = txOutputIndexes(l, f.block, f.t.txid);
  return {
    ...e,
    block_height: f.block.index,
    confirmations: height(l) - f.block.index,
    block_timestamp: f.block.timestamp,
    output_indices: indexes.global,
    asset_type_output_indices: indexes.asset,
  };
}

function getTransactions(ctx: DaemonContext, raw: Parameters<Handler>[0]): Record<string, unknown> {
  const p = txsParams.parse(raw);
  const l = ctx.ledger;
  const fail = (status: string): Record<string, unknown> => ({ ...ACCESS, status, untrusted: false });
  if (ctx.restricted && p.txs_hashes.length > RESTRICTED_TRANSACTIONS_COUNT)
    return fail('Too many transactions requested in restricted mode');
  if (p.txs_hashes.length > MAX_GET_TRANSACTIONS_COUNT) return fail('Too many transactions requested');
  for (const h of p.txs_hashes) {
    if (!/^([0-9a-fA-F]{2})*$/.test(h)) return fail('Failed to parse hex representation of transaction hash');
    if (h.length !== 64) return fail('Failed, size of data mismatch');
  }
  const txs: Record<string, unknown>[] = [];
  const missed: string[] = [];
  for (const given of p.txs_hashes) {
    const f = lookUp(l, given.toLowerCase());
    if (f) txs.push(entry(l, given, f, p));
    else missed.push(given.toLowerCase());
  }
  return {
    ...ACCESS,
    missed_tx: missed,
    status: 'OK',
    txs,
    txs_as_hex: txs.map((e) => e.as_hex),
    txs_as_json: p.decode_as_json ? txs.map((e) => e.as_json) : [],
    untrusted: false,
  };
}

/**
 * /get_outs: outputs by global index (`is_global_out`, or amount 0 without an asset type) or by their index among
 * the outputs of an asset type.
 */
function getOuts(ctx: DaemonContext, raw: Parameters<Handler>[0]): Record<string, unknown> {
  const p = outsParams.parse(raw);
  const l = ctx.ledger;
  const failed = { ...ACCESS, status: 'Failed', untrusted: false };
  const limit = ctx.restricted ? MAX_RESTRICTED_GLOBAL_FAKE_OUTS_COUNT : MAX_GET_OUTPUTS_COUNT;
  if (p.outputs.length > limit) return { ...failed, status: 'Too many outs requested' };
  const found: LocatedOutput[] = [];
  for (const o of p.outputs) {
    const i = Number(o.index);
    let out: LocatedOutput | undefined;
    if (o.is_global_out) out = outputByGlobalIndex(l, i);
    else if (p.asset_type === '') out = o.amount === 0n ? outputByGlobalIndex(l, i) : undefined;
    else out = outputByAssetIndex(l, p.asset_type, i);
    if (!out) return failed;
    found.push(out);
  }
  const outs = found.map((f) => ({
    height: f.block.index,
    key: fakeHex(`${f.output.id}:key`, 32),
    mask: fakeHex(`${f.output.id}:mask`, 32),
    output_id: 0,
    txid: p.get_txid ? f.txid : '',
    // Every output's unlock time (0, or a coinbase's 60 as a height) is long past on a testnet.
    unlocked: true,
  }));
  return { ...ACCESS, outs, status: 'OK', untrusted: false };
}

export function transactionEndpoints(m: Methods): void {
  const { ctx } = m;
  m.add(['/get_transactions', '/gettransactions'], (raw) => getTransactions(ctx, raw));
  m.add(['/get_outs'], (raw) => getOuts(ctx, raw));
}
