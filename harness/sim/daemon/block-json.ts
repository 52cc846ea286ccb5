// Blocks and transactions as the real daemon decodes them to JSON (get_block's `json`,
// /get_transactions' `as_json`, the pool's `tx_json`), in the shapes recorded from salviumd v1.1.3c:
// the same keys, versions, heights, amounts, asset types and list lengths. What the simulator has no
// cryptography for (one-time keys, view tags, Janus anchors, tx_extra's public keys, ring members,
// RingCT proofs) is filled with hex and bytes derived from the transaction's id: of the real form,
// not the real value.
import { HF_CARROT, HF_TOKENS, TxType, hardForkAt } from '../chain/constants.js';
import { ringSize, sha256Hex, type Ledger } from '../chain/ledger.js';
import { blockOfTx, chainTxs, type ChainTx } from '../chain/outputs.js';
import type { Block, Tx, TxOutput } from '../chain/types.js';
import { archiveJson, unsized } from './archive-json.js';

/** `n` bytes of hex derived from `seed`. */
export function fakeHex(seed: string, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i++) out += sha256Hex(`${seed}:${i}`);
  return out.slice(0, bytes * 2);
}

/** `n` bytes derived from `seed`, as numbers (tx_extra, masks). */
const fakeBytes = (seed: string, n: number): number[] =>
  (fakeHex(seed, n).match(/../g) ?? []).map((h) => Number.parseInt(h, 16));

/** The transaction version a tx of block `index` carries: 2 before Carrot, 4 at HF10, 5 from HF11. */
export function txVersion(index: number): number {
  const hf = hardForkAt(index);
  return hf >= HF_TOKENS ? 5 : hf >= HF_CARROT ? 4 : 2;
}

/** One output's target: Carrot from HF10; `tagged_key` before it (genesis: `key`). `seed`: the output's id. */
function target(o: TxOutput, index: number, seed: string): Record<string, unknown> {
  const key = fakeHex(`${seed}:key`, 32);
  if (hardForkAt(index) >= HF_CARROT)
    return {
      carrot_v1: {
        key,
        asset_type: o.asset,
        view_tag: fakeHex(`${seed}:tag`, 3),
        encrypted_janus_anchor: fakeHex(`${seed}:anchor`, 16),
      },
    };
  if (index === 0) return { key: { key, asset_type: o.asset, unlock_time: 60 } };
  return { tagged_key: { key, asset_type: o.asset, unlock_time: 60, view_tag: fakeHex(`${seed}:tag`, 1) } };
}

/**
 * tx_extra: before Carrot the tx public key (tag 1); from HF10 one output's key under tag 1 or the
 * additional keys of several (tag 4, count, keys), then the extra nonce (tag 2, its size, its bytes).
 */
export function coinbaseExtra(seed: string, outputs: number, carrot: boolean, nonce: number[] | undefined): number[] {
  const keys = !carrot || outputs <= 1 ? [1, ...fakeBytes(seed, 32)] : [4, outputs, ...fakeBytes(seed, 32 * outputs)];
  return nonce === undefined ? keys : [...keys, 2, nonce.length, ...nonce];
}

/** A coinbase tx (the real miner tx, with the treasury's outputs, or the protocol tx) as JSON. */
function coinbaseJson(b: Block, t: ChainTx): Record<string, unknown> {
  const carrot = hardForkAt(b.index) >= HF_CARROT;
  const miner = t.kind === 'miner';
  if (b.index === 0 && !miner)
    return { version: 1, unlock_time: 0, vin: [], vout: [], extra: [], type: TxType.PROTOCOL, signatures: [] };
  const vout = t.outputs.map((o) => ({ amount: o.amount, target: target(o, b.index, o.id) }));
  // The protocol tx carries the extra nonce (empty) before Carrot too; the miner tx from HF10.
  const nonce = carrot || !miner ? [] : undefined;
  const extra = carrot && !miner && vout.length === 0 ? [2, 0] : coinbaseExtra(t.txid, t.outputs.length, carrot, nonce);
  return {
    version: b.index === 0 ? 2 : txVersion(b.index),
    unlock_time: carrot ? 60 : 0,
    vin: [{ gen: { height: b.index } }],
    vout,
    extra: b.index === 0 ? extra.slice(0, 33) : extra,
    type: miner ? TxType.MINER : TxType.PROTOCOL,
    ...(miner ? { amount_burnt: b.minerTx.burnt } : {}),
    rct_signatures: { type: 0 },
  };
}

