// The wallet's state as the real wallet RPC presents it (reference §6): balances, transfer
// entries and addresses. Zero-valued optional fields are omitted as epee's KV_SERIALIZE_OPT does.
import { RpcError } from '../http/server.js';
import { DEFAULT_TX_SPENDABLE_AGE } from '../chain/constants.js';
import { unorderedMapOrder } from './asset-order.js';
import { primaryAddress, type Wallet } from './state.js';

/** Uninitialised in the real wallet (a huge meaningless number); the simulator is consistent per process. */
const NUM_UNSPENT_OUTPUTS = 90_000_000_000_000 + Math.floor(Math.random() * 5_000_000_000_000);

/** `get_balance`'s asset_type rules: default SAL1; `sal…`/`erc…` longer than 4 chars normalised. */
export function normaliseBalanceAsset(raw: string): string {
  const asset = raw === '' ? 'SAL1' : raw;
  if (asset.length <= 4) return asset;
  const prefix = asset.slice(0, 3).toLowerCase();
  if (prefix === 'sal' || prefix === 'erc') return prefix + asset.slice(3).toUpperCase();
  throw new RpcError(-1, `Invalid token asset_type '${raw}' specified`);
}

export function balanceOf(w: Wallet, asset: string): { balance: bigint; unlocked: bigint; blocksToUnlock: number } {
  const st = w.state;
  let balance = 0n;
  let unlocked = 0n;
  let blocksToUnlock = 0;
  for (const o of st.outputs) {
    if (o.spent || o.asset !== asset) continue;
    balance += o.amount;
    if (st.height >= o.unlockHeight) unlocked += o.amount;
    else blocksToUnlock = Math.max(blocksToUnlock, o.unlockHeight - st.height);
  }
  // Change of our own unconfirmed transactions counts in the balance, not in the unlocked balance.
  for (const r of st.outs) if (r.state === 'pending' && r.asset === asset) balance += r.change;
  return { balance, unlocked, blocksToUnlock };
}

export function getBalance(w: Wallet, rawAsset: string, allAssets: boolean): Record<string, unknown> {
  const asset = normaliseBalanceAsset(rawAsset);
  if (!w.state.assetsSeen.includes(asset)) throw new RpcError(-1, `Source asset '${asset}' not found in wallet`);
  const assets = allAssets ? unorderedMapOrder(w.state.assetsSeen) : [asset];
  const balances = [];
  for (const a of assets) {
    const b = balanceOf(w, a);
    if (b.balance === 0n) continue;
    balances.push({
      asset_type: a,
      balance: b.balance,
      blocks_to_unlock: b.blocksToUnlock,
      multisig_import_needed: false,
      per_subaddress: [
        {
          account_index: 0,
          address: primaryAddress(w),
          address_index: 0,
          balance: b.balance,
          blocks_to_unlock: b.blocksToUnlock,
          label: 'Primary account',
          num_unspent_outputs: NUM_UNSPENT_OUTPUTS,
          time_to_unlock: 0,
          unlocked_balance: b.unlocked,
        },
      ],
      time_to_unlock: 0,
      unlocked_balance: b.unlocked,
    });
  }
  return { balances };
}

export interface TransferFilter {
  in: boolean;
  out: boolean;
  pending: boolean;
  failed: boolean;
  pool: boolean;
  filterByHeight: boolean;
  minHeight: bigint;
  maxHeight: bigint;
}

const SUBADDR = { major: 0, minor: 0 };

function entry(
  w: Wallet,
  e: Record<string, unknown> & { amount: bigint; height: number; type: string },
): Record<string, unknown> {
  const confirmed = e.type === 'in' || e.type === 'block' || e.type === 'out';
  const confirmations = confirmed && e.height < w.state.height ? w.state.height - e.height : 0;
  const reward = w.state.lastBlockReward;
  const threshold = reward === 0n ? 0n : (e.amount + reward - 1n) / reward;
  const out: Record<string, unknown> = {
    address: primaryAddress(w),
    double_spend_seen: false,
    note: '',
    subaddr_index: SUBADDR,
    subaddr_indices: [SUBADDR],
    unlock_time: 0,
    ...e,
  };
  if (confirmations > 0) out.confirmations = confirmations;
  if (threshold > 0n) out.suggested_confirmations_threshold = threshold;
  return out;
}

/** Newest first: by height, then by time (pending and pool entries have height 0). */
const newestFirst = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  (b.height as number) - (a.height as number) || (b.timestamp as number) - (a.timestamp as number);

/**
 * Entries newest first; among equals the one recorded last comes first, as the real wallet's
 * unordered maps iterate (a token transfer's entries: the token, then the ROLLUP built before it).
 */
const ordered = (entries: Record<string, unknown>[]): Record<string, unknown>[] => entries.reverse().sort(newestFirst);

export function getTransfers(w: Wallet, f: TransferFilter): Record<string, unknown> {
  const st = w.state;
  const inRange = (h: number): boolean => !f.filterByHeight || (BigInt(h) >= f.minHeight && BigInt(h) <= f.maxHeight);
  const result: Record<string, unknown[]> = {};
  if (f.in) {
    // In the order of wallet2's m_payments (scan.ts, state.ts): newest first since the wallet was
    // opened, older ones in the reverse of that order (loading the file inserts them again).
    result.in = st.ins
      .filter((r) => inRange(r.height))
      .map((r) =>
        entry(w, {
          amount: r.amount,
          amounts: r.amounts,
          asset_type: r.asset,
          fee: r.fee ?? 0n,
          height: r.height,
          locked: st.height < r.unlockHeight,
          payment_id: r.paymentId,
          timestamp: r.timestamp,
          txid: r.txid,
          type: r.coinbase ? 'block' : 'in',
          unlock_time: r.unlockTime,
          address: r.address,
        }),
      );
  }
  const outEntry = (r: (typeof st.outs)[number], type: string): Record<string, unknown> =>
    entry(w, {
      amount: r.amountIn - r.change - r.fee,
      asset_type: r.asset,
      destinations: r.destinations.map((d) => ({ address: d.address, amount: d.amount, asset_type: d.asset })),
      fee: r.fee,
      height: type === 'out' ? r.height : 0,
      locked: type === 'out' ? st.height < r.height + DEFAULT_TX_SPENDABLE_AGE : true,
      payment_id: r.paymentId,
      timestamp: r.timestamp,
      txid: r.txid,
      type,
    });
  if (f.out)
    result.out = ordered(
      st.outs.filter((r) => r.state === 'confirmed' && inRange(r.height)).map((r) => outEntry(r, 'out')),
    );
  if (f.pending)
    result.pending = ordered(st.outs.filter((r) => r.state === 'pending').map((r) => outEntry(r, 'pending')));
  if (f.failed) result.failed = ordered(st.outs.filter((r) => r.state === 'failed').map((r) => outEntry(r, 'failed')));
  if (f.pool) {
    result.pool = ordered(
      st.pool.map((p) =>
        entry(w, {
          address: p.address,
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
        }),
      ),
    );
  }
  return result;
}
