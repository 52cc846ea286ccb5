// Carrot input selection as the v1.1.3c wallet runs it (carrot_impl/input_selection.cpp,
// make_single_transfer_input_selector with wallet2's one policy, select_greedy_aging):
// - candidates split into pre-Carrot outputs and Carrot ones (the wallet marks every Carrot output
//   external), and one tx spends from one of the two sets only, pre-Carrot first;
// - input counts tried in the order 1, 2, 4, 8, 16, 32, 64, 3, 5, 6, …, except that the wallet
//   flips a coin between 1 and 2 first: when one output can pay and two can too, the count (so the
//   fee, the change and what is left to spend) is random on the real wallet;
// - for a count N, the N largest outputs, then the newest of them swapped for the oldest candidate
//   while the swap still pays (the swap's bound compares candidate positions with an amount, as the
//   real code does: in practice only an input the tx does not need is swapped).
import { CARROT_MAX_INPUTS, TESTNET_HARD_FORKS, HF_CARROT } from '../chain/constants.js';
import type { OwnedOutput } from './state.js';

export interface Need {
  /** What the destinations get. */
  outputSum: bigint;
  /** The fee of the tx with n inputs (n = 1 … 64). */
  feeFor(n: number): bigint;
  /** A token transfer: its inputs cover the outputs only (a ROLLUP pays the fee in SAL1). */
  token: boolean;
  /** The wallet's coin: try 2 inputs before 1. */
  preferTwo: boolean;
}

export type Selection =
  | { ok: true; inputs: OwnedOutput[]; fee: bigint }
  | {
      ok: false;
      /**
       * - `money`: all the candidates together cannot pay;
       * - `usable`: they can, but not within 64 inputs, or only with outputs worth less than their own fee;
       * - `subset`: neither the pre-Carrot nor the Carrot outputs can pay alone;
       * - `policy`: the N largest can pay but not once the outputs worth less than their fee are left out.
       */
      why: Unpaid;
      have: bigint;
      need: bigint;
      /** `usable`: how many of the largest outputs pay their own fee, and their sum. */
      top?: { n: number; sum: bigint };
    };

export type Unpaid = 'money' | 'usable' | 'subset' | 'policy';

const CARROT_HEIGHT = TESTNET_HARD_FORKS.find((f) => f.version === HF_CARROT)!.height;

/** An output of a block before Carrot (its tx is not a Carrot tx). */
export const isPreCarrot = (o: OwnedOutput): boolean => o.blockIndex < CARROT_HEIGHT;

/** 1 or 2 (the coin), then the other ascending powers of two, then every other count. */
export function inputCountsInOrder(preferTwo: boolean): number[] {
  const powers = [4, 8, 16, 32, 64];
  const rest: number[] = [];
  for (let n = 3; n < CARROT_MAX_INPUTS; n++) if (!powers.includes(n)) rest.push(n);
  return [...(preferTwo ? [2, 1] : [1, 2]), ...powers, ...rest];
}

/** Amounts, largest first. */
const largestFirst = (amounts: bigint[]): bigint[] => amounts.sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));

/**
 * input_count_for_max_usable_money: of the `max` largest amounts (`sorted`: largest first), the count N and sum X that
 * maximise X − fee(N), adding amounts from the largest down while each pays its own marginal fee (a token's amounts
 * all count).
 */
function maxUsable(sorted: bigint[], max: number, need: Need): { n: number; sum: bigint } {
  const top = sorted.slice(0, Math.min(max, sorted.length));
  let n = 0;
  let sum = 0n;
  let lastFee = 0n;
  for (const amount of top) {
    if (!need.token) {
      const fee = need.feeFor(n + 1);
      if (amount <= fee - lastFee) break;
      lastFee = fee;
    }
    n += 1;
    sum += amount;
  }
  return { n, sum };
}

/** std::lower_bound over `seq` for `value` with `<`: the first position whose element is not below value. */
function lowerBound(seq: number[], value: bigint): number {
  let first = 0;
  let count = seq.length;
  while (count > 0) {
    const step = Math.floor(count / 2);
    if (BigInt(seq[first + step]!) < value) {
      first += step + 1;
      count -= step + 1;
    } else count = step;
  }
  return first;
}

