// Lists whose order the real programs do not fix, put in a canonical order before they are compared
// element by element (compare.ts). Every other list is compared in order.
import type { PathSegment } from '../common/path.js';
import { addressKind } from './rules.js';
import { show } from './values.js';

/**
 * Lists the real programs fill from hash maps keyed by something random: get_balance's `balances`
 * (by asset type), get_transfers' `out`, `pending`, `failed` and `pool` (wallet2 keeps them in
 * unordered maps keyed by txid), and a block's or transaction's `vout` (Carrot shuffles a
 * transaction's outputs, the coinbase's too), and a transfer entry's `destinations` (the real wallet lists a
 * transaction's destinations in the order it shuffled them into; seen on v1.1.3c).
 */
const UNORDERED = new Set(['balances', 'out', 'pending', 'failed', 'pool', 'vout', 'destinations']);

/** Lists of amounts in no fixed order: a transfer's `amounts_by_dest` (and each of `amounts_by_dest_list`). */
const UNORDERED_AMOUNTS = new Set(['amounts_by_dest', 'amounts_by_dest_list']);

/**
 * Transfer entries whose `amounts` are the tx's outputs to one address in the tx's order, which Carrot shuffles (seen
 * [0, 100000000] and [100000000, 0] for one payment on v1.1.3c).
 */
const ENTRY_LISTS = new Set(['in', 'out', 'pending', 'failed', 'pool', 'transfers', 'transfer']);

/** A list of amounts as text in increasing order (an entry's destinations or amounts, whatever their order). */
const amountsKey = (list: unknown): string =>
  Array.isArray(list)
    ? numericOrder(list.map((d) => (typeof d === 'object' && d !== null ? (d as { amount?: unknown }).amount : d)))
        .map((v) => show(v))
        .join(',')
    : '';

/**
 * What an entry of an unordered list is sorted by: the deterministic parts of a balance, a transfer, a destination or
 * an output (two payments to oneself in one block differ only in their fees and what their destinations got).
 */
function entryKey(x: unknown): string | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const o = x as Record<string, unknown>;
  return [
    ...[o.height, o.asset_type, o.amount, o.type, o.fee].map((v) => show(v)),
    amountsKey(o.destinations),
    amountsKey(o.amounts),
    // Two destinations of one amount, one a subaddress: the kinds keep them apart (addresses compare by kind).
    typeof o.address === 'string' ? (addressKind(o.address) ?? '') : '',
  ].join('|');
}

const byKey = <T>(list: T[], key: (x: T) => string): T[] =>
  list
    .map((x) => ({ x, k: key(x) }))
    .sort((p, q) => (p.k < q.k ? -1 : p.k > q.k ? 1 : 0))
    .map((p) => p.x);

/** A list of objects in a canonical order (by entryKey); anything else as it is. */
function canonicalOrder(list: unknown[]): unknown[] {
  const keys = list.map(entryKey);
  if (!keys.every((k) => k !== undefined)) return list;
  return byKey(list, (x) => entryKey(x)!);
}

/**
 * get_transfers' `in`: newest height first, but the entries of one height (the outputs of one
 * transaction, or several transactions of one block) come in no fixed order from run to run.
 */
function sameHeightInAnyOrder(list: unknown[]): unknown[] {
  const heightOf = (x: unknown): string => show((x as Record<string, unknown> | null)?.height);
  const out: unknown[] = [];
  for (let i = 0; i < list.length;) {
    let j = i;
    while (j < list.length && heightOf(list[j]) === heightOf(list[i])) j++;
    out.push(...canonicalOrder(list.slice(i, j)));
    i = j;
  }
  return out;
}

/** Numbers in increasing order (bigints and numbers alike); a list holding anything else as it is. */
function numericOrder(list: unknown[]): unknown[] {
  if (!list.every((x) => typeof x === 'bigint' || (typeof x === 'number' && Number.isInteger(x)))) return list;
  return [...list].sort((a, b) => {
    const [x, y] = [BigInt(a as number), BigInt(b as number)];
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * get_transfer_by_txid's `transfers`: the entries of one tx, in, out, pending and pool, each group from a hash map (a
 * tx that pays two of the wallet's addresses lists them in either order from run to run; seen on v1.1.3c). Told from
 * incoming_transfers' `transfers` (outputs in the wallet's order) by its entries' `type` and `txid`.
 */
const isTransferEntries = (list: unknown[]): boolean =>
  list.every((x) => typeof x === 'object' && x !== null && 'type' in x && 'txid' in x);

/** The list at `path` in the order it is compared in. */
export function comparedOrder(path: readonly PathSegment[], list: unknown[]): unknown[] {
  const key = String(path[path.length - 1]);
  if (UNORDERED.has(key)) return canonicalOrder(list);
  if (key === 'transfers' && isTransferEntries(list)) return canonicalOrder(list);
  if (key === 'in') return sameHeightInAnyOrder(list);
  const parents = path.filter((s): s is string => typeof s === 'string');
  if (key === 'amounts' && UNORDERED_AMOUNTS.has(parents[parents.length - 2] ?? '')) return numericOrder(list);
  if (key === 'amounts' && ENTRY_LISTS.has(parents[parents.length - 2] ?? '')) return numericOrder(list);
  return list;
}
