// The transaction pool (core_rpc_server.cpp and tx_pool.cpp, v1.1.3c): its contents, hashes and
// statistics (URI endpoints), flushing, relaying and the backlog (/json_rpc). The real pool is an
// LMDB table keyed by txid, so every list comes in txid order.
import { height, topBlock, type Ledger } from '../../chain/ledger.js';
import { toHex, encode } from '../../chain/codec.js';
import type { Tx } from '../../chain/types.js';
import { RpcError, type Handler } from '../../http/server.js';
import { Bytes } from '../../http/json-print.js';
import { list, params, str } from '../../http/params.js';
import { chainView, txJson } from '../block-json.js';
import { STATUS, now, type DaemonContext } from '../views.js';
import { ACCESS, type Methods } from './table.js';

const txidsParams = params({ txids: list(str()) });

const isHash = (s: string): boolean => /^[0-9a-fA-F]{64}$/.test(s);

/** The pool's txs in the real order (by txid). */
export function poolTxs(l: Ledger): Tx[] {
  return [...l.pool.values()].sort((a, b) => (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0));
}

function poolEntry(l: Ledger, tx: Tx): Record<string, unknown> {
  const arrived = l.poolArrival.get(tx.txid) ?? 0;
  return {
    blob_size: tx.weight,
    do_not_relay: false,
    double_spend_seen: false,
    fee: tx.fee,
    id_hash: tx.txid,
    kept_by_block: false,
    last_failed_height: 0,
    last_failed_id_hash: '0'.repeat(64),
    last_relayed_time: arrived,
    max_used_block_height: height(l) - 1,
    max_used_block_id_hash: topBlock(l).hash,
    receive_time: arrived,
    relayed: true,
    tx_blob: toHex(encode(tx)),
    tx_json: txJson(tx, height(l), chainView(l, height(l))),
    weight: tx.weight,
  };
}

/** /get_transaction_pool: the txs and, per key image they spend, the txs spending it (by key image). */
function transactionPool(l: Ledger): Record<string, unknown> {
  const txs = poolTxs(l);
  const spent = new Map<string, string[]>();
  for (const tx of txs) for (const i of tx.inputs) spent.set(i.keyImage, [...(spent.get(i.keyImage) ?? []), tx.txid]);
  const keyImages = [...spent.keys()].sort().map((k) => ({ id_hash: k, txs_hashes: spent.get(k)! }));
  return { ...ACCESS, spent_key_images: keyImages, ...STATUS, transactions: txs.map((tx) => poolEntry(l, tx)) };
}

/** tx_memory_pool::get_transaction_stats, histogram of ages included. */
function poolStats(l: Ledger): Record<string, unknown> {
  const t = now();
  const txs = poolTxs(l);
  const weights = txs.map((tx) => tx.weight).sort((a, b) => a - b);
  const arrival = txs.map((tx) => l.poolArrival.get(tx.txid) ?? 0);
  const oldest = arrival.length ? Math.min(...arrival) : 0;
  const mid = weights.length >> 1;
  const median = !weights.length
    ? 0
    : weights.length % 2
      ? weights[mid]!
      : Math.floor((weights[mid - 1]! + weights[mid]!) / 2);
  return {
    bytes_max: weights.length ? weights[weights.length - 1] : 0,
    bytes_med: median,
    bytes_min: weights.length ? weights[0] : 0,
    bytes_total: weights.reduce((s, w) => s + w, 0),
    fee_total: txs.reduce((s, tx) => s + tx.fee, 0n),
    histo: ageHistogram(txs, arrival, t, oldest),
    histo_98pc: histo98(txs, arrival, t),
    num_10m: arrival.filter((a) => a < t - 600).length,
    num_double_spends: 0,
    num_failing: 0,
    num_not_relayed: 0,
    oldest,
    txs_total: txs.length,
  };
}

/** Ages (`now - receive_time`, at least 1) → txs and bytes, in age order. */
function agebytes(txs: Tx[], arrival: number[], t: number): [number, { txs: number; bytes: number }][] {
  const m = new Map<number, { txs: number; bytes: number }>();
  txs.forEach((tx, i) => {
    const age = t - arrival[i]! + (t === arrival[i] ? 1 : 0);
    const e = m.get(age) ?? { txs: 0, bytes: 0 };
    m.set(age, { txs: e.txs + 1, bytes: e.bytes + tx.weight });
  });
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}

/** The age under which 98% of the txs are, when 2% of them is at least one tx; else 0. */
function histo98(txs: Tx[], arrival: number[], t: number): number {
  const end = Math.floor(txs.length * 0.02);
  if (txs.length <= 1 || !end) return 0;
  const ages = agebytes(txs, arrival, t);
  let i = ages.length;
  let cumulative = 0;
  do cumulative += ages[--i]![1].txs;
  while (i > 0 && cumulative < end);
  return ages[i]![0];
}

