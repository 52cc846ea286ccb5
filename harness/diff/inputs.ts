// Values of a transaction that depend on how many inputs its wallet chose. Salvium 1.1.3c's Carrot
// input selection prefers 1 or 2 inputs *at random* when one input can pay
// (carrot_impl/input_selection.cpp, get_input_counts_in_preferred_order), so two runs of the same
// transfer — even on the same build — may differ in fee, weight and number of key images. Those are
// compared by what does not depend on that coin flip: fees and weights of the same order (within a
// factor of 2: a missing fee or burn still shows) and at least one key image. A side that followed the other's
// input counts (a simulator side, replay.ts) is compared exactly instead (compare.ts); a transfer entry of a
// transaction the steps did not build (the testnet's funding, sent from outputs each side came by on its own) by the
// sign of its fee only.
import { formatPath, type PathSegment } from '../common/path.js';
import { show, type ValueDivergence } from './values.js';

type Obj = Record<string, unknown>;

/** Keys whose values follow the input count, in an object that describes a transaction. */
export const INPUT_DEPENDENT = new Set([
  'fee',
  'fee_list',
  'weight',
  'weight_list',
  'spent_key_images',
  'spent_key_images_list',
]);

const TX_KEYS = ['tx_hash', 'tx_hash_list', 'txid', 'spent_key_images', 'spent_key_images_list'];

/** A transfer answer or a transfer entry (not get_fee_estimate, whose `fee` is a rate and compared exactly). */
export const isTxObject = (o: Obj): boolean => TX_KEYS.some((k) => k in o);

/**
 * The answer of a request that built transactions (it lists the key images they spent): one a following side sent
 * with the other side's input counts. A transfer entry (get_transfers, get_transfer_by_txid) may list a transaction
 * made outside the steps — the testnet's funding of a wallet — whose inputs no replay reached.
 */
export const isBuildAnswer = (o: Obj): boolean => 'spent_key_images' in o || 'spent_key_images_list' in o;

const num = (v: unknown): number => Number(v);

/** The transactions a run's steps built: the tx_hash (or tx_hash_list) of every answer that built some. */
export function builtTxids(answers: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const r of answers) {
    const res = (r as { result?: Obj } | undefined)?.result;
    if (!res || typeof res !== 'object' || !isBuildAnswer(res)) continue;
    if (typeof res.tx_hash === 'string') ids.add(res.tx_hash);
    if (Array.isArray(res.tx_hash_list)) for (const h of res.tx_hash_list) if (typeof h === 'string') ids.add(h);
  }
  return ids;
}

/**
 * Fees (or weights) of a transaction the steps did not build (the testnet's funding of a wallet): its sender chose
 * its inputs from outputs each side came by on its own, so any count from 1 to 64 may be: both zero, or both not.
 */
function sameFeeSign(a: unknown, b: unknown): boolean {
  return (num(a) === 0) === (num(b) === 0);
}

/** Fees (or weights) of the same transaction with 1 or 2 inputs: both zero, or both non-zero within a factor of 2. */
function sameFeeOrder(a: unknown, b: unknown): boolean {
  const [x, y] = [num(a), num(b)];
  if (x === 0 || y === 0) return x === y;
  return Math.max(x, y) <= 2 * Math.min(x, y);
}

/**
 * A fee or a weight: of the same order on both sides. Not a fee per byte of weight: the fee follows
 * the *estimated* weight, and a real token tx weighs 1422 whatever fee its estimate gave (871 per
 * byte), a ROLLUP ~540, a plain transfer ~520.
 */
function compareOrder(
  path: PathSegment[],
  a: unknown,
  b: unknown,
  out: ValueDivergence[],
  rule: 'fee' | 'size',
  unbuilt = false,
): void {
  const at = formatPath(path);
  if (typeof a !== 'number' && typeof a !== 'bigint')
    return void (a !== b && out.push({ path: at, kind: 'value', a: show(a), b: show(b) }));
  if (unbuilt ? !sameFeeSign(a, b) : !sameFeeOrder(a, b))
    out.push({
      path: at,
      kind: 'value',
      a: show(a),
      b: show(b),
      detail: unbuilt
        ? 'one is zero (a transaction the steps did not build: any input count)'
        : 'not within a factor of 2 (what 1 or 2 inputs give)',
      rule,
    });
}

/** Key images: each side spent at least one (their form is compared with the other hashes). */
function compareKeyImages(path: PathSegment[], a: unknown, b: unknown, out: ValueDivergence[]): void {
  const count = (v: unknown): number =>
    Array.isArray((v as Obj | undefined)?.key_images) ? ((v as Obj).key_images as unknown[]).length : 0;
  if (count(a) > 0 !== count(b) > 0)
    out.push({
      path: formatPath([...path, 'key_images']),
      kind: 'length',
      a: show(a),
      b: show(b),
      detail: `${count(a)} ≠ ${count(b)} key images`,
      rule: 'input count',
    });
}

const kindOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'bigint' ? 'number' : typeof v;

/**
 * Compare one input-dependent key of two transaction objects; `walk` compares values whose JSON
 * types differ (reported as any type change is).
 */
export function compareInputDependent(
  path: PathSegment[],
  key: string,
  a: Obj,
  b: Obj,
  out: ValueDivergence[],
  walk: (p: PathSegment[], x: unknown, y: unknown) => void,
  unbuilt = false,
): void {
  const [va, vb] = [a[key], b[key]];
  const at = [...path, key];
  if (kindOf(va) !== kindOf(vb)) return walk(at, va, vb);
  if (key === 'fee') return compareOrder(at, va, vb, out, 'fee', unbuilt);
  if (key === 'weight') return compareOrder(at, va, vb, out, 'size', unbuilt);
  if (key === 'spent_key_images') return compareKeyImages(at, va, vb, out);
  const [la, lb] = [Array.isArray(va) ? va : [], Array.isArray(vb) ? vb : []];
  if (la.length !== lb.length)
    out.push({
      path: formatPath(at),
      kind: 'length',
      a: show(va),
      b: show(vb),
      detail: `${la.length} ≠ ${lb.length} items`,
    });
  for (let i = 0; i < Math.min(la.length, lb.length); i++) {
    if (key === 'fee_list') compareOrder([...at, i], la[i], lb[i], out, 'fee');
    else if (key === 'weight_list') compareOrder([...at, i], la[i], lb[i], out, 'size');
    else compareKeyImages([...at, i], la[i], lb[i], out);
  }
}