/** A coinbase tx as /get_transactions' `as_json`. */
export function coinbaseTxJson(b: Block, t: ChainTx): string {
  return archiveJson(coinbaseJson(b, t));
}

/** get_block's `json`. */
export function blockJson(b: Block): string {
  const [miner, protocol] = chainTxs(b);
  return archiveJson({
    major_version: b.majorVersion,
    minor_version: b.minorVersion,
    timestamp: b.timestamp,
    prev_id: b.prevHash,
    nonce: b.nonce,
    miner_tx: coinbaseJson(b, miner!),
    protocol_tx: coinbaseJson(b, protocol!),
    tx_hashes: b.txs.map((t) => t.txid),
  });
}

/** The number of Bulletproof+ L and R rounds for `outputs` outputs: 6 + log2 of the padded count. */
const bulletproofRounds = (outputs: number): number => 6 + Math.ceil(Math.log2(Math.max(outputs, 1)));

/** The RingCT part of a Carrot transaction (type 9: Bulletproof+, T-CLSAG). */
function rctJson(tx: Tx, prunable: boolean, ring: (asset: string) => number): Record<string, unknown> {
  const h = (k: string, n = 32): string => fakeHex(`${tx.txid}:${k}`, n);
  const proof = (k: string): Record<string, string> => ({ R: h(`${k}R`), z1: h(`${k}z1`), z2: h(`${k}z2`) });
  const base = {
    type: 9,
    txnFee: tx.fee,
    ecdhInfo: unsized(tx.outputs.map((_, i) => ({ amount: h(`ecdh${i}`, 8) }))),
    outPk: unsized(tx.outputs.map((_, i) => h(`outPk${i}`))),
    p_r: h('p_r'),
    salvium_data: { salvium_data_type: 2, pr_proof: proof('pr'), sa_proof: proof('sa') },
  };
  if (!prunable) return { rct_signatures: base };
  const rounds = bulletproofRounds(tx.outputs.length);
  const bp = { A: h('A'), A1: h('A1'), B: h('B'), r1: h('r1'), s1: h('s1'), d1: h('d1') };
  const list = (k: string, n: number): string[] => Array.from({ length: n }, (_, i) => h(`${k}${i}`));
  return {
    rct_signatures: base,
    rctsig_prunable: {
      nbp: 1,
      bpp: [{ ...bp, L: list('L', rounds), R: list('R', rounds) }],
      TCLSAGs: unsized(
        tx.inputs.map((_, i) => ({
          sx: unsized(list(`sx${i}`, ring(tx.inputs[i]!.asset))),
          sy: unsized(list(`sy${i}`, ring(tx.inputs[i]!.asset))),
          c1: h(`c1${i}`),
          D: h(`D${i}`),
        })),
      ),
      pseudoOuts: unsized(tx.inputs.map((_, i) => h(`pseudo${i}`))),
    },
  };
}

/**
 * A user transaction's public keys in tx_extra: one (tag 1) that its outputs share, or from HF10, for more than two
 * outputs, one per output (tag 4, count, keys), as v1.1.3c writes a Carrot tx of three destinations and change.
 */
function txPublicKeys(tx: Tx, blockIndex: number): number[] {
  const n = tx.outputs.length;
  if (hardForkAt(blockIndex) < HF_CARROT || n <= 2) return [1, ...fakeBytes(`${tx.txid}:extra`, 32)];
  return [4, n, ...fakeBytes(`${tx.txid}:extra`, 32 * n)];
}

/** What a tx's `as_json` reads of the chain around it: an input's ring, the txs a ROLLUP pays for. */
export interface TxChainView {
  ring(asset: string): number;
  paid?(txid: string): Tx | undefined;
}

