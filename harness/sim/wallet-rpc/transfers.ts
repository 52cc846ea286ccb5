// The wallet RPC's sending methods (reference §6): transfer, transfer_split, sweep_all and sweep_single,
// from an account and its subaddresses, with the real validation order (listing is in lookup.ts).
import { decodeAddress } from '../crypto/address.js';
import { CARROT_MAX_OUTPUTS, HF_CARROT } from '../chain/constants.js';
import { RpcError } from '../http/server.js';
import type { Parsed } from '../http/json-values.js';
import { bool, list, obj, params, str, u32, u64, u8 } from '../http/params.js';
import { spendable } from '../wallet/build.js';
import { buildSweep, buildTransfer, sweepShare } from '../wallet/transfer.js';
import type { Destination, Wallet } from '../wallet/state.js';
import { isOwnAddress } from '../wallet/subaddresses.js';
import {
  buildContext,
  need,
  notSyncing,
  relay,
  singleResponse,
  splitResponse,
  type Define,
  type WalletRpcContext,
} from './context.js';

const dest = obj({ amount: u64(), address: str(), asset_type: str() });
const transferShape = {
  destinations: list(dest),
  source_asset: str(),
  dest_asset: str(),
  tx_type: u8(),
  account_index: u32(),
  subaddr_indices: list(u32()),
  priority: u32(),
  ring_size: u64(),
  unlock_time: u64(),
  payment_id: str(),
  do_not_relay: bool(),
  get_tx_hex: bool(),
  get_tx_metadata: bool(),
};
const P = {
  transfer: params({ ...transferShape, subtract_fee_from_outputs: list(u32()), get_tx_key: bool() }),
  transferSplit: params({ ...transferShape, get_tx_keys: bool() }),
  sweepAll: params({
    address: str(),
    account_index: u32(),
    subaddr_indices: list(u32()),
    subaddr_indices_all: bool(),
    priority: u32(),
    ring_size: u64(),
    outputs: u64(1n),
    unlock_time: u64(),
    payment_id: str(),
    get_tx_keys: bool(),
    below_amount: u64(),
    do_not_relay: bool(),
    get_tx_hex: bool(),
    get_tx_metadata: bool(),
    asset_type: str('SAL1'),
  }),
  sweepSingle: params({
    address: str(),
    priority: u32(),
    ring_size: u64(),
    outputs: u64(1n),
    unlock_time: u64(),
    payment_id: str(),
    get_tx_key: bool(),
    key_image: str(),
    do_not_relay: bool(),
    get_tx_hex: bool(),
    get_tx_metadata: bool(),
    asset_type: str('SAL1'),
  }),
};

/**
 * Validate destinations as `validate_transfer` does: each address in turn (an integrated one refused
 * when a payment id was given or another integrated one came before), then the list, then the
 * payment id.
 */
function validateDestinations(
  dests: { amount: bigint; address: string; asset_type: string }[],
  paymentId: string,
): Destination[] {
  let integrated = false;
  for (const d of dests) {
    const a = decodeAddress(d.address);
    if (!a || a.coin !== 'salvium' || a.network !== 'testnet')
      throw new RpcError(-2, `WALLET_RPC_ERROR_CODE_WRONG_ADDRESS: ${d.address}`);
    if (a.type !== 'integrated') continue;
    if (paymentId !== '' || integrated) throw new RpcError(-5, 'A single payment id is allowed per transaction');
    integrated = true;
  }
  if (dests.length === 0) throw new RpcError(-20, 'Transaction has no destination');
  if (paymentId !== '')
    throw new RpcError(-5, 'Standalone payment IDs are obsolete. Use subaddresses or integrated addresses instead');
  return dests.map((d) => ({ address: d.address, amount: d.amount, asset: d.asset_type }));
}

/** Address family must match the fork (§6 transfer). */
function checkFamilies(dests: Destination[], hf: number): void {
  for (const d of dests) {
    const family = decodeAddress(d.address)?.family;
    if (hf >= HF_CARROT && family === 'cn')
      throw new RpcError(-4, 'CryptoNote address supplied, but Carrot is now active');
    if (hf < HF_CARROT && family === 'carrot')
      throw new RpcError(-4, 'Carrot address supplied, but Carrot not yet active');
  }
}

/**
 * The outputs count of a Carrot sweep (make_carrot_transaction_proposals_wallet2_sweep), checked
 * after the inputs: every sweep tx also gets a self-send change output, so at most 7 outputs go
 * to another wallet, and 8 to the wallet itself make 9 outputs. More than 8 is refused first.
 */
function checkSweepOutputs(w: Wallet, address: string, outputs: bigint): void {
  if (outputs > BigInt(CARROT_MAX_OUTPUTS)) throw new RpcError(-4, 'too many sweep destinations per transaction');
  if (outputs < BigInt(CARROT_MAX_OUTPUTS)) return;
  if (!isOwnAddress(w, address))
    throw new RpcError(-4, 'too many *outgoing* sweep destinations per tx, we also need 1 self-send output');
  throw new RpcError(-4, `get_carrot_default_tx_extra_size: n_outputs too high: ${outputs + 1n}`);
}