function ageHistogram(txs: Tx[], arrival: number[], t: number, oldest: number): { txs: number; bytes: number }[] {
  if (txs.length <= 1) return [];
  const ages = agebytes(txs, arrival, t);
  const pc98 = histo98(txs, arrival, t);
  const end = Math.floor(txs.length * 0.02);
  const factor = end ? 9 : Math.min(txs.length, 10);
  const bins = Array.from({ length: end ? 10 : factor }, () => ({ txs: 0, bytes: 0 }));
  const delta = (end ? pc98 : t - oldest) || 1;
  // With 2% to spare, the oldest ages from the 98th percentile on go to the last bin.
  const cut = end ? ages.findIndex(([age]) => age === pc98) : ages.length;
  ages.forEach(([age, e], i) => {
    const bin = i < cut ? Math.floor((age * factor - 1) / delta) : factor;
    bins[bin]!.txs += e.txs;
    bins[bin]!.bytes += e.bytes;
  });
  return bins;
}

/** flush_txpool: the txids given (all when none), as on_flush_txpool reports parse failures. */
function flush(ctx: DaemonContext, raw: Parameters<Handler>[0]): Record<string, unknown> {
  const l = ctx.ledger;
  const given = txidsParams.parse(raw).txids;
  const valid = given.filter(isHash).map((t) => t.toLowerCase());
  const txids = given.length ? valid : [...l.pool.keys()];
  for (const id of txids) {
    l.pool.delete(id);
    l.poolArrival.delete(id);
    l.kept.delete(id);
  }
  ctx.poolChanged();
  const failed = valid.length < given.length;
  const status = !failed ? 'OK' : valid.length ? 'Failed to parse some of the txids' : 'Failed to parse txid';
  return { status, untrusted: false };
}

/** relay_tx: the pool transactions given are sent to every peer again (a peer cut off when they came gets them). */
function relay(ctx: DaemonContext, raw: Parameters<Handler>[0]): Record<string, unknown> {
  const l = ctx.ledger;
  const problems: string[] = [];
  const ids = txidsParams.parse(raw).txids;
  for (const id of ids) {
    if (!isHash(id)) problems.push(`invalid transaction id: ${id}`);
    else if (!l.pool.has(id.toLowerCase())) problems.push(`transaction not found in pool: ${id}`);
  }
  if (problems.length) throw new RpcError(-5, problems.join(', '));
  ctx.p2p?.relayTxs(ids.map((id) => l.pool.get(id.toLowerCase())!));
  return { ...ACCESS, ...STATUS };
}

/** get_txpool_backlog: per tx its weight, fee and receive time less now (a uint64: it wraps), as raw bytes. */
function backlog(l: Ledger): Record<string, unknown> {
  const txs = poolTxs(l);
  const b = Buffer.alloc(txs.length * 24);
  const t = now();
  txs.forEach((tx, i) => {
    b.writeBigUInt64LE(BigInt(tx.weight), i * 24);
    b.writeBigUInt64LE(tx.fee, i * 24 + 8);
    b.writeBigUInt64LE(BigInt.asUintN(64, BigInt((l.poolArrival.get(tx.txid) ?? t) - t)), i * 24 + 16);
  });
  return { ...(txs.length ? { backlog: new Bytes(b) } : {}), ...ACCESS, ...STATUS };
}

export function poolMethods(m: Methods): void {
  const { ctx } = m;
  const l = ctx.ledger;
  m.add(['flush_txpool'], (raw) => flush(ctx, raw), true);
  m.add(['relay_tx'], (raw) => relay(ctx, raw), true);
  m.add(['get_txpool_backlog'], () => backlog(l));
}

export function poolEndpoints(m: Methods): void {
  const l = m.ctx.ledger;
  m.add(['/get_transaction_pool'], () => transactionPool(l));
  m.add(['/get_transaction_pool_hashes'], () => ({ ...ACCESS, ...STATUS, tx_hashes: poolTxs(l).map((t) => t.txid) }));
  m.add(['/get_transaction_pool_hashes.bin'], () => {
    const txs = poolTxs(l);
    return {
      ...ACCESS,
      ...STATUS,
      ...(txs.length ? { tx_hashes: new Bytes(Buffer.from(txs.map((t) => t.txid).join(''), 'hex')) } : {}),
    };
  });
  m.add(['/get_transaction_pool_stats'], () => ({ ...ACCESS, pool_stats: poolStats(l), ...STATUS }));
}
