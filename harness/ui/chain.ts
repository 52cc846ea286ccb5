// The chain as the explorer reads it from the daemon: blocks by height or hash back to genesis, each
// with its transactions decoded (type, asset, fee, burn, what a coinbase pays and to whom, a token's
// creation), single transactions with where they are, and the pool.
//
// A block never changes once it has a hash, nor does a transaction's content: their summaries are kept
// by hash, so a page asks the daemon only for what it has not seen. Heights are always asked again (a
// reorganisation moves them).
import { TREASURY_MINT, TX_TYPES } from '../coin/transactions.js';
import type { DaemonClient } from '../rpc/daemon.js';
import { RpcError } from '../rpc/errors.js';
import { parseJson, toBigInt } from '../rpc/json.js';
import type { BlockView, Payment, TxView } from './state.js';

type Json = Record<string, unknown>;
type Header = { hash: string; height: number; timestamp: number };

/** How many block and transaction summaries are kept (the oldest kept first go). */
const KEPT = 50_000;
/** How many headers or transactions one request asks for. */
const CHUNK = 500;

const HASH = /^[0-9a-f]{64}$/i;
export const isHash = (s: string): boolean => HASH.test(s);

const atomic = (v: unknown): string => {
  try {
    return toBigInt(v ?? 0).toString();
  } catch {
    return '0';
  }
};

/** What each output of a coinbase pays: the miner tx's first to the miner, the rest to the treasury. */
function payments(type: string, j: Json): Payment[] {
  return ((j.vout ?? []) as Json[]).map((o, i) => {
    const target = Object.values((o.target ?? {}) as Record<string, Json>)[0] ?? {};
    const asset = String(target.asset_type ?? '?');
    const amount = atomic(o.amount);
    const to: Payment['to'] =
      type === 'miner'
        ? i === 0
          ? 'miner'
          : amount === TREASURY_MINT.toString()
            ? 'treasury mint'
            : 'treasury'
        : asset === 'SAL1'
          ? 'protocol'
          : 'minted supply';
    return { asset, amount, to };
  });
}

/** A tx's decoded JSON as its view. */
export function txView(hash: string, j: Json): TxView {
  const type = TX_TYPES[Number(j.type)] ?? `type ${String(j.type)}`;
  const rct = (j.rct_signatures ?? {}) as Json;
  const view: TxView = { hash, type };
  const source = j.source_asset_type;
  if (typeof source === 'string' && source) view.asset = source;
  if (rct.txnFee !== undefined && atomic(rct.txnFee) !== '0') view.fee = atomic(rct.txnFee);
  if (j.amount_burnt !== undefined && atomic(j.amount_burnt) !== '0') view.burnt = atomic(j.amount_burnt);
  if (type === 'miner' || type === 'protocol') view.pays = payments(type, j);
  const meta = (j.token_metadata ?? undefined) as Json | undefined;
  const sal = ((meta?.token as Json | undefined)?.sal_token ?? undefined) as Json | undefined;
  if (meta && sal)
    view.token = {
      ticker: String(meta.asset_type ?? ''),
      supply: Number(sal.supply ?? 0),
      name: String(sal.name ?? ''),
      url: String(sal.url ?? ''),
    };
  return view;
}

const parse = (text: unknown): Json => {
  try {
    return typeof text === 'string' ? (parseJson(text) as Json) : {};
  } catch {
    return {};
  }
};

/** Keep at most KEPT entries: the oldest go first. */
function keep<V>(m: Map<string, V>, k: string, v: V): V {
  m.set(k, v);
  if (m.size > KEPT) for (const old of [...m.keys()].slice(0, m.size - KEPT)) m.delete(old);
  return v;
}

export interface FoundTx {
  view: TxView;
  inPool: boolean;
  height?: number;
  timestamp?: number;
  confirmations?: number;
}

export interface Chain {
  height(): Promise<number>;
  /** Blocks `top`, `top − 1`, … (at most `n`, down to genesis), newest first. */
  blocks(top: number, n: number): Promise<BlockView[]>;
  /** A block by height (digits) or hash; undefined when the chain has none such. */
  block(id: string): Promise<BlockView | undefined>;
  /** Transactions' views by hash (those the daemon does not know left out). */
  views(hashes: string[]): Promise<Map<string, TxView>>;
  /** A transaction with where it is; undefined when the daemon knows none such. */
  tx(hash: string): Promise<FoundTx | undefined>;
  pool(): Promise<TxView[]>;
}