async function transfer(ctx: WalletRpcContext, raw: unknown, split: boolean): Promise<Record<string, unknown>> {
  const p = split ? P.transferSplit.parse(raw as never) : P.transfer.parse(raw as never);
  const w = need(ctx, { mutating: true });
  notSyncing(ctx);
  const dests = validateDestinations(p.destinations, p.payment_id);
  const bctx = await buildContext(ctx, p.priority);
  checkFamilies(dests, bctx.hf);
  // Only the CryptoNote path refuses a zero amount (wallet2::create_transactions_2); the Carrot one builds it.
  if (bctx.hf < HF_CARROT && dests.some((d) => d.amount === 0n)) throw new RpcError(-46, 'destination amount is zero');
  const built = buildTransfer(w, bctx, {
    destinations: dests,
    sourceAsset: p.source_asset,
    txType: p.tx_type,
    split,
    from: { account: p.account_index, minors: p.subaddr_indices },
  });
  await relay(ctx, w, built, p.do_not_relay, -4);
  if (split)
    return splitResponse(built, {
      getTxKeys: 'get_tx_keys' in p && p.get_tx_keys,
      getTxHex: p.get_tx_hex,
      getTxMetadata: p.get_tx_metadata,
    });
  return singleResponse(built[0]!, {
    getTxKey: 'get_tx_key' in p && p.get_tx_key,
    getTxHex: p.get_tx_hex,
    getTxMetadata: p.get_tx_metadata,
  });
}

async function sweepAll(ctx: WalletRpcContext, raw: Parsed | undefined): Promise<Record<string, unknown>> {
  const p = P.sweepAll.parse(raw);
  const w = need(ctx, { mutating: true });
  notSyncing(ctx);
  const [d] = validateDestinations([{ amount: 0n, address: p.address, asset_type: p.asset_type }], p.payment_id);
  if (p.outputs < 1n) throw new RpcError(-16, 'Amount of outputs should be greater than 0.');
  const bctx = await buildContext(ctx, p.priority);
  checkFamilies([d!], bctx.hf);
  const from = { account: p.account_index, minors: p.subaddr_indices_all ? [] : p.subaddr_indices };
  const inputs = spendable(w, p.asset_type, bctx.hf, from).filter(
    (o) => p.below_amount === 0n || o.amount < p.below_amount,
  );
  if (bctx.hf >= HF_CARROT) {
    // make_carrot_transaction_proposals_wallet2_sweep_all: the asset's transfers, the usable ones, then the outputs
    // count.
    if (!w.state.assetsSeen.includes(p.asset_type))
      throw new RpcError(-4, 'invalid asset_type specified to get_transfers');
    if (inputs.filter((o) => o.amount > 0n).length === 0)
      throw new RpcError(-4, 'make_carrot_transaction_proposals_wallet2_sweep_all: no usable transfers to sweep');
    checkSweepOutputs(w, p.address, p.outputs);
  } else if (inputs.length === 0) throw new RpcError(-4, 'No unlocked balance in the specified account');
  const built = buildSweep(w, bctx, {
    inputs,
    address: p.address,
    outputs: Number(p.outputs),
    asset: p.asset_type,
    code: -4,
    from,
  });
  await relay(ctx, w, built, p.do_not_relay, -4);
  return splitResponse(built, { getTxKeys: p.get_tx_keys, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
}

async function sweepSingle(ctx: WalletRpcContext, raw: Parsed | undefined): Promise<Record<string, unknown>> {
  const p = P.sweepSingle.parse(raw);
  const w = need(ctx, { mutating: true });
  notSyncing(ctx);
  if (p.outputs < 1n) throw new RpcError(-16, 'Amount of outputs should be greater than 0.');
  const [d] = validateDestinations([{ amount: 0n, address: p.address, asset_type: p.asset_type }], p.payment_id);
  if (!/^[0-9a-fA-F]{64}$/.test(p.key_image)) throw new RpcError(-10, 'failed to parse key image');
  const bctx = await buildContext(ctx, p.priority);
  checkFamilies([d!], bctx.hf);
  if (bctx.hf >= HF_CARROT) {
    // Salvium 1.1.3c's wallet2::create_transactions_single builds the Carrot sweep proposal with
    // every check below, then returns no transaction (the step that turns proposals into pending
    // txs is a TODO there): sweep_single can never send anything from HF10. Established on the
    // real programs (README, "Established on the real programs").
    if (p.outputs > BigInt(CARROT_MAX_OUTPUTS)) throw new RpcError(-4, 'too many sweep destinations per transaction');
    const owned = w.state.outputs.find((o) => o.keyImage === p.key_image.toLowerCase());
    if (!owned) throw new RpcError(-4, 'Key image not found');
    if (owned.spent || w.state.height < owned.unlockHeight)
      throw new RpcError(-4, 'make_carrot_transaction_proposals_wallet2_sweep: transfer not usable as an input');
    checkSweepOutputs(w, p.address, p.outputs);
    // The proposal is carved (an output smaller than its fee fails there), then dropped.
    if (owned.asset === 'SAL1')
      sweepShare(bctx, [owned], { address: p.address, outputs: Number(p.outputs), asset: owned.asset, code: -4 });
    throw new RpcError(-1, 'No outputs found');
  }
  const output = w.state.outputs.find((o) => o.keyImage === p.key_image.toLowerCase() && !o.spent);
  if (!output || w.state.height < output.unlockHeight) throw new RpcError(-1, 'No outputs found');
  const built = buildSweep(w, bctx, {
    inputs: [output],
    address: p.address,
    outputs: Number(p.outputs),
    asset: output.asset,
    code: -1,
  });
  await relay(ctx, w, built, p.do_not_relay, -4);
  return singleResponse(built[0]!, {
    getTxKey: p.get_tx_key,
    getTxHex: p.get_tx_hex,
    getTxMetadata: p.get_tx_metadata,
  });
}

export function transferMethods(ctx: WalletRpcContext, def: Define): void {
  def(['transfer'], (raw) => transfer(ctx, raw, false));
  def(['transfer_split'], (raw) => transfer(ctx, raw, true));
  def(['sweep_all'], (raw) => sweepAll(ctx, raw));
  def(['sweep_single'], (raw) => sweepSingle(ctx, raw));
}
