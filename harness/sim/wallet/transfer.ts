// `transfer`, `transfer_split` and `sweep_all` from HF10 on, as wallet2::create_transactions_2 and
// create_transactions_all build them: at most 7 destinations and 64 inputs per tx, and for a
// token (any source asset but SAL1) a ROLLUP in front that pays the SAL1 fees (README,
// "Established on the real programs").
import { NOT_MODELLED_CODE, notModelledMessage } from '../http/not-modelled.js';
import { CARROT_MAX_DESTINATIONS, CARROT_MAX_INPUTS, HF_CARROT, TxType } from '../chain/constants.js';
import { isTokenAsset } from '../chain/ledger.js';
import { RpcError } from '../http/server.js';
import {
  ACCOUNT_0,
  TOO_LARGE,
  candidates,
  feeOf,
  insufficient,
  makeTx,
  pickInputs,
  spendable,
  type BuildContext,
  type Built,
  type Source,
} from './build.js';
import type { Destination, OwnedOutput, Wallet } from './state.js';
import { isOwnAddress } from './subaddresses.js';
import { decodeAddress } from '../crypto/address.js';

export interface TransferRequest {
  destinations: Destination[];
  sourceAsset: string;
  txType: number;
  split: boolean;
  /** The account (and subaddresses) to spend from. */
  from?: Source;
}

/**
 * The ROLLUP in front of token txs: SAL1 inputs pay its own fee and burn the token txs' nominal
 * fees (their sum is its payment to the wallet itself, so the entry shows amount 0). A wallet that
 * never held SAL1 fails its input lookup; one without unlocked SAL1 has no input candidates.
 */
function withRollup(w: Wallet, ctx: BuildContext, built: Built[], from: Source): Built[] {
  if (!w.state.assetsSeen.includes('SAL1')) throw new RpcError(-4, 'invalid asset_type specified to get_transfers');
  const used = new Set(built.flatMap((b) => b.inputs.map((i) => i.id)));
  const burnt = built.reduce((s, b) => s + b.fee, 0n);
  const sal1 = spendable(w, 'SAL1', ctx.hf, from).filter((c) => !used.has(c.id));
  const pick = pickInputs(sal1, burnt, 2, ctx, { txIndex: 0 });
  if (!pick.ok) throw insufficient(pick, -4);
  const rollup = makeTx(w, ctx, {
    type: TxType.ROLLUP,
    inputs: pick.inputs,
    dests: [],
    fee: pick.fee,
    burnt,
    asset: 'SAL1',
    sourceAsset: 'SAL1',
    account: from.account,
  });
  rollup.tx.rollup = built.map((b) => b.tx.txid);
  return [rollup, ...built];
}

/** The wallet's candidates of amount 0 (a sweep's self-send change): they count for the errors only. */
const zeroCandidates = (w: Wallet, asset: string, ctx: BuildContext, from: Source): number =>
  asset === '' ? 0 : candidates(w, asset, ctx.hf, from).filter((o) => o.amount === 0n).length;

/**
 * The tx_extra bytes a request adds beside Carrot's own fields: validate_transfer puts an integrated destination's
 * payment id there (one per request: an 11-byte nonce field of 8 bytes, its tag, its size and the field's variant
 * tag), and every tx the request builds carries it, so their fees pay for those bytes too.
 */
const requestExtraBytes = (addresses: readonly string[]): number =>
  addresses.some((a) => decodeAddress(a)?.type === 'integrated') ? 11 : 0;

