// The wallet's transfers as the real wallet RPC presents them (wallet_rpc_server's fill_transfer_entry,
// on_get_transfers, on_get_transfer_by_txid): entries of every group with their subaddresses and notes,
// filtered by account, subaddress and height as wallet2's get_payments* do. Zero-valued optional fields
// are omitted as epee's KV_SERIALIZE_OPT does.
import { DEFAULT_TX_SPENDABLE_AGE } from '../chain/constants.js';
import { meta, type InRecord, type OutRecord, type PoolRecord, type SubIndex, type Wallet } from './state.js';
import { familyAt, subaddress } from './subaddresses.js';

export { balanceOf, getBalance, normaliseBalanceAsset } from './balances.js';

/** CRYPTONOTE_MAX_BLOCK_NUMBER: get_transfers' default max_height and its ceiling. */
export const MAX_BLOCK_NUMBER = 500_000_000n;

export interface TransferFilter {
  in: boolean;
  out: boolean;
  pending: boolean;
  failed: boolean;
  pool: boolean;
  filterByHeight: boolean;
  minHeight: bigint;
  maxHeight: bigint;
  /** undefined: every account (all_accounts). */
  account: number | undefined;
  subaddrIndices: number[];
}

type Entry = Record<string, unknown> & { amount: bigint; height: number; type: string; txid: string };

const subOf = (o: { subaddr?: SubIndex }): SubIndex => o.subaddr ?? { major: 0, minor: 0 };

/** set_confirmations and what every entry shares: its subaddress's address, note and defaults. */
function entry(w: Wallet, e: Entry, sub: SubIndex, indices: SubIndex[]): Record<string, unknown> {
  const confirmed = e.type === 'in' || e.type === 'block' || e.type === 'out';
  const confirmations = confirmed && e.height < w.state.height ? w.state.height - e.height : 0;
  const reward = w.state.lastBlockReward;
  const threshold = reward === 0n ? 0n : (e.amount + reward - 1n) / reward;
  const out: Record<string, unknown> = {
    address: subaddress(w, sub, familyAt(w, e.height)),
    double_spend_seen: false,
    note: meta(w).notes[e.txid] ?? '',
    subaddr_index: sub,
    subaddr_indices: indices,
    unlock_time: 0,
    ...e,
  };
  if (confirmations > 0) out.confirmations = confirmations;
  if (threshold > 0n) out.suggested_confirmations_threshold = threshold;
  return out;
}

export function inEntry(w: Wallet, r: InRecord): Record<string, unknown> {
  const e = {
    amount: r.amount,
    amounts: r.amounts,
    asset_type: r.asset,
    fee: r.fee ?? 0n,
    height: r.height,
    locked: w.state.height < r.unlockHeight,
    payment_id: r.paymentId,
    timestamp: r.timestamp,
    txid: r.txid,
    type: r.coinbase ? 'block' : 'in',
    unlock_time: r.unlockTime,
  };
  return entry(w, e, subOf(r), [subOf(r)]);
}

export function outEntry(w: Wallet, r: OutRecord, type: string): Record<string, unknown> {
  const account = r.account ?? 0;
  const e = {
    amount: r.amountIn - r.change - r.fee,
    asset_type: r.asset,
    destinations: r.destinations.map((d) => ({ address: d.address, amount: d.amount, asset_type: d.asset })),
    fee: r.fee,
    height: type === 'out' ? r.height : 0,
    locked: type === 'out' ? w.state.height < r.height + DEFAULT_TX_SPENDABLE_AGE : true,
    payment_id: r.paymentId,
    timestamp: r.timestamp,
    txid: r.txid,
    type,
  };
  const indices = (r.subaddrIndices ?? [0]).map((minor) => ({ major: account, minor }));
  return entry(w, e, { major: account, minor: 0 }, indices);
}

