// Building transactions the way the real Carrot wallet does: inputs as its Carrot input selection picks them
// (input-selection.ts); fee = per-byte fee × estimated weight of that input count; at most 64 inputs and 7
// destinations per tx (reference §0, §6, §7.1, §9).
import { randomBytes } from 'node:crypto';
import { formatMoney } from '../common/format.js';
import { carrotDestinationAddress } from '../crypto/keys.js';
import { HF_CARROT, HF_TOKENS, TxType } from '../chain/constants.js';
import { actualWeight, estimateWeight, preCarrotWeight, type WeightShape } from '../chain/emission.js';
import { isTokenAsset, sha256Hex } from '../chain/ledger.js';
import type { TokenCreation, Tx, TxOutput } from '../chain/types.js';
import { RpcError } from '../http/server.js';
import { meta, type Destination, type OutRecord, type OwnedOutput, type SubIndex, type Wallet } from './state.js';
import { indexOfAddress, subaddress } from './subaddresses.js';
import { selectInputs, type Selection, type Unpaid } from './input-selection.js';

export interface BuildContext {
  /** The daemon's next-block hard fork. */
  hf: number;
  feePerByte: bigint;
  now: number;
  /** The wallet's coin for the tx at this place of the answer: try 2 inputs before 1 (input-selection.ts). */
  preferTwoInputs(txIndex: number): boolean;
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

/**
 * Unspent, unfrozen, unlocked outputs of an asset in the source account (and subaddresses), in the order the wallet
 * found them (wallet2's transfers: by block, then by place in the block); a
 * zero-amount change output is never an input (v1.1.3c's sweep_all leaves it).
 */
export function spendable(w: Wallet, asset: string, hf: number, from: Source = ACCOUNT_0): OwnedOutput[] {
  return candidates(w, asset, hf, from)
    .filter((o) => o.amount > 0n)
    .sort((a, b) => a.blockIndex - b.blockIndex);
}

/**
 * The wallet's input candidates of an asset, as the Carrot input selection is given them: its unlocked, unspent
 * outputs, those of amount 0 (a sweep's self-send change) included. They count for its errors only: with one of them
 * and nothing else it says "Not enough money in all inputs (0.00000000) …", not "no input candidates provided".
 */
export function candidates(w: Wallet, asset: string, hf: number, from: Source = ACCOUNT_0): OwnedOutput[] {
  const inSource = (o: OwnedOutput): boolean =>
    subOf(o).major === from.account && (from.minors.length === 0 || from.minors.includes(subOf(o).minor));
  return w.state.outputs.filter(
    (o) =>
      !o.spent &&
      !o.frozen &&
      o.asset === asset &&
      inSource(o) &&
      w.state.height >= o.unlockHeight &&
      !(hf >= HF_TOKENS && o.asset === 'SAL'),
  );
}

/**
 * The fee of a tx: per byte × estimated weight (a CryptoNote tx's own weight). A token tx's fee is nominal: not taken
 * from its inputs.
 */
export const feeOf = (ctx: BuildContext, inputs: number, outputs: number, extraBytes = 0): bigint =>
  ctx.feePerByte *
  BigInt(ctx.hf < HF_CARROT ? preCarrotWeight(inputs, outputs) : estimateWeight(inputs, outputs, extraBytes));

/**
 * The inputs of the tx at `txIndex` of an answer (its place in `spent_key_images_list`) paying `amount` to `nOut`
 * outputs (change included): the real wallet's Carrot input selection, its coin from the context.
 */
export function pickInputs(
  cands: OwnedOutput[],
  amount: bigint,
  nOut: number,
  ctx: BuildContext,
  o: { txIndex: number; token?: boolean; extraBytes?: number },
): Selection {
  return selectInputs(cands, {
    outputSum: amount,
    feeFor: (n) => feeOf(ctx, n, nOut, o.extraBytes),
    token: o.token ?? false,
    preferTwo: ctx.preferTwoInputs(o.txIndex),
  });
}

const UNPAID: Record<Exclude<Unpaid, 'money' | 'usable'>, string> = {
  subset: 'No single allowed subset of candidates had enough money to fund payment proposals and fees for inputs',
  policy: 'provided input selection policies failed with enough usable money',
};

/**
 * The error of a selection that cannot pay, with the code of the method that asked (transfer, transfer_split and the
 * sweeps -4, create_token -1): more outputs than one tx may spend whose 64 largest cannot pay are `usable` money too.
 */
export function insufficient(
  p: Extract<Selection, { ok: false }>,
  code: number,
  candidateCount = p.have === 0n ? 0 : 1,
): RpcError {
  if (candidateCount === 0) return new RpcError(code, 'no input candidates provided');
  if (p.why === 'subset' || p.why === 'policy') return new RpcError(code, UNPAID[p.why]);
  if (p.why === 'usable' && p.top)
    return new RpcError(
      code,
      `Not enough usable money in top ${p.top.n} inputs (${formatMoney(p.top.sum)}) to fund minimum output sum (${formatMoney(p.need)})`,
    );
  return new RpcError(
    code,
    `Not enough money in all inputs (${formatMoney(p.have)}) to fund minimum output sum (${formatMoney(p.need)})`,
  );
}

/** Change goes to the account's minor 0 (wallet2: "all changes go to 0-th subaddress"). */
function changeAddress(w: Wallet, hf: number, account: number): string {
  return subaddress(w, { major: account, minor: 0 }, hf >= HF_CARROT ? 'carrot' : 'cn');
}

/** A ROLLUP, a CREATE_TOKEN and a token's own transfer weigh less than a SAL1 transfer (emission.ts actualWeight). */
function weightShape(type: TxType, asset: string): WeightShape {
  if (type === TxType.ROLLUP || type === TxType.CREATE_TOKEN) return 'changeOnly';
  return type === TxType.TRANSFER && isTokenAsset(asset) ? 'token' : 'transfer';
}

/** The weight a built tx reports: a CryptoNote tx's before HF10, a Carrot tx's of its shape after. */
function builtWeight(
  ctx: BuildContext,
  o: { type: TxType; asset: string; inputs: readonly OwnedOutput[]; token?: unknown; extraBytes?: number },
  outputs: number,
): number {
  if (ctx.hf < HF_CARROT) return preCarrotWeight(o.inputs.length, outputs);
  return actualWeight(o.inputs.length, outputs, {
    shape: weightShape(o.type, o.asset),
    metadataBytes: o.token ? (o.extraBytes ?? 0) : 0,
  });
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
  // A ROLLUP and a CREATE_TOKEN have no destination: their change is their only output (v1.1.3c's vout lists one).
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
    weight: builtWeight(ctx, o, outputs.length),
    timestamp: ctx.now,
    unlockTime: 0,
    ...(o.token ? { token: { ...o.token, creator: changeAddress(w, ctx.hf, account) } } : {}),
  };
  // make_pending_carrot_tx's "2-out dummy" case: a Carrot tx whose one destination, another wallet's (a normal payment
  // proposal: one of the wallet's own addresses is a self-send), gets 0 records that output as its change and the real
  // change as its destination (the account's address, shown with another view key). The answer's amount and the
  // pending entry are then the change, which the pending balance counts as paid to the wallet itself; once mined, the
  // entry's amount is 0, as any self-send's.
  const dummy =
    ctx.hf >= HF_CARROT && o.dests.length === 1 && o.dests[0]!.amount === 0n && !indexOfAddress(w, o.dests[0]!.address);
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
  const pick = pickInputs(spendable(w, 'SAL1', ctx.hf, from), price, 2, ctx, { txIndex: 0 });
  if (!pick.ok) throw insufficient(pick, -1);
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
