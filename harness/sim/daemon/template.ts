// Block templates and submitted blocks (get_block_template, submit_block, get_block's blob).
//
// A blob starts with the real block header — major and minor version, timestamp (varints), the
// previous block's id, a 4-byte nonce — so a miner finds the nonce where it expects it. After the
// header the simulator puts a 32-byte id of its own (the template's, or the block's hash), which is
// how submit_block finds what was handed out. `reserved_offset` is where the real daemon would put
// the extra nonce (inside the miner tx's tx_extra): computed from the real layout of the miner tx.
import { createHash } from 'node:crypto';
import { HF_CARROT, hardForkAt } from '../chain/constants.js';
import { buildBlock, selectPoolTxs, varintBytes } from '../chain/build.js';
import { chainTxs } from '../chain/outputs.js';
import type { Block } from '../chain/types.js';
import { RpcError } from '../http/server.js';
import { acceptBlock } from './intake.js';
import type { DaemonContext } from './views.js';

function varint(n: bigint | number): number[] {
  let v = BigInt(n);
  const out: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return out;
}

/** The block header's bytes: versions, timestamp, previous id, nonce (little-endian). */
function headerBytes(b: Block): Buffer {
  const nonce = Buffer.alloc(4);
  nonce.writeUInt32LE(b.nonce >>> 0);
  return Buffer.concat([
    Buffer.from([...varint(b.majorVersion), ...varint(b.minorVersion), ...varint(b.timestamp)]),
    Buffer.from(b.prevHash, 'hex'),
    nonce,
  ]);
}

/** get_block's `blob`: the header, the block's id, the number of its transactions (miner and protocol included). */
export function blockBlob(b: Block): string {
  return Buffer.concat([headerBytes(b), Buffer.from(b.hash, 'hex'), Buffer.from(varint(b.txs.length + 2))]).toString(
    'hex',
  );
}

/**
 * Where the real daemon's template blob holds the extra nonce: after the header, the miner tx's
 * version, unlock time, input (the height) and outputs (Carrot: amount, tag, key, asset type, view
 * tag, Janus anchor; before HF10: amount, tag, key, asset type, unlock time, view tag), tx_extra's
 * size and the public keys before the nonce's tag and size.
 */
export function reservedOffset(b: Block, reserveSize: number): number {
  const carrot = hardForkAt(b.index) >= HF_CARROT;
  const outputs = chainTxs(b)[0]!.outputs;
  const header = headerBytes(b).length;
  const prefix = 4 + varintBytes(b.index) + varintBytes(outputs.length);
  const outs = outputs.reduce(
    (s, o) => s + varintBytes(o.amount) + 1 + 32 + 1 + o.asset.length + (carrot ? 3 + 16 : 2),
    0,
  );
  const keys = !carrot || outputs.length <= 1 ? 33 : 2 + 32 * outputs.length;
  return header + prefix + outs + varintBytes(keys + 2 + reserveSize) + keys + 2;
}

/** RandomX seed heights (rx_seedheights): a new seed every 2048 blocks, 64 blocks late. */
export function seedHeights(h: number): { seed: number; next: number } {
  const seedOf = (x: number): number => (x <= 2048 + 64 ? 0 : (x - 64 - 1) & ~(2048 - 1));
  return { seed: seedOf(h), next: seedOf(h + 64) };
}

/** Templates kept for submit_block (the oldest are forgotten beyond this). */
const MAX_TEMPLATES = 1000;

const sha256 = (data: Buffer | string): Buffer => createHash('sha256').update(data).digest();

export interface TemplateResult {
  block: Block;
  id: string;
  blob: string;
  hashingBlob: string;
  reservedOffset: number;
}

