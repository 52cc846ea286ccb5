// Building transactions the way the real Carrot wallet does, as far as the transcripts show:
// oldest unlocked outputs first (the recorded spends are SAL1 outputs of heights ~840–880, in order); fee = per-byte fee × estimated weight; input count rounded up to
// a power of two (1 for a small transfer, 2 for transfer_split, 16 for a token's 1000 SAL1);
// at most 64 inputs and 7 destinations per tx (reference §0, §6, §7.1, §9).
import { randomBytes } from 'node:crypto';
import { carrotDestinationDisplayAddress } from '../crypto/keys.js';
import { CARROT_MAX_DESTINATIONS, CARROT_MAX_INPUTS, HF_CARROT, HF_TOKENS, TxType } from '../chain/constants.js';
import { actualWeight, estimateWeight } from '../chain/emission.js';
import { sha256Hex } from '../chain/ledger.js';
import type { TokenCreation, Tx, TxOutput } from '../chain/types.js';
import { RpcError } from '../http/server.js';
import { formatMoney } from '../common/format.js';
import type { Destination, OutRecord, OwnedOutput, Wallet } from './state.js';

export interface BuildContext {
  /** The daemon's next-block hard fork. */
  hf: number;
  feePerByte: bigint;
  now: number;
}

export interface Built {
  tx: Tx;
  record: OutRecord;
  inputs: OwnedOutput[];
  /** Network fee only (what `fee`/`fee_list` report). */
  fee: bigint;
  /** What `amount`/`amount_list` report. */
  amount: bigint;
  destAmounts: bigint[];
}

export const TOO_LARGE = (): RpcError => new RpcError(-18, 'Transaction would be too large.  try /transfer_split.');
const ZERO_PID = '0'.repeat(16);

const nextPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

/** Unspent, unlocked outputs of an asset, oldest first. */
export function spendable(w: Wallet, asset: string, hf: number): OwnedOutput[] {
  return w.state.outputs
    .filter((o) => !o.spent && o.asset === asset && w.state.height >= o.unlockHeight && !(hf >= HF_TOKENS && o.asset === 'SAL'))
    .sort((a, b) => a.blockIndex - b.blockIndex || (a.id < b.id ? -1 : 1));
}

type Pick = { ok: true; inputs: OwnedOutput[]; fee: bigint } | { ok: false; tooMany: boolean; have: bigint; need: bigint };

function pickInputs(cands: OwnedOutput[], amount: bigint, nOut: number, perByte: bigint, minInputs: number, roundUp: boolean): Pick {
  const chosen: OwnedOutput[] = [];
  let sum = 0n;
  const feeFor = (n: number): bigint => perByte * BigInt(estimateWeight(n, nOut));
  for (const c of cands) {
    if (chosen.length >= CARROT_MAX_INPUTS) break;
    chosen.push(c);
    sum += c.amount;
    if (sum >= amount + feeFor(chosen.length)) break;
  }
  if (chosen.length === 0 || sum < amount + feeFor(chosen.length)) {
    const have = cands.reduce((s, c) => s + c.amount, 0n);
    return { ok: false, tooMany: chosen.length >= CARROT_MAX_INPUTS && have >= amount + feeFor(chosen.length), have, need: amount + feeFor(Math.max(chosen.length, 1)) };
  }
  const target = Math.min(Math.max(minInputs, roundUp ? nextPow2(chosen.length) : chosen.length), CARROT_MAX_INPUTS);
  for (const c of cands.slice(chosen.length)) {
    if (chosen.length >= target) break;
    // Only widen while each extra input still pays for its own weight.
    if (c.amount <= perByte * 1190n) break;
    chosen.push(c);
    sum += c.amount;
  }
  return { ok: true, inputs: chosen, fee: feeFor(chosen.length) };
}

function insufficient(p: Extract<Pick, { ok: false }>, code: number): RpcError {
  if (p.have === 0n) return new RpcError(code, 'no input candidates provided');
  return new RpcError(code, `Not enough money in all inputs (${formatMoney(p.have)}) to fund minimum output sum (${formatMoney(p.need)})`);
}

function changeAddress(w: Wallet, hf: number): string {
  return hf >= HF_CARROT ? w.keys.carrot.address : w.keys.cn.address;
}

