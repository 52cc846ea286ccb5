// Building transactions the way the real Carrot wallet does, as far as the transcripts show:
// oldest unlocked outputs first (the recorded spends are SAL1 outputs of heights ~840–880, in order); fee = per-byte
// fee × estimated weight; input count rounded up to
// a power of two (1 for a small transfer, 2 for transfer_split, 16 for a token's 1000 SAL1);
// at most 64 inputs and 7 destinations per tx (reference §0, §6, §7.1, §9).
import { randomBytes } from 'node:crypto';
import { formatMoney } from '../common/format.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { encodeAddress, type AddressFamily } from '../crypto/address.js';
import { carrotDestinationAddress, scalarMultBase, scReduce32 } from '../crypto/keys.js';
import { CARROT_MAX_INPUTS, HF_CARROT, HF_TOKENS, TxType } from '../chain/constants.js';
import { actualWeight, estimateWeight } from '../chain/emission.js';
import { sha256Hex } from '../chain/ledger.js';
import type { TokenCreation, Tx, TxOutput } from '../chain/types.js';
import { RpcError } from '../http/server.js';
import { meta, type Destination, type OutRecord, type OwnedOutput, type SubIndex, type Wallet } from './state.js';
import { indexOfAddress, subaddress } from './subaddresses.js';

export interface BuildContext {
  /** The daemon's next-block hard fork. */
  hf: number;
  feePerByte: bigint;
  now: number;
}

/** Where a tx's inputs come from: an account and, if any are given, some of its subaddresses. */
export interface Source {
  account: number;
  minors: number[];
}

export const ACCOUNT_0: Source = { account: 0, minors: [] };

const subOf = (o: { subaddr?: SubIndex }): SubIndex => o.subaddr ?? { major: 0, minor: 0 };

export interface Built {
  tx: Tx;
  record: OutRecord;
  inputs: OwnedOutput[];
  /** Network fee only (what `fee`/`fee_list` report; for a token tx the nominal fee its ROLLUP burns). */
  fee: bigint;
  /** What `amount`/`amount_list` report. */
  amount: bigint;
  destAmounts: bigint[];
}

export const TOO_LARGE = (): RpcError => new RpcError(-18, 'Transaction would be too large.  try /transfer_split.');
const ZERO_PID = '0'.repeat(16);

const nextPow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

/**
 * Unspent, unfrozen, unlocked outputs of an asset in the source account (and subaddresses), oldest first; a
 * zero-amount change output is never an input (v1.1.3c's sweep_all leaves it).
 */
export function spendable(w: Wallet, asset: string, hf: number, from: Source = ACCOUNT_0): OwnedOutput[] {
  const inSource = (o: OwnedOutput): boolean =>
    subOf(o).major === from.account && (from.minors.length === 0 || from.minors.includes(subOf(o).minor));
  return w.state.outputs
    .filter(
      (o) =>
        !o.spent &&
        !o.frozen &&
        o.amount > 0n &&
        o.asset === asset &&
        inSource(o) &&
        w.state.height >= o.unlockHeight &&
        !(hf >= HF_TOKENS && o.asset === 'SAL'),
    )
    .sort((a, b) => a.blockIndex - b.blockIndex || (a.id < b.id ? -1 : 1));
}

export type Pick =
  { ok: true; inputs: OwnedOutput[]; fee: bigint } | { ok: false; tooMany: boolean; have: bigint; need: bigint };

