// Transactions built elsewhere or later (wallet_rpc_server.cpp on_relay_tx, on_describe_transfer,
// on_sign_transfer, on_submit_transfer, on_sweep_dust, on_audit, on_return_payment), with the real
// checks and messages (recorded from salvium-wallet-rpc v1.1.3c: test/sim/wallet-recorded.test.ts).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeAddress, encodeAddress } from '../crypto/address.js';
import { scalarMultBase, scReduce32 } from '../crypto/keys.js';
import { decode, fromHex } from '../chain/codec.js';
import { HF_TOKENS, TxType } from '../chain/constants.js';
import { estimateWeight } from '../chain/emission.js';
import type { Tx } from '../chain/types.js';
import { RpcError } from '../http/server.js';
import { notModelled } from '../http/not-modelled.js';
import { bool, list, params, str, u32, u64 } from '../http/params.js';
import { commit, makeTx, type Built } from '../wallet/build.js';
import { findTx } from '../wallet/chain-index.js';
import { isWatchOnly, type OutRecord, type Wallet } from '../wallet/state.js';
import {
  RESTRICTED,
  buildContext,
  need,
  notSyncing,
  relay,
  splitResponse,
  type Define,
  type WalletRpcContext,
} from './context.js';

const flags = { do_not_relay: bool(), get_tx_hex: bool(), get_tx_metadata: bool() };
const P = {
  relay: params({ hex: str() }),
  describe: params({ unsigned_txset: str(), multisig_txset: str() }),
  sign: params({ unsigned_txset: str(), export_raw: bool(), get_tx_keys: bool() }),
  submit: params({ tx_data_hex: str() }),
  sweepDust: params({ get_tx_keys: bool(), ...flags }),
  audit: params({
    address: str(),
    account_index: u32(),
    subaddr_indices: list(u32()),
    subaddr_indices_all: bool(),
    ring_size: u64(),
    payment_id: str(),
    get_tx_keys: bool(),
    asset_type: str(),
    ...flags,
  }),
  returnPayment: params({ txid: str(), get_tx_key: bool(), ...flags }),
};

const MAX_HEX = 128 * 1024 * 1024;
const WATCH_ONLY = (): RpcError => new RpcError(-29, 'command not supported by watch-only wallet');

/** check_hex_blob_size and parse_hexstr_to_binbuff: -26 for a blob too large or not hex. */
function hexBlob(text: string, field: string): void {
  if (text.length > MAX_HEX) throw new RpcError(-26, `${field} is too large.`);
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) throw new RpcError(-26, 'Failed to parse hex.');
}

/** The wallet open, not restricted (in that order). */
function open(ctx: WalletRpcContext): Wallet {
  const w = need(ctx);
  if (ctx.restricted) throw RESTRICTED();
  return w;
}

interface PendingTx {
  tx: Tx;
  record: OutRecord;
}