function makeTx(
  w: Wallet,
  ctx: BuildContext,
  o: { type: TxType; inputs: OwnedOutput[]; dests: Destination[]; fee: bigint; burnt: bigint; asset: string; sourceAsset: string; token?: Omit<TokenCreation, 'creator'>; extraBytes?: number },
): Built {
  const txid = sha256Hex(`${randomBytes(16).toString('hex')}:${o.inputs.map((i) => i.id).join(',')}`);
  const inSum = o.inputs.reduce((s, i) => s + i.amount, 0n);
  const destSum = o.dests.reduce((s, d) => s + d.amount, 0n);
  const feeAsset = o.asset === 'SAL1' ? o.fee + o.burnt : 0n;
  const change = inSum - destSum - feeAsset;
  const outputs: TxOutput[] = [...o.dests.map((d) => ({ address: d.address, amount: d.amount, asset: d.asset })), { address: changeAddress(w, ctx.hf), amount: change, asset: o.asset }].map((x, i) => ({ ...x, id: `${txid}:${i}` }));
  // A Carrot tx has at least two outputs: a zero-amount self output stands in when there is no destination.
  if (outputs.length < 2) outputs.push({ id: `${txid}:${outputs.length}`, address: changeAddress(w, ctx.hf), amount: 0n, asset: o.asset });
  const paymentId = o.type === TxType.TRANSFER ? randomBytes(8).toString('hex') : ZERO_PID;
  const tx: Tx = {
    txid,
    type: o.type,
    inputs: o.inputs.map((i) => ({ outputId: i.id, keyImage: i.keyImage, amount: i.amount, asset: i.asset })),
    outputs,
    fee: o.fee,
    burnt: o.burnt,
    sourceAsset: o.sourceAsset,
    destAsset: o.asset,
    paymentId,
    weight: actualWeight(o.inputs.length, outputs.length, o.extraBytes ?? 0),
    timestamp: ctx.now,
    unlockTime: 0,
    ...(o.token ? { token: { ...o.token, creator: changeAddress(w, ctx.hf) } } : {}),
  };
  const record: OutRecord = {
    txid,
    state: 'pending',
    height: 0,
    timestamp: ctx.now,
    amountIn: inSum,
    change,
    fee: o.fee + o.burnt,
    asset: o.sourceAsset,
    destinations: o.dests.map((d) => ({ ...d, address: carrotDestinationDisplayAddress(d.address) })),
    paymentId,
    inputs: o.inputs.map((i) => i.id),
  };
  return { tx, record, inputs: o.inputs, fee: o.fee, amount: destSum, destAmounts: o.dests.map((d) => d.amount) };
}

export interface TransferRequest {
  destinations: Destination[];
  sourceAsset: string;
  txType: number;
  split: boolean;
}

/** `transfer` / `transfer_split` from HF10 on; the caller has validated addresses and the destination list. */
export function buildTransfer(w: Wallet, ctx: BuildContext, req: TransferRequest): Built[] {
  const asset = req.destinations[0]?.asset ?? '';
  if (req.destinations.some((d) => d.asset !== asset)) throw new RpcError(-4, 'Mixed asset_types in transaction outputs is forbidden');
  if (asset !== '' && !w.state.assetsSeen.includes(asset)) throw new RpcError(-4, 'invalid asset_type specified to get_transfers');
  const tokenPath = req.sourceAsset !== 'SAL1';
  const cands = asset === '' ? [] : spendable(w, asset, ctx.hf);
  const used = new Set<string>();
  const built: Built[] = [];
  const queue = req.destinations.map((d) => ({ ...d }));
  while (queue.length > 0) {
    const chunk = queue.splice(0, CARROT_MAX_DESTINATIONS);
    if (queue.length > 0 && !req.split) throw TOO_LARGE();
    const total = chunk.reduce((s, d) => s + d.amount, 0n);
    const free = cands.filter((c) => !used.has(c.id));
    // A token transfer pays no fee itself: its SAL1 fee goes in a separate ROLLUP tx.
    const pick = pickInputs(free, total, chunk.length + 1, tokenPath ? 0n : ctx.feePerByte, req.split ? 2 : 1, true);
    if (!pick.ok) {
      if (!pick.tooMany) throw insufficient(pick, -4);
      if (!req.split) throw TOO_LARGE();
      // Pay what 64 inputs can carry and move the rest to the next tx.
      const inputs = free.slice(0, CARROT_MAX_INPUTS);
      const fee = tokenPath ? 0n : ctx.feePerByte * BigInt(estimateWeight(inputs.length, chunk.length + 1));
      let budget = inputs.reduce((s, c) => s + c.amount, 0n) - fee;
      const paid: Destination[] = [];
      for (const d of chunk) {
        const pay = d.amount <= budget ? d.amount : budget;
        if (pay > 0n) paid.push({ ...d, amount: pay });
        budget -= pay;
        if (pay < d.amount) queue.unshift({ ...d, amount: d.amount - pay });
      }
      inputs.forEach((i) => used.add(i.id));
      built.push(makeTx(w, ctx, { type: TxType.TRANSFER, inputs, dests: paid, fee, burnt: 0n, asset, sourceAsset: req.sourceAsset }));
      continue;
    }
    pick.inputs.forEach((i) => used.add(i.id));
    built.push(makeTx(w, ctx, { type: TxType.TRANSFER, inputs: pick.inputs, dests: chunk, fee: pick.fee, burnt: 0n, asset, sourceAsset: req.sourceAsset }));
  }
  if (tokenPath) {
    // The ROLLUP tx: SAL1 inputs pay the network fee of the whole transfer.
    const sal1 = spendable(w, 'SAL1', ctx.hf).filter((c) => !used.has(c.id));
    const fee = built.reduce((s, b) => s + ctx.feePerByte * BigInt(estimateWeight(b.inputs.length, b.tx.outputs.length)), 0n);
    const pick = pickInputs(sal1, fee, 2, ctx.feePerByte, 1, true);
    if (!pick.ok) throw insufficient(pick, -4);
    built.unshift(makeTx(w, ctx, { type: TxType.ROLLUP, inputs: pick.inputs, dests: [], fee: fee + pick.fee, burnt: 0n, asset: 'SAL1', sourceAsset: 'SAL1' }));
  }
  if (req.txType === TxType.UNSET) throw new RpcError(-4, 'make_pending_carrot_tx: tx proposal has unset tx type');
  if (req.txType !== TxType.TRANSFER) throw new RpcError(-4, `Invalid tx type specified: ${req.txType}`);
  if (built.length > 1 && !req.split) throw TOO_LARGE();
  return built;
}