export function pickInputs(
  cands: OwnedOutput[],
  amount: bigint,
  nOut: number,
  perByte: bigint,
  minInputs: number,
  roundUp: boolean,
): Pick {
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
    // The real minimum is the output sum plus the fee of the smallest input count (carrot input selection).
    return {
      ok: false,
      tooMany: chosen.length >= CARROT_MAX_INPUTS && have >= amount + feeFor(chosen.length),
      have,
      need: amount + feeFor(1),
    };
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

export function insufficient(p: Extract<Pick, { ok: false }>, code: number): RpcError {
  if (p.have === 0n) return new RpcError(code, 'no input candidates provided');
  return new RpcError(
    code,
    `Not enough money in all inputs (${formatMoney(p.have)}) to fund minimum output sum (${formatMoney(p.need)})`,
  );
}

const UNOWNED = new Map<AddressFamily, string>();
/** An address of keys no wallet has (hashes times G), for the zero-amount filler output. */
function unowned(hf: number): string {
  const family: AddressFamily = hf >= HF_CARROT ? 'carrot' : 'cn';
  let a = UNOWNED.get(family);
  if (!a) {
    const key = (tag: string): Uint8Array => scalarMultBase(scReduce32(keccak_256(new TextEncoder().encode(tag))));
    a = encodeAddress({
      network: 'testnet',
      family,
      type: 'standard',
      spendPublicKey: key('saltnet-sim filler spend'),
      viewPublicKey: key('saltnet-sim filler view'),
    });
    UNOWNED.set(family, a);
  }
  return a;
}

/** Change goes to the account's minor 0 (wallet2: "all changes go to 0-th subaddress"). */
function changeAddress(w: Wallet, hf: number, account: number): string {
  return subaddress(w, { major: account, minor: 0 }, hf >= HF_CARROT ? 'carrot' : 'cn');
}

export function makeTx(
  w: Wallet,
  ctx: BuildContext,
  o: {
    type: TxType;
    inputs: OwnedOutput[];
    dests: Destination[];
    fee: bigint;
    burnt: bigint;
    asset: string;
    sourceAsset: string;
    token?: Omit<TokenCreation, 'creator'>;
    extraBytes?: number;
    account?: number;
  },
): Built {
  const account = o.account ?? 0;
  const txid = sha256Hex(`${randomBytes(16).toString('hex')}:${o.inputs.map((i) => i.id).join(',')}`);
  const inSum = o.inputs.reduce((s, i) => s + i.amount, 0n);
  const destSum = o.dests.reduce((s, d) => s + d.amount, 0n);
  const feeAsset = o.asset === 'SAL1' ? o.fee + o.burnt : 0n;
  const change = inSum - destSum - feeAsset;
  const outputs: TxOutput[] = [
    ...o.dests.map((d) => ({ address: d.address, amount: d.amount, asset: d.asset })),
    { address: changeAddress(w, ctx.hf, account), amount: change, asset: o.asset },
  ].map((x, i) => ({ ...x, id: `${txid}:${i}` }));
  // A Carrot tx has at least two outputs: a zero-amount output nobody owns stands in when there is no
  // destination (no wallet lists it: a real ROLLUP's owner sees its change only).
  if (outputs.length < 2)
    outputs.push({ id: `${txid}:${outputs.length}`, address: unowned(ctx.hf), amount: 0n, asset: o.asset });
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
    ...(o.token ? { token: { ...o.token, creator: changeAddress(w, ctx.hf, account) } } : {}),
  };
  // make_pending_carrot_tx's "2-out dummy" case: a Carrot tx whose one destination gets 0 records that output as its
  // change and the real change as its destination (the account's address, shown with another view key). The answer's
  // amount and the pending entry are then the change, which the pending balance counts as paid to the wallet itself;
  // once mined, the entry's amount is 0, as any self-send's.
  const dummy = ctx.hf >= HF_CARROT && o.dests.length === 1 && o.dests[0]!.amount === 0n;
  const recorded = dummy ? [{ address: changeAddress(w, ctx.hf, account), amount: change, asset: o.asset }] : o.dests;
  const record: OutRecord = {
    txid,
    state: 'pending',
    height: 0,
    timestamp: ctx.now,
    amountIn: inSum,
    change: dummy ? 0n : change,
    fee: feeAsset,
    asset: o.sourceAsset,
    // Each destination as the wallet rebuilds it from its payment proposal (a self-send from the spend key alone).
    destinations: recorded.map((d) => ({
      ...d,
      address: carrotDestinationAddress(d.address, indexOfAddress(w, d.address) ? w.keys.carrot.viewSecret : undefined),
    })),
    paymentId,
    inputs: o.inputs.map((i) => i.id),
    account,
    subaddrIndices: [...new Set(o.inputs.map((i) => subOf(i).minor))].sort((a, b) => a - b),
    selfDests: dummy ? [{ major: account, minor: 0, amount: change }] : selfDestinations(w, o.dests),
  };
  const amount = dummy ? change : destSum;
  return { tx, record, inputs: o.inputs, fee: o.fee, amount, destAmounts: recorded.map((d) => d.amount) };
}

/** Destinations that are the wallet's own subaddresses: they count in its balance while pending. */
function selfDestinations(w: Wallet, dests: Destination[]): (SubIndex & { amount: bigint })[] {
  const out: (SubIndex & { amount: bigint })[] = [];
  for (const d of dests) {
    const idx = indexOfAddress(w, d.address);
    if (idx) out.push({ ...idx, amount: d.amount });
  }
  return out;
}

/** The CREATE_TOKEN tx: SAL1 inputs, burn of the creation price, change back to the creator. */
export function buildCreateToken(
  w: Wallet,
  ctx: BuildContext,
  token: Omit<TokenCreation, 'creator'>,
  price: bigint,
  from: Source = ACCOUNT_0,
): Built {
  if (!w.state.assetsSeen.includes('SAL1')) throw new RpcError(-1, 'invalid asset_type specified to get_transfers');
  const pick = pickInputs(spendable(w, 'SAL1', ctx.hf, from), price, 2, ctx.feePerByte, 1, true);
  if (!pick.ok) {
    if (pick.tooMany) throw new RpcError(-7, 'ptx_vector contains more than one transaction.');
    throw insufficient(pick, -1);
  }
  return makeTx(w, ctx, {
    type: TxType.CREATE_TOKEN,
    inputs: pick.inputs,
    dests: [],
    fee: pick.fee,
    burnt: price,
    asset: 'SAL1',
    sourceAsset: 'SAL1',
    token,
    extraBytes: token.metadataHex.length / 2,
    account: from.account,
  });
}

/** After the daemon accepted them: inputs are spent and the txs are pending. */
export function commit(w: Wallet, built: Built[]): void {
  for (const b of built) {
    for (const i of b.inputs) {
      i.spent = true;
      i.spentBy = b.tx.txid;
    }
    w.state.outs = w.state.outs.filter((r) => r.txid !== b.tx.txid);
    w.state.outs.push(b.record);
    if (!meta(w).txKeys.includes(b.tx.txid)) meta(w).txKeys.push(b.tx.txid);
  }
}
