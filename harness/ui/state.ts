// What the explorer shows, gathered from the programs' own RPCs (nothing new in any backend): the
// chain's last blocks with their transactions and types, the pool, the tokens with their holders
// among the testnet's wallets, each wallet's balances and transfers, and the programs with their
// logs' tails. Read-only: only `get_*` requests, never a refresh or a transfer.
//
// A block never changes once it has a hash: its summary is kept by hash, so a poll fetches only the
// blocks that are new. A wallet RPC answers one request at a time (a transfer being built holds it):
// each wallet is asked with a short deadline, and one that does not answer in time is shown with
// what it answered last, marked busy.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { DaemonClient } from '../rpc/daemon.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { AutomineMode } from '../testnet/mining/automine.js';
import { TX_TYPES } from '../coin/transactions.js';

export interface TxView {
  hash: string;
  type: string;
  /** The asset the transaction spends (a token transfer's token; SAL1 otherwise). */
  asset?: string;
  fee?: number;
  burnt?: number;
  /** A miner or protocol tx: what its outputs pay (atomic units per asset). */
  outputs?: Record<string, number>;
  /** A create-token tx: its ticker and metadata. */
  token?: { ticker: string; supply: number; name: string; url: string };
}

export interface BlockView {
  height: number;
  hash: string;
  timestamp: number;
  txs: TxView[];
}

export interface WalletView {
  name: string;
  address: string;
  busy?: boolean;
  balances: { asset: string; balance: string; unlocked: string; blocksToUnlock: number }[];
  transfers: { type: string; txid: string; height: number; amount: string; asset: string; confirmations?: number }[];
}

export interface TokenView {
  assetType: string;
  name: string;
  supply: number;
  url: string;
  size: number;
  /** The testnet wallet the supply was minted to, if it is one of them. */
  creator?: string;
  createdAt?: number;
  holders: { wallet: string; balance: string; unlocked: string }[];
}

export interface ProgramView {
  name: string;
  pid: number;
  state: string;
  restarts: number;
  log: string;
  tail: string[];
}

export interface UiState {
  at: string;
  runId: string;
  backend: string;
  /** Decimals of the chain's amounts (atomic units on the wire; SAL1 and tokens: 8). */
  decimals: number;
  height: number;
  automine: AutomineMode;
  blocks: BlockView[];
  pool: TxView[];
  tokens: TokenView[];
  wallets: WalletView[];
  programs: ProgramView[];
  /** What could not be read this time (a program restarting), for the page's banner. */
  problems: string[];
}

export interface UiSource {
  runId: string;
  backend: string;
  decimals: number;
  daemon: DaemonClient;
  /** The testnet's wallets now (main first), each with a client of the explorer's own. */
  wallets(): { name: string; address: string; client: WalletClient }[];
  programs(): Omit<ProgramView, 'tail'>[];
  automine(): AutomineMode;
}

/** How many of the last blocks the page shows. */
export const BLOCKS_SHOWN = 15;
const TAIL_LINES = 12;

type Json = Record<string, unknown>;

/** A tx's decoded JSON as its view. */
export function txView(hash: string, j: Json): TxView {
  const type = TX_TYPES[Number(j.type)] ?? `type ${String(j.type)}`;
  const rct = (j.rct_signatures ?? {}) as Json;
  const view: TxView = { hash, type };
  const source = j.source_asset_type;
  if (typeof source === 'string' && source) view.asset = source;
  if (typeof rct.txnFee === 'number') view.fee = rct.txnFee;
  if (typeof j.amount_burnt === 'number' && j.amount_burnt > 0) view.burnt = j.amount_burnt;
  if (type === 'miner' || type === 'protocol') {
    const outputs: Record<string, number> = {};
    for (const o of (j.vout ?? []) as Json[]) {
      const target = Object.values((o.target ?? {}) as Record<string, Json>)[0] ?? {};
      const asset = String(target.asset_type ?? '?');
      outputs[asset] = (outputs[asset] ?? 0) + Number(o.amount ?? 0);
    }
    view.outputs = outputs;
  }
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
    return typeof text === 'string' ? (JSON.parse(text) as Json) : {};
  } catch {
    return {};
  }
};

/** Decoded transactions by hash (the daemon's /get_transactions, pool ones included). */
async function decodeTxs(daemon: DaemonClient, hashes: string[]): Promise<Map<string, Json>> {
  const out = new Map<string, Json>();
  if (hashes.length === 0) return out;
  const r = await daemon.post<{ txs?: { tx_hash: string; as_json?: string }[] }>('/get_transactions', {
    txs_hashes: hashes,
    decode_as_json: true,
  });
  for (const t of r.txs ?? []) out.set(t.tx_hash, parse(t.as_json));
  return out;
}

/** The last `n` blocks, newest first; summaries of blocks seen before come from `cache` (by hash). */
export async function lastBlocks(
  daemon: DaemonClient,
  height: number,
  cache: Map<string, BlockView>,
  n = BLOCKS_SHOWN,
): Promise<BlockView[]> {
  const start = Math.max(0, height - n);
  const headers = (
    await daemon.call<{ headers: { hash: string; height: number; timestamp: number }[] }>('get_block_headers_range', {
      start_height: start,
      end_height: height - 1,
    })
  ).headers;
  const out: BlockView[] = [];
  for (const h of [...headers].reverse()) {
    let b = cache.get(h.hash);
    if (!b) {
      const r = await daemon.call<Json>('get_block', { hash: h.hash });
      const j = parse(r.json);
      const ids = ((j.tx_hashes ?? []) as string[]).slice();
      const decoded = await decodeTxs(daemon, ids);
      const txs = [
        txView(String(r.miner_tx_hash ?? ''), (j.miner_tx ?? {}) as Json),
        ...(j.protocol_tx ? [txView(String(r.protocol_tx_hash ?? ''), j.protocol_tx as Json)] : []),
        ...ids.map((id) => txView(id, decoded.get(id) ?? {})),
      ];
      b = { height: h.height, hash: h.hash, timestamp: h.timestamp, txs };
      cache.set(h.hash, b);
    }
    out.push(b);
  }
  if (cache.size > 4 * n) for (const k of [...cache.keys()].slice(0, cache.size - 2 * n)) cache.delete(k);
  return out;
}

/** The pool's transactions with their types. */
export async function poolView(daemon: DaemonClient): Promise<TxView[]> {
  const hashes = await daemon.poolHashes();
  const decoded = await decodeTxs(daemon, hashes);
  return hashes.map((h) => txView(h, decoded.get(h) ?? {}));
}

/** The last `lines` lines of a log file (its last 16 KiB read), empty when it cannot be read. */
export function tailOf(file: string, lines = TAIL_LINES): string[] {
  try {
    const size = statSync(file).size;
    const len = Math.min(size, 16 * 1024);
    const buf = Buffer.alloc(len);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buf, 0, len, size - len);
    } finally {
      closeSync(fd);
    }
    return buf.toString('utf8').split('\n').filter(Boolean).slice(-lines);
  } catch {
    return [];
  }
}