/** The view of a tx's `as_json` in block `index` (a pool tx: at the top); a ring size is counted once per asset. */
export function chainView(l: Ledger, index: number): TxChainView {
  const rings = new Map<string, number>();
  return {
    ring: (asset) => rings.get(asset) ?? rings.set(asset, ringSize(l, asset, index)).get(asset)!,
    paid: (txid) => l.pool.get(txid) ?? blockOfTx(l, txid)?.txs.find((t) => t.txid === txid),
  };
}

const ZERO_KEY = '0'.repeat(64);

/**
 * The fields of a tx's type between amount_burnt and the assets, and after amount_slippage_limit (v1.1.3c): a
 * CREATE_TOKEN's protocol_tx_data (where its protocol tx returns to) and token_metadata; a ROLLUP's zero return keys
 * and layer2_rollup_data (each tx it pays for: prefix hash, first key image, fee); a transfer's return addresses.
 */
function typeFields(tx: Tx, blockIndex: number, chain: TxChainView): { mid: object; end: object } {
  const seed = tx.txid;
  const tag = txVersion(blockIndex) >= 5 ? { rollup_binding_tag: fakeHex(`${seed}:rollup`, 8) } : {};
  if (tx.type === TxType.CREATE_TOKEN && tx.token) {
    const t = tx.token;
    const data = {
      version: 1,
      return_address: fakeHex(`${seed}:ret`, 32),
      return_pubkey: fakeHex(`${seed}:retpub`, 32),
      return_view_tag: fakeHex(`${seed}:retvt`, 3),
      return_anchor_enc: fakeHex(`${seed}:retanc`, 16),
    };
    const sal = { version: 1, supply: t.supply, size: t.size, name: t.name, url: t.url, signature: ZERO_KEY };
    return {
      mid: { protocol_tx_data: data },
      end: { token_metadata: { version: 1, asset_type: t.ticker, token: { sal_token: sal } } },
    };
  }
  if (tx.type === TxType.ROLLUP) {
    const txs = (tx.rollup ?? []).map((id) => {
      const p = chain.paid?.(id);
      const first = p ? [...p.inputs.map((i) => i.keyImage)].sort()[0] : undefined;
      return { tx_prefix_hash: fakeHex(`${id}:prefix`, 32), first_key_image: first ?? ZERO_KEY, tx_fee: p?.fee ?? 0n };
    });
    return {
      mid: { return_address: ZERO_KEY, return_pubkey: ZERO_KEY },
      end: { ...tag, layer2_rollup_data: { version: 1, txs } },
    };
  }
  return {
    mid: {
      return_address_list: tx.outputs.map((_, i) => fakeHex(`${seed}:return${i}`, 32)),
      return_address_change_mask: fakeBytes(`${seed}:mask`, tx.outputs.length),
    },
    end: tag,
  };
}

/**
 * A user transaction as /get_transactions' `as_json` (`prunable`: with the RingCT proofs, as the
 * whole tx; without them, as the pruned tx) — recorded for a SAL1 TRANSFER, a CREATE_TOKEN and a
 * ROLLUP; other types are given a transfer's shape with their own type, assets and amount_burnt.
 */
export function txJson(tx: Tx, blockIndex: number, chain: TxChainView, prunable = true): string {
  const seed = tx.txid;
  const ring = (asset: string): number => chain.ring(asset);
  const { mid, end } = typeFields(tx, blockIndex, chain);
  return archiveJson({
    version: txVersion(blockIndex),
    unlock_time: 0,
    vin: tx.inputs.map((inp, i) => ({
      key: {
        amount: 0,
        asset_type: inp.asset,
        key_offsets: fakeBytes(`${seed}:offsets${i}`, ring(inp.asset)).map((b) => b % 200),
        k_image: inp.keyImage,
      },
    })),
    vout: tx.outputs.map((o) => ({ amount: 0, target: target(o, blockIndex, o.id) })),
    extra: [...txPublicKeys(tx, blockIndex), 2, 9, 1, ...fakeBytes(`${seed}:pid`, 8)],
    type: tx.type,
    amount_burnt: tx.burnt,
    ...mid,
    source_asset_type: tx.sourceAsset,
    destination_asset_type: tx.destAsset,
    amount_slippage_limit: 0,
    ...end,
    ...rctJson(tx, prunable, ring),
  });
}