/** A template for the next block paying `address`, remembered until it is submitted. */
export function makeTemplate(ctx: DaemonContext, address: string, nonce: Buffer): TemplateResult {
  const l = ctx.ledger;
  const { txs } = selectPoolTxs(l);
  const now = Math.floor(Date.now() / 1000);
  const built = buildBlock(l, address, now, ctx.difficulty(), txs, { nonce: 0 });
  // The reserved bytes are part of the miner tx's tx_extra, so of the block's size.
  const draft = { ...built, weight: built.weight + nonce.length };
  const id = sha256(`${draft.hash}:${ctx.state.templates.size}:${nonce.toString('hex')}`).toString('hex');
  ctx.state.templates.set(id, { block: draft, address });
  if (ctx.state.templates.size > MAX_TEMPLATES) ctx.state.templates.delete(ctx.state.templates.keys().next().value!);
  const offset = nonce.length > 0 ? reservedOffset(draft, nonce.length) : 0;
  const head = Buffer.concat([headerBytes(draft), Buffer.from(id, 'hex')]);
  // Room up to the reserved bytes (which a pool may overwrite), then the rest of a miner tx.
  const pad = Buffer.alloc(Math.max(0, reservedOffset(draft, nonce.length) - head.length));
  const blob = Buffer.concat([head, pad, nonce, Buffer.alloc(2)]);
  const hashing = Buffer.concat([headerBytes(draft), sha256(id), Buffer.from(varint(txs.length + 2))]);
  return { block: draft, id, blob: blob.toString('hex'), hashingBlob: hashing.toString('hex'), reservedOffset: offset };
}

/** The header fields and the id after it, or undefined when the bytes are not a block blob of this daemon. */
function parseBlob(bytes: Buffer): { id: string; nonce: number; prev: string } | undefined {
  let p = 0;
  for (let field = 0; field < 3; field++) {
    while (p < bytes.length && (bytes[p]! & 0x80) !== 0) p++;
    p++;
  }
  if (p + 32 + 4 + 32 > bytes.length) return undefined;
  const prev = bytes.subarray(p, p + 32).toString('hex');
  const nonce = bytes.readUInt32LE(p + 32);
  return { prev, nonce, id: bytes.subarray(p + 36, p + 68).toString('hex') };
}

/** check_hash: does the hash, a little-endian number, times the difficulty fit in 256 bits? */
function meetsDifficulty(hash: Buffer, difficulty: bigint): boolean {
  const n = BigInt(`0x${Buffer.from(hash).reverse().toString('hex')}`);
  return n * difficulty < 1n << 256n;
}

const notAccepted = (): RpcError => new RpcError(-7, 'Block not accepted');

/** A block already known (in the chain or an alternative one) by its id. */
function known(ctx: DaemonContext, id: string): Block | undefined {
  return ctx.ledger.blocks.find((b) => b.hash === id) ?? ctx.state.alt.get(id);
}

/**
 * submit_block: a blob of a template this daemon handed out (with any nonce) becomes the next block
 * when its parent is still the top; when the top has moved on it is kept as an alternative block, as
 * the real daemon does. A blob of a block already known answers its id again.
 */
export function submitBlock(ctx: DaemonContext, hex: string): { block_id: string; status: string; untrusted: boolean } {
  const bytes = /^([0-9a-fA-F]{2})*$/.test(hex) ? Buffer.from(hex, 'hex') : undefined;
  const parsed = bytes && parseBlob(bytes);
  if (!bytes || !parsed) throw new RpcError(-6, 'Wrong block blob');
  const ok = (id: string) => ({ block_id: id, status: 'OK', untrusted: false });
  const already = known(ctx, parsed.id);
  if (already) return ok(already.hash);
  const t = ctx.state.templates.get(parsed.id);
  if (!t) throw new RpcError(-6, 'Wrong block blob');
  if (!meetsDifficulty(sha256(bytes), t.block.difficulty)) throw notAccepted();
  const hash = sha256(`${parsed.id}:${parsed.nonce}`).toString('hex');
  const again = known(ctx, hash);
  if (again) return ok(again.hash);
  const block: Block = { ...t.block, hash, nonce: parsed.nonce };
  // On the top it is added (and relayed to the peers); on an older block it is kept as an alternative one.
  const r = acceptBlock(ctx, block, { relay: true });
  if (r.kind !== 'added' && r.kind !== 'alt') throw notAccepted();
  return ok(hash);
}