function parseMetadata(hex: string): PendingTx | undefined {
  try {
    const m = decode<{ saltnetPendingTx?: number } & PendingTx>(fromHex(hex));
    return m?.saltnetPendingTx === 1 && m.tx && m.record ? m : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A relayed tx's record shows its destinations as CN addresses of the same keys: wallet2's
 * pending_tx serialisation drops the Carrot flag of tx_destination_entry (as recorded).
 */
function asCn(address: string): string {
  const d = decodeAddress(address);
  return d ? encodeAddress({ ...d, family: 'cn' }) : address;
}

async function relayTx(ctx: WalletRpcContext, raw: unknown): Promise<Record<string, unknown>> {
  const p = P.relay.parse(raw as never);
  if (ctx.restricted) throw RESTRICTED();
  const w = need(ctx);
  hexBlob(p.hex, 'hex');
  const m = parseMetadata(p.hex);
  if (!m) throw new RpcError(-27, 'Failed to parse tx metadata.');
  const res = await ctx.daemon.send(m.tx);
  const pooled = !res.ok && (await ctx.daemon.pool()).some((t) => t.txid === m.tx.txid);
  if (!res.ok && !pooled) {
    ctx.log.log('E', `Transaction rejected by daemon: ${res.reason}`);
    throw new RpcError(-4, 'Failed to commit tx.');
  }
  const record = { ...m.record, destinations: m.record.destinations.map((d) => ({ ...d, address: asCn(d.address) })) };
  const inputs = w.state.outputs.filter((o) => m.record.inputs.includes(o.id));
  commit(w, [{ tx: m.tx, record, inputs, fee: 0n, amount: 0n, destAmounts: [] }]);
  return { tx_hash: m.tx.txid };
}

/** The outputs return_payment sends back, with on_return_payment's checks in order. */
function returnable(w: Wallet, txid: string, hf: number) {
  const outs = w.state.outputs.filter((o) => o.txid === txid);
  for (const o of outs) {
    if (o.coinbase) throw new RpcError(-1, 'incorrect TX type for txid');
    if (o.spent || o.frozen)
      throw new RpcError(-1, 'key image is unavailable (partial / unknown / spent / frozen) for txid');
    if (hf >= HF_TOKENS && o.asset === 'SAL') throw new RpcError(-1, 'SAL may not be returned for txid');
  }
  if (outs.length === 0) throw new RpcError(-1, 'No matching transfers found in wallet');
  return outs;
}

/**
 * What the returner's record shows as a return_payment's destination. The real one is (the one-time key of the
 * origin tx's change output, the sender's return key K_return decrypted from the tx), an address of keys only that
 * tx's enotes give (wallet2::create_transactions_return), which the simulator does not have; a deterministic stand-in
 * keeps the sender's spend key and network and replaces the view key by sc_reduce32(keccak256("saltnet-sim return" ‖
 * view key))·G. Anything that is not a Carrot address is returned unchanged.
 */
function returnDestinationAddress(address: string): string {
  const d = decodeAddress(address);
  if (d === null || d.family !== 'carrot') return address;
  const tag = new TextEncoder().encode('saltnet-sim return');
  const view = scalarMultBase(scReduce32(keccak_256(Uint8Array.from([...tag, ...d.viewPublicKey]))));
  return encodeAddress({ ...d, viewPublicKey: view });
}

async function returnPayment(ctx: WalletRpcContext, raw: unknown): Promise<Record<string, unknown>> {
  const p = P.returnPayment.parse(raw as never);
  const w = open(ctx);
  notSyncing(ctx);
  if (!/^[0-9a-fA-F]{64}$/.test(p.txid)) throw new RpcError(-8, 'TX ID has invalid format');
  const bctx = await buildContext(ctx, 0);
  const outs = returnable(w, p.txid.toLowerCase(), bctx.hf);
  const found = await findTx(ctx.daemon, p.txid.toLowerCase());
  // The sender's return address: the simulator's tx keeps its change last (build.ts).
  const sender = found?.tx.outputs[found.tx.outputs.length - 1]?.address;
  if (!sender) throw new RpcError(-16, 'No transaction created');
  const have = outs.reduce((s, o) => s + o.amount, 0n);
  const fee = bctx.feePerByte * BigInt(estimateWeight(outs.length, 2));
  if (have <= fee) throw new RpcError(-4, 'not enough money to return the payment');
  const asset = outs[0]!.asset;
  const built: Built = makeTx(w, bctx, {
    type: TxType.TRANSFER,
    inputs: outs,
    dests: [{ address: sender, amount: have - fee, asset }],
    fee,
    burnt: 0n,
    asset,
    sourceAsset: asset,
    account: outs[0]!.subaddr?.major ?? 0,
  });
  built.tx.returned = true;
  built.record.destinations = built.record.destinations.map((d) => ({
    ...d,
    address: returnDestinationAddress(d.address),
  }));
  await relay(ctx, w, [built], p.do_not_relay, -4);
  return splitResponse([built], { getTxKeys: p.get_tx_key, getTxHex: p.get_tx_hex, getTxMetadata: p.get_tx_metadata });
}

async function audit(ctx: WalletRpcContext, raw: unknown): Promise<Record<string, unknown>> {
  const p = P.audit.parse(raw as never);
  open(ctx);
  notSyncing(ctx);
  const a = decodeAddress(p.address);
  if (!a || a.coin !== 'salvium' || a.network !== 'testnet')
    throw new RpcError(-2, `WALLET_RPC_ERROR_CODE_WRONG_ADDRESS: ${p.address}`);
  if (p.payment_id !== '')
    throw new RpcError(-5, 'Standalone payment IDs are obsolete. Use subaddresses or integrated addresses instead');
  const hf = await ctx.daemon.nextHardFork();
  // AUDIT_HARD_FORKS holds HF6 and HF8 only: in any other fork the handler returns without an error set.
  if (hf === 6 || hf === 8) return notModelled('audit', 'AUDIT transactions are not simulated')(undefined) as never;
  throw new RpcError(0, '');
}

function txsetMethods(ctx: WalletRpcContext, def: Define): void {
  def(['describe_transfer'], (raw) => {
    const p = P.describe.parse(raw);
    const w = open(ctx);
    if (isWatchOnly(w)) throw WATCH_ONLY();
    notSyncing(ctx);
    if (p.unsigned_txset === '' && p.multisig_txset === '') throw new RpcError(-1, 'no txset provided');
    // The simulator never makes an unsigned or multisig tx set (a v1.1.3c watch-only wallet sees no
    // Carrot funds), so none loads.
    if (p.unsigned_txset !== '') {
      hexBlob(p.unsigned_txset, 'unsigned_txset');
      throw new RpcError(-39, 'cannot load unsigned_txset');
    }
    hexBlob(p.multisig_txset, 'multisig_txset');
    throw new RpcError(-34, 'cannot load multisig_txset');
  });
  def(['sign_transfer'], (raw) => {
    const p = P.sign.parse(raw);
    const w = open(ctx);
    if (isWatchOnly(w)) throw WATCH_ONLY();
    notSyncing(ctx);
    hexBlob(p.unsigned_txset, 'unsigned_txset');
    throw new RpcError(-39, 'cannot load unsigned_txset');
  });
  def(['submit_transfer'], (raw) => {
    const p = P.submit.parse(raw);
    open(ctx);
    hexBlob(p.tx_data_hex, 'tx_data_hex');
    throw new RpcError(-40, 'Failed to parse signed tx data.');
  });
}

export function relayMethods(ctx: WalletRpcContext, def: Define): void {
  def(['relay_tx'], (raw) => relayTx(ctx, raw));
  txsetMethods(ctx, def);
  def(['sweep_dust', 'sweep_unmixable'], (raw) => {
    P.sweepDust.parse(raw);
    open(ctx);
    notSyncing(ctx);
    // v1.1.3c's create_unmixable_sweep_transactions asks the daemon for an output histogram first, which fails.
    throw new RpcError(-4, 'failed to get output histogram');
  });
  def(['audit'], (raw) => audit(ctx, raw));
  def(['return_payment'], (raw) => returnPayment(ctx, raw));
}
