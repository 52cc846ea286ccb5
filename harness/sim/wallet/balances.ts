// Balances as wallet2 computes them (balance_per_subaddress, unlocked_balance_per_subaddress) and as
// the wallet RPC's get_balance and get_accounts show them. Per subaddress: unspent, unfrozen
// outputs; while not strict also the change of our pending txs (at the account's minor 0) and
// their destinations that are our own subaddresses of the same account, and payments still in the
// pool (m_unconfirmed_payments: once the wallet holds the asset, a payment of it in the pool
// counts, with nothing unlocked and blocks_to_unlock 0).
import { RpcError } from '../http/server.js';
import { unorderedMapOrder } from './asset-order.js';
import type { OwnedOutput, SubIndex, Wallet } from './state.js';
import { labelOf, numAccounts, subaddress } from './subaddresses.js';

/** Uninitialised in the real wallet (a huge meaningless number); the simulator is consistent per process. */
const NUM_UNSPENT_OUTPUTS = 90_000_000_000_000 + Math.floor(Math.random() * 5_000_000_000_000);

const subOf = (o: { subaddr?: SubIndex }): SubIndex => o.subaddr ?? { major: 0, minor: 0 };

/** `get_balance`'s asset_type rules: default SAL1; `sal…`/`erc…` longer than 4 chars normalised. */
export function normaliseBalanceAsset(raw: string): string {
  const asset = raw === '' ? 'SAL1' : raw;
  if (asset.length <= 4) return asset;
  const prefix = asset.slice(0, 3).toLowerCase();
  if (prefix === 'sal' || prefix === 'erc') return prefix + asset.slice(3).toUpperCase();
  throw new RpcError(-1, `Invalid token asset_type '${raw}' specified`);
}

const add = (m: Map<number, bigint>, minor: number, amount: bigint): void => {
  m.set(minor, (m.get(minor) ?? 0n) + amount);
};

/**
 * wallet2::is_spent: spent, or with `strict` spent in a block (an output a pending tx spends still counts).
 */
function isSpent(w: Wallet, o: OwnedOutput, strict: boolean): boolean {
  if (!o.spent || !strict) return o.spent;
  return w.state.outs.find((r) => r.txid === o.spentBy)?.state !== 'pending';
}

/** balance_per_subaddress: minor index → balance, in index order. */
export function balancePerSubaddress(w: Wallet, major: number, asset: string, strict = false): Map<number, bigint> {
  const st = w.state;
  const m = new Map<number, bigint>();
  if (st.assetsSeen.includes(asset))
    for (const o of st.outputs)
      if (o.asset === asset && !isSpent(w, o, strict) && !o.frozen && subOf(o).major === major)
        add(m, subOf(o).minor, o.amount);
  if (!strict) {
    for (const r of st.outs) {
      if (r.state !== 'pending' || r.asset !== asset || (r.account ?? 0) !== major) continue;
      add(m, 0, r.change);
      for (const d of r.selfDests ?? []) if (d.major === major) add(m, d.minor, d.amount);
    }
    for (const p of st.pool) if (p.asset === asset && subOf(p).major === major) add(m, subOf(p).minor, p.amount);
  }
  return new Map([...m].sort((a, b) => a[0] - b[0]));
}

export interface Unlocked {
  unlocked: bigint;
  blocksToUnlock: number;
}

/** unlocked_balance_per_subaddress: minor index → unlocked amount and blocks until the rest unlocks. */
export function unlockedPerSubaddress(w: Wallet, major: number, asset: string, strict = false): Map<number, Unlocked> {
  const st = w.state;
  const m = new Map<number, Unlocked>();
  if (!st.assetsSeen.includes(asset)) return m;
  for (const o of st.outputs) {
    if (o.asset !== asset || isSpent(w, o, strict) || o.frozen || subOf(o).major !== major) continue;
    const u = m.get(subOf(o).minor) ?? { unlocked: 0n, blocksToUnlock: 0 };
    if (st.height >= o.unlockHeight) u.unlocked += o.amount;
    else u.blocksToUnlock = Math.max(u.blocksToUnlock, o.unlockHeight - st.height);
    m.set(subOf(o).minor, u);
  }
  return m;
}

const sum = (xs: Iterable<bigint>): bigint => [...xs].reduce((s, x) => s + x, 0n);

/** An account's balance, unlocked balance and blocks to unlock (wallet2::balance / unlocked_balance). */
export function accountBalance(
  w: Wallet,
  major: number,
  asset: string,
  strict = false,
): Unlocked & { balance: bigint } {
  const unlocked = [...unlockedPerSubaddress(w, major, asset, strict).values()];
  return {
    balance: sum(balancePerSubaddress(w, major, asset, strict).values()),
    unlocked: sum(unlocked.map((u) => u.unlocked)),
    blocksToUnlock: Math.max(0, ...unlocked.map((u) => u.blocksToUnlock)),
  };
}

/** The balance of the wallet's first account (what the CLI and the older views show). */
export const balanceOf = (w: Wallet, asset: string): Unlocked & { balance: bigint } => accountBalance(w, 0, asset);

export interface BalanceRequest {
  asset: string;
  allAssets: boolean;
  account: number;
  addressIndices: number[];
  allAccounts: boolean;
  strict: boolean;
}

function perSubaddress(w: Wallet, req: BalanceRequest, asset: string): Record<string, unknown>[] {
  const accounts = req.allAccounts ? [...Array(numAccounts(w)).keys()] : [req.account];
  const out: Record<string, unknown>[] = [];
  for (const major of accounts) {
    const balances = balancePerSubaddress(w, major, asset, req.strict);
    const unlocked = unlockedPerSubaddress(w, major, asset, req.strict);
    const minors =
      !req.allAccounts && req.addressIndices.length > 0
        ? [...new Set(req.addressIndices)].sort((a, b) => a - b)
        : [...balances.keys()];
    for (const minor of minors)
      out.push({
        account_index: major,
        address: subaddress(w, { major, minor }),
        address_index: minor,
        balance: balances.get(minor) ?? 0n,
        blocks_to_unlock: unlocked.get(minor)?.blocksToUnlock ?? 0,
        label: labelOf(w, { major, minor }),
        num_unspent_outputs: NUM_UNSPENT_OUTPUTS,
        time_to_unlock: 0,
        unlocked_balance: unlocked.get(minor)?.unlocked ?? 0n,
      });
  }
  return out;
}

/** on_getbalance: every asset asked for with a non-zero balance, its total and its subaddresses. */
export function getBalance(w: Wallet, req: BalanceRequest): Record<string, unknown> {
  const asset = normaliseBalanceAsset(req.asset);
  if (!w.state.assetsSeen.includes(asset)) throw new RpcError(-1, `Source asset '${asset}' not found in wallet`);
  const assets = req.allAssets ? unorderedMapOrder(w.state.assetsSeen) : [asset];
  const accounts = req.allAccounts ? [...Array(numAccounts(w)).keys()] : [req.account];
  const balances = [];
  for (const a of assets) {
    const totals = accounts.map((major) => accountBalance(w, major, a, req.strict));
    const balance = sum(totals.map((t) => t.balance));
    if (balance === 0n) continue;
    const blocks = Math.max(0, ...totals.map((t) => t.blocksToUnlock));
    balances.push({
      asset_type: a,
      balance,
      blocks_to_unlock: blocks,
      multisig_import_needed: false,
      per_subaddress: perSubaddress(w, req, a),
      time_to_unlock: 0,
      unlocked_balance: sum(totals.map((t) => t.unlocked)),
    });
  }
  return { balances };
}