/** ispolicy::select_greedy_aging over candidate positions; empty when the N largest cannot pay. */
function greedyAging(cands: OwnedOutput[], selectable: number[], n: number, required: bigint): number[] {
  // Positions sorted by amount, ties in candidate order (stable sort).
  const byAmount = [...selectable].sort((a, b) =>
    cands[a]!.amount < cands[b]!.amount ? -1 : cands[a]!.amount > cands[b]!.amount ? 1 : 0,
  );
  const selected = new Set<number>();
  let sum = 0n;
  // A multimap of block index → position: entries sorted by block, equal blocks in insertion order.
  const byBlock: { block: number; pos: number }[] = [];
  const insert = (block: number, pos: number): number => {
    let at = byBlock.length;
    while (at > 0 && byBlock[at - 1]!.block > block) at--;
    byBlock.splice(at, 0, { block, pos });
    return at;
  };
  for (let i = 0; i < n; i++) {
    const pos = byAmount[byAmount.length - 1 - i]!;
    sum += cands[pos]!.amount;
    selected.add(pos);
    insert(cands[pos]!.blockIndex, pos);
  }
  if (sum < required) return [];
  // A reverse iterator over byBlock: it stands on byBlock[base - 1].
  let base = byBlock.length;
  while (base > 0) {
    const current = byBlock[base - 1]!;
    let minBlock = current.block;
    let replacement = current.pos;
    const surplus = sum - required;
    const amount = cands[current.pos]!.amount;
    const lowest = amount > surplus ? amount - surplus : 0n;
    for (const pos of byAmount.slice(lowerBound(byAmount, lowest))) {
      if (selected.has(pos)) continue;
      if (cands[pos]!.blockIndex < minBlock) {
        minBlock = cands[pos]!.blockIndex;
        replacement = pos;
      }
    }
    if (replacement === current.pos) {
      base -= 1;
      continue;
    }
    selected.delete(current.pos);
    selected.add(replacement);
    // reverse_erase: the iterator's base becomes the element after the erased one, then the emplace may land before it.
    byBlock.splice(base - 1, 1);
    base -= 1;
    if (insert(minBlock, replacement) <= base) base += 1;
    sum += cands[replacement]!.amount - amount;
  }
  return [...selected];
}

/** The inputs the real wallet would spend, or why it cannot; candidates in the wallet's own order (oldest first). */
export function selectInputs(cands: OwnedOutput[], need: Need): Selection {
  const required = (n: number): bigint => need.outputSum + (need.token ? 0n : need.feeFor(n));
  const all = cands.map((_, i) => i);
  const amountsOf = (positions: number[]): bigint[] => largestFirst(positions.map((p) => cands[p]!.amount));
  const have = cands.reduce((s, c) => s + c.amount, 0n);
  const failed = (why: Unpaid): Extract<Selection, { ok: false }> => ({ ok: false, why, have, need: required(1) });
  if (cands.length === 0 || have < required(1)) return failed('money');
  const top = maxUsable(amountsOf(all), CARROT_MAX_INPUTS, need);
  if (top.sum < required(1)) return { ...failed('usable'), top };
  const pre = all.filter((p) => isPreCarrot(cands[p]!));
  const carrot = all.filter((p) => !isPreCarrot(cands[p]!));
  for (const subset of [pre, carrot]) {
    if (subset.length === 0) continue;
    const amounts = amountsOf(subset);
    const most = maxUsable(amounts, CARROT_MAX_INPUTS, need);
    if (most.n === 0 || most.sum < required(most.n)) continue;
    for (const n of inputCountsInOrder(need.preferTwo)) {
      const usable = maxUsable(amounts, n, need);
      if (usable.n !== n || usable.sum < required(n)) continue;
      // Outputs worth no more than the fee they add are dust, left out.
      const dust = need.feeFor(n) - (n > 1 ? need.feeFor(n - 1) : 0n);
      const filtered = subset.filter((p) => cands[p]!.amount > dust);
      const chosen = greedyAging(cands, filtered, n, required(n));
      if (chosen.length !== n) return failed('policy');
      return { ok: true, inputs: chosen.sort((a, b) => a - b).map((p) => cands[p]!), fee: need.feeFor(n) };
    }
  }
  return failed('subset');
}