type Decoded = Map<string, Json & { decoded: Json }>;

/** The daemon's /get_transactions, decoded, in chunks; only well-formed hashes are asked for. */
async function fetchTxs(daemon: DaemonClient, hashes: string[]): Promise<Decoded> {
  const out: Decoded = new Map();
  const wanted = [...new Set(hashes.filter(isHash))];
  for (let i = 0; i < wanted.length; i += CHUNK) {
    const r = await daemon.post<{ txs?: (Json & { tx_hash: string; as_json?: string })[] }>('/get_transactions', {
      txs_hashes: wanted.slice(i, i + CHUNK),
      decode_as_json: true,
    });
    for (const t of r.txs ?? []) out.set(t.tx_hash, { ...t, decoded: parse(t.as_json) });
  }
  return out;
}

/** Headers of blocks `start` to `end`, in chunks. */
async function headers(daemon: DaemonClient, start: number, end: number): Promise<Header[]> {
  const out: Header[] = [];
  for (let from = start; from <= end; from += CHUNK) {
    const r = await daemon.call<{ headers?: Header[] }>('get_block_headers_range', {
      start_height: from,
      end_height: Math.min(end, from + CHUNK - 1),
    });
    out.push(...(r.headers ?? []));
  }
  return out;
}

/** A header by height (digits) or hash, undefined when the daemon says it has none. */
async function header(daemon: DaemonClient, id: string): Promise<Header | undefined> {
  const byHeight = /^\d+$/.test(id);
  if (!byHeight && !isHash(id)) return undefined;
  try {
    const r = await daemon.call<{ block_header: Header }>(
      byHeight ? 'get_block_header_by_height' : 'get_block_header_by_hash',
      byHeight ? { height: Number(id) } : { hash: id.toLowerCase() },
    );
    return r.block_header;
  } catch (err) {
    if (err instanceof RpcError) return undefined;
    throw err;
  }
}

export function chainReader(daemon: DaemonClient): Chain {
  const blocks = new Map<string, BlockView>();
  const txs = new Map<string, TxView>();

  const summary = async (h: Header): Promise<BlockView> => {
    const cached = blocks.get(h.hash);
    if (cached) return cached;
    const r = await daemon.call<Json>('get_block', { hash: h.hash });
    const j = parse(r.json);
    const ids = ((j.tx_hashes ?? []) as string[]).slice();
    const decoded = await fetchTxs(daemon, ids);
    const list = [
      txView(String(r.miner_tx_hash ?? ''), (j.miner_tx ?? {}) as Json),
      ...(j.protocol_tx ? [txView(String(r.protocol_tx_hash ?? ''), j.protocol_tx as Json)] : []),
      ...ids.map((id) => txView(id, decoded.get(id)?.decoded ?? {})),
    ];
    for (const t of list) if (t.hash) keep(txs, t.hash, t);
    return keep(blocks, h.hash, { height: h.height, hash: h.hash, timestamp: Number(h.timestamp), txs: list });
  };

  return {
    height: () => daemon.height(),
    async blocks(top, n) {
      if (top < 0 || n <= 0) return [];
      const list = await headers(daemon, Math.max(0, top - n + 1), top);
      const out: BlockView[] = [];
      for (const h of list.reverse()) out.push(await summary(h));
      return out;
    },
    async block(id) {
      const h = await header(daemon, id);
      return h && summary(h);
    },
    async views(hashes) {
      const missing = hashes.filter((h) => !txs.has(h));
      if (missing.length) for (const [h, t] of await fetchTxs(daemon, missing)) keep(txs, h, txView(h, t.decoded));
      const out = new Map<string, TxView>();
      for (const h of hashes) {
        const v = txs.get(h);
        if (v) out.set(h, v);
      }
      return out;
    },
    async tx(hash) {
      const h = hash.toLowerCase();
      const t = (await fetchTxs(daemon, [h])).get(h);
      if (!t) return undefined;
      const view = keep(txs, h, txView(h, t.decoded));
      if (t.in_pool === true) return { view, inPool: true };
      return {
        view,
        inPool: false,
        height: Number(t.block_height),
        timestamp: Number(t.block_timestamp),
        confirmations: Number(t.confirmations ?? 0),
      };
    },
    async pool() {
      const hashes = await daemon.poolHashes();
      const decoded = await fetchTxs(daemon, hashes);
      return hashes.map((h) => txView(h, decoded.get(h)?.decoded ?? {}));
    },
  };
}
