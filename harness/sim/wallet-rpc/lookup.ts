// Looking transfers up (wallet_rpc_server.cpp on_get_transfers, on_get_transfer_by_txid,
// on_incoming_transfers, on_get_payments, on_get_bulk_payments), with the real parsing of txids and
// payment ids and the real messages (recorded from salvium-wallet-rpc v1.1.3c:
// test/sim/wallet-recorded.test.ts).
import { RpcError } from '../http/server.js';
import { bool, list, params, str, u32, u64 } from '../http/params.js';
import { lookAtPool } from '../wallet/pool.js';
import type { InRecord, Wallet } from '../wallet/state.js';
import { familyAt, numAccounts, subaddress } from '../wallet/subaddresses.js';
import { getTransfers, MAX_BLOCK_NUMBER, transfersByTxid } from '../wallet/views.js';
import { need, type Define, type WalletRpcContext } from './context.js';

const P = {
  transfers: params({
    in: bool(),
    out: bool(),
    pending: bool(),
    failed: bool(),
    pool: bool(),
    filter_by_height: bool(),
    min_height: u64(),
    max_height: u64(MAX_BLOCK_NUMBER),
    account_index: u32(),
    subaddr_indices: list(u32()),
    all_accounts: bool(),
  }),
  byTxid: params({ txid: str(), account_index: u32() }),
  incoming: params({ transfer_type: str(), account_index: u32(), subaddr_indices: list(u32()) }),
  payments: params({ payment_id: str() }),
  bulk: params({ payment_ids: list(str()), min_block_height: u64() }),
};

/** epee's parse_hexstr_to_binbuff: even length, hex digits only (an empty string is 0 bytes). */
export const hexBytes = (text: string): number | undefined =>
  text.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(text) ? text.length / 2 : undefined;

/** update_pool_state, as get_transfers with pool and get_transfer_by_txid do before they answer. */
async function refreshPool(ctx: WalletRpcContext, w: Wallet): Promise<void> {
  await lookAtPool(w, ctx.daemon, { refreshed: false, incremental: false });
}

/** A payment's id as wallet2 keys m_payments: 32 bytes, a short id padded with zeros. */
const fullPaymentId = (r: InRecord): string => r.paymentId.padEnd(64, '0');

function paymentView(w: Wallet, r: InRecord, paymentId: string): Record<string, unknown> {
  const sub = r.subaddr ?? { major: 0, minor: 0 };
  return {
    address: subaddress(w, sub, familyAt(w, r.height)),
    amount: r.amount,
    block_height: r.height,
    locked: w.state.height < r.unlockHeight,
    payment_id: paymentId,
    subaddr_index: sub,
    tx_hash: r.txid,
    unlock_time: r.unlockTime,
  };
}

function getPayments(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.payments.parse(raw as never);
  const w = need(ctx);
  const size = hexBytes(p.payment_id);
  if (size === undefined) throw new RpcError(-5, 'Payment ID has invalid format');
  if (size !== 32 && size !== 8) throw new RpcError(-5, `Payment ID has invalid size: ${p.payment_id}`);
  const key = p.payment_id.toLowerCase().padEnd(64, '0');
  const payments = w.state.ins.filter((r) => r.height > 0 && fullPaymentId(r) === key);
  return { payments: payments.map((r) => paymentView(w, r, p.payment_id)) };
}

function getBulkPayments(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.bulk.parse(raw as never);
  const w = need(ctx);
  const after = (r: InRecord): boolean => BigInt(r.height) > p.min_block_height;
  if (p.payment_ids.length === 0)
    return { payments: w.state.ins.filter(after).map((r) => paymentView(w, r, fullPaymentId(r))) };
  const payments = [];
  for (const id of p.payment_ids) {
    if (id.length !== 64 && id.length !== 16) throw new RpcError(-5, `Payment ID has invalid size: ${id}`);
    if (!/^[0-9a-fA-F]*$/.test(id)) throw new RpcError(-5, `Payment ID has invalid format: ${id}`);
    const key = id.toLowerCase().padEnd(64, '0');
    payments.push(...w.state.ins.filter((r) => after(r) && fullPaymentId(r) === key).map((r) => paymentView(w, r, id)));
  }
  return { payments };
}

async function getTransferByTxid(ctx: WalletRpcContext, raw: unknown): Promise<Record<string, unknown>> {
  const p = P.byTxid.parse(raw as never);
  const w = need(ctx, { mutating: true });
  const size = hexBytes(p.txid);
  if (size === undefined) throw new RpcError(-8, 'Transaction ID has invalid format');
  if (size !== 32) throw new RpcError(-8, `Transaction ID has invalid size: ${p.txid}`);
  if (p.account_index >= numAccounts(w)) throw new RpcError(-14, 'Account index is out of bound');
  await refreshPool(ctx, w);
  const transfers = transfersByTxid(w, p.txid.toLowerCase(), p.account_index);
  if (transfers.length === 0) throw new RpcError(-8, 'Transaction not found.');
  return { transfer: transfers[0], transfers };
}

function incomingTransfers(ctx: WalletRpcContext, raw: unknown): Record<string, unknown> {
  const p = P.incoming.parse(raw as never);
  const w = need(ctx);
  // transfer_type has no default: a request without it is refused too.
  if (!['all', 'available', 'unavailable'].includes(p.transfer_type))
    throw new RpcError(-6, 'Transfer type must be one of: all, available, or unavailable');
  const outs = w.state.outputs.filter((o) => {
    const sub = o.subaddr ?? { major: 0, minor: 0 };
    if (p.transfer_type !== 'all' && (p.transfer_type === 'available') === o.spent) return false;
    return sub.major === p.account_index && (p.subaddr_indices.length === 0 || p.subaddr_indices.includes(sub.minor));
  });
  return {
    // The real entries carry no asset_type.
    transfers: outs.map((o) => ({
      amount: o.amount,
      block_height: o.blockIndex,
      frozen: o.frozen === true,
      global_index: o.globalIndex ?? 0,
      key_image: o.keyImage,
      pubkey: o.id.slice(0, 64),
      spent: o.spent,
      subaddr_index: o.subaddr ?? { major: 0, minor: 0 },
      tx_hash: o.txid,
      unlocked: w.state.height >= o.unlockHeight,
    })),
  };
}

export function lookupMethods(ctx: WalletRpcContext, def: Define): void {
  def(['get_transfers'], async (raw) => {
    const p = P.transfers.parse(raw);
    const w = need(ctx, { mutating: true });
    if (p.pool) await refreshPool(ctx, w);
    return getTransfers(w, {
      in: p.in,
      out: p.out,
      pending: p.pending,
      failed: p.failed,
      pool: p.pool,
      filterByHeight: p.filter_by_height,
      minHeight: p.min_height,
      maxHeight: p.max_height,
      account: p.all_accounts ? undefined : p.account_index,
      subaddrIndices: p.all_accounts ? [] : p.subaddr_indices,
    });
  });
  def(['get_transfer_by_txid'], (raw) => getTransferByTxid(ctx, raw));
  def(['incoming_transfers'], (raw) => incomingTransfers(ctx, raw));
  def(['get_payments'], (raw) => getPayments(ctx, raw));
  def(['get_bulk_payments'], (raw) => getBulkPayments(ctx, raw));
}