export function poolEntry(w: Wallet, p: PoolRecord): Record<string, unknown> {
  const e = {
    amount: p.amount,
    amounts: p.amounts,
    // As recorded: a pool entry's asset_type is empty (SAL1 and tokens alike).
    asset_type: '',
    fee: p.fee ?? 0n,
    height: 0,
    locked: true,
    payment_id: p.paymentId,
    timestamp: p.timestamp,
    txid: p.txid,
    type: 'pool',
  };
  return entry(w, e, subOf(p), [subOf(p)]);
}

/** Newest first: by height, then by time (pending and pool entries have height 0). */
const newestFirst = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  (b.height as number) - (a.height as number) || (b.timestamp as number) - (a.timestamp as number);

/**
 * Entries newest first; among equals the one recorded last comes first, as the real wallet's
 * unordered maps iterate (a token transfer's entries: the token, then the ROLLUP built before it).
 */
const ordered = (entries: Record<string, unknown>[]): Record<string, unknown>[] => entries.reverse().sort(newestFirst);

/** The records get_payments* would pick: an account (undefined: all) and, if any are given, subaddresses. */
function selectors(f: Pick<TransferFilter, 'account' | 'subaddrIndices'>) {
  const account = (major: number): boolean => f.account === undefined || f.account === major;
  const minors = (ms: number[]): boolean =>
    f.subaddrIndices.length === 0 || ms.some((m) => f.subaddrIndices.includes(m));
  return {
    payment: (r: { subaddr?: SubIndex }): boolean => account(subOf(r).major) && minors([subOf(r).minor]),
    sent: (r: OutRecord): boolean => account(r.account ?? 0) && minors(r.subaddrIndices ?? [0]),
  };
}

export function getTransfers(w: Wallet, f: TransferFilter): Record<string, unknown> {
  const st = w.state;
  const min = f.filterByHeight ? f.minHeight : 0n;
  const max = f.filterByHeight && f.maxHeight <= MAX_BLOCK_NUMBER ? f.maxHeight : MAX_BLOCK_NUMBER;
  // wallet2's get_payments and get_payments_out: min_height is exclusive, max_height inclusive.
  const inRange = (h: number): boolean => BigInt(h) > min && BigInt(h) <= max;
  const pick = selectors(f);
  const result: Record<string, unknown[]> = {};
  // In the order of wallet2's m_payments (scan.ts, state.ts): newest first since the wallet was
  // opened, older ones in the reverse of that order (loading the file inserts them again).
  if (f.in) result.in = st.ins.filter((r) => inRange(r.height) && pick.payment(r)).map((r) => inEntry(w, r));
  const sent = (state: OutRecord['state']): OutRecord[] => st.outs.filter((r) => r.state === state && pick.sent(r));
  if (f.out)
    result.out = ordered(
      sent('confirmed')
        .filter((r) => inRange(r.height))
        .map((r) => outEntry(w, r, 'out')),
    );
  if (f.pending) result.pending = ordered(sent('pending').map((r) => outEntry(w, r, 'pending')));
  if (f.failed) result.failed = ordered(sent('failed').map((r) => outEntry(w, r, 'failed')));
  if (f.pool) result.pool = ordered(st.pool.filter(pick.payment).map((p) => poolEntry(w, p)));
  return result;
}

/** on_get_transfer_by_txid's list: the tx's entries in the account, incoming, out, pending or failed, then pool. */
export function transfersByTxid(w: Wallet, txid: string, account: number): Record<string, unknown>[] {
  const st = w.state;
  const pick = selectors({ account, subaddrIndices: [] });
  const sent = st.outs.filter((r) => r.txid === txid && pick.sent(r));
  return [
    ...st.ins.filter((r) => r.txid === txid && r.height > 0 && pick.payment(r)).map((r) => inEntry(w, r)),
    ...sent.filter((r) => r.state === 'confirmed').map((r) => outEntry(w, r, 'out')),
    ...sent.filter((r) => r.state !== 'confirmed').map((r) => outEntry(w, r, r.state)),
    // In get_unconfirmed_payments' order, as get_transfers lists the pool.
    ...ordered(st.pool.filter((p) => p.txid === txid && pick.payment(p)).map((p) => poolEntry(w, p))),
  ];
}