/** `sweep_all` (every unlocked output of an asset) and `sweep_single` (one output). */
export function buildSweep(w: Wallet, ctx: BuildContext, o: { inputs: OwnedOutput[]; address: string; outputs: number; asset: string; code: number }): Built[] {
  const built: Built[] = [];
  for (let i = 0; i < o.inputs.length; i += CARROT_MAX_INPUTS) {
    const inputs = o.inputs.slice(i, i + CARROT_MAX_INPUTS);
    const fee = ctx.feePerByte * BigInt(estimateWeight(inputs.length, o.outputs + 1));
    const total = inputs.reduce((s, c) => s + c.amount, 0n) - (o.asset === 'SAL1' ? fee : 0n);
    if (total <= 0n) throw new RpcError(o.code, `Not enough money in all inputs (${formatMoney(total + fee)}) to fund minimum output sum (${formatMoney(fee)})`);
    const each = total / BigInt(o.outputs);
    const dests: Destination[] = Array.from({ length: o.outputs }, (_, k) => ({ address: o.address, amount: k === 0 ? total - each * BigInt(o.outputs - 1) : each, asset: o.asset }));
    built.push(makeTx(w, ctx, { type: TxType.TRANSFER, inputs, dests, fee, burnt: 0n, asset: o.asset, sourceAsset: o.asset }));
  }
  return built;
}

/** The CREATE_TOKEN tx: SAL1 inputs, burn of the creation price, change back to the creator. */
export function buildCreateToken(w: Wallet, ctx: BuildContext, token: Omit<TokenCreation, 'creator'>, price: bigint): Built {
  if (!w.state.assetsSeen.includes('SAL1')) throw new RpcError(-1, 'invalid asset_type specified to get_transfers');
  const pick = pickInputs(spendable(w, 'SAL1', ctx.hf), price, 2, ctx.feePerByte, 1, true);
  if (!pick.ok) {
    if (pick.tooMany) throw new RpcError(-7, 'ptx_vector contains more than one transaction.');
    throw insufficient(pick, -1);
  }
  return makeTx(w, ctx, { type: TxType.CREATE_TOKEN, inputs: pick.inputs, dests: [], fee: pick.fee, burnt: price, asset: 'SAL1', sourceAsset: 'SAL1', token, extraBytes: token.metadataHex.length / 2 });
}

/** After the daemon accepted them: inputs are spent and the txs are pending. */
export function commit(w: Wallet, built: Built[]): void {
  for (const b of built) {
    for (const i of b.inputs) {
      i.spent = true;
      i.spentBy = b.tx.txid;
    }
    w.state.outs.push(b.record);
  }
}