/** `transfer` / `transfer_split` from HF10 on; the caller has validated addresses and the destination list. */
export function buildTransfer(w: Wallet, ctx: BuildContext, req: TransferRequest): Built[] {
  const asset = req.destinations[0]?.asset ?? '';
  if (req.destinations.some((d) => d.asset !== asset))
    throw new RpcError(-4, 'Mixed asset_types in transaction outputs is forbidden');
  if (asset !== '' && !w.state.assetsSeen.includes(asset))
    throw new RpcError(-4, 'invalid asset_type specified to get_transfers');
  // Token inputs need not cover the fee (carrot IS_TOKEN_TRANSFER): the ROLLUP pays it in SAL1.
  const feeFromInputs = !isTokenAsset(asset);
  const from = req.from ?? ACCOUNT_0;
  const cands = asset === '' ? [] : spendable(w, asset, ctx.hf, from);
  const used = new Set<string>();
  const built: Built[] = [];
  const queue = req.destinations.map((d) => ({ ...d }));
  const extraBytes = requestExtraBytes(req.destinations.map((d) => d.address));
  while (queue.length > 0) {
    // make_carrot_transaction_proposals_wallet2_transfer fills each tx from the back of the list (dsts.back(), then
    // pop_back): the first tx pays the last 7 destinations.
    const chunk = queue.splice(-CARROT_MAX_DESTINATIONS).reverse();
    const total = chunk.reduce((s, d) => s + d.amount, 0n);
    const free = cands.filter((c) => !used.has(c.id));
    // A token transfer's answer lists its ROLLUP first.
    const txIndex = built.length + (req.sourceAsset !== 'SAL1' ? 1 : 0);
    const pick = pickInputs(free, total, chunk.length + 1, ctx, { txIndex, token: !feeFromInputs, extraBytes });
    if (!pick.ok) throw insufficient(pick, -4, free.length + zeroCandidates(w, asset, ctx, from));
    pick.inputs.forEach((i) => used.add(i.id));
    built.push(
      makeTx(w, ctx, {
        type: TxType.TRANSFER,
        inputs: pick.inputs,
        dests: chunk,
        fee: pick.fee,
        burnt: 0n,
        asset,
        // The tx's source asset is its outputs' (a token's, whatever source_asset said): with source_asset SAL1 a
        // token transfer goes without its ROLLUP, and waits in the pool for ever (readyToMine).
        sourceAsset: feeFromInputs ? req.sourceAsset : asset,
        account: from.account,
        extraBytes,
      }),
    );
  }
  const all = req.sourceAsset !== 'SAL1' ? withRollup(w, ctx, built, from) : built;
  if (req.txType === TxType.UNSET) throw new RpcError(-4, 'make_pending_carrot_tx: tx proposal has unset tx type');
  // v1.1.3c builds a transfer of any other tx_type too (1, 2 and 4 to 99 were tried): what such a tx does on chain is
  // not modelled, so the simulator says so instead of answering an error the real wallet never gives.
  if (req.txType !== TxType.TRANSFER) {
    const name = TxType[req.txType] ?? 'no type of Salvium';
    const why = `a transfer of tx_type ${req.txType} (${name}); only 3 (TRANSFER) is`;
    throw new RpcError(NOT_MODELLED_CODE, notModelledMessage('transfer', why));
  }
  // on_transfer asks for every tx of the request, as transfer_split does, and refuses more than one only then: a
  // destination the wallet cannot pay is that error first.
  if (all.length > 1 && !req.split) throw TOO_LARGE();
  return all;
}

/**
 * The fee of a sweep of `inputs` to `outputs` destinations (and the self-send change every sweep has), and what is
 * left to share out. From HF10 a SAL1 sweep whose inputs do not pay its fee fails make_carrot_transaction_proposal_v1's
 * balance check (the carve leaves a negative sum to share).
 */
export function sweepShare(
  ctx: BuildContext,
  inputs: readonly OwnedOutput[],
  o: { address: string; outputs: number; asset: string; code: number },
): { fee: bigint; total: bigint } {
  const fee = feeOf(ctx, inputs.length, o.outputs + 1, requestExtraBytes([o.address]));
  const have = inputs.reduce((s, c) => s + c.amount, 0n);
  const total = have - (o.asset === 'SAL1' ? fee : 0n);
  if (total < 0n && ctx.hf >= HF_CARROT)
    throw new RpcError(-4, 'make_carrot_transaction_proposal_v1: post-carved transaction does not balance');
  if (total <= 0n) throw insufficient({ ok: false, why: 'money', have, need: fee }, o.code);
  return { fee, total };
}

/**
 * `sweep_all` (every unlocked output of an asset) and `sweep_single` (one output). A token's
 * outputs go whole to the destination; from HF10 a ROLLUP in front pays the fee.
 */
export function buildSweep(
  w: Wallet,
  ctx: BuildContext,
  o: { inputs: OwnedOutput[]; address: string; outputs: number; asset: string; code: number; from?: Source },
): Built[] {
  const from = o.from ?? ACCOUNT_0;
  const built: Built[] = [];
  const extraBytes = requestExtraBytes([o.address]);
  for (let i = 0; i < o.inputs.length; i += CARROT_MAX_INPUTS) {
    const inputs = o.inputs.slice(i, i + CARROT_MAX_INPUTS);
    const { fee, total } = sweepShare(ctx, inputs, o);
    // make_carrot_transaction_proposal_v1_sweep shares the sum out evenly (one more unit to the first
    // few): among the destinations, or, when they are the wallet's own, among them and the self-send
    // change output too.
    const shares = BigInt(o.outputs + (isOwnAddress(w, o.address) ? 1 : 0));
    const each = total / shares;
    const dests: Destination[] = Array.from({ length: o.outputs }, (_, k) => ({
      address: o.address,
      amount: each + (BigInt(k) < total % shares ? 1n : 0n),
      asset: o.asset,
    }));
    built.push(
      makeTx(w, ctx, {
        type: TxType.TRANSFER,
        inputs,
        dests,
        fee,
        burnt: 0n,
        asset: o.asset,
        sourceAsset: o.asset,
        account: from.account,
        extraBytes,
      }),
    );
  }
  return isTokenAsset(o.asset) ? withRollup(w, ctx, built, from) : built;
}
