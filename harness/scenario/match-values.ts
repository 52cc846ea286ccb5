// Values in expectations: deep equality (numbers, amounts and bigints compared exactly), subsets,
// and how expected and actual values are shown in failures.
import { isPlainObject } from '../common/plain-object.js';
import { formatAmount, isAmountString, parseAmount } from '../coin/amounts.js';
import { amountUnits } from '../coin/backends.js';

export const isEmptyArray = (v: unknown): boolean => Array.isArray(v) && v.length === 0;

// ---- numbers ----

export type Num = { int: bigint } | { float: number };

/** A number-like value as a bigint (integers) or a float; undefined when not number-like. */
export function toNum(v: unknown): Num | undefined {
  if (typeof v === 'bigint') return { int: v };
  if (typeof v === 'number')
    return Number.isInteger(v) ? { int: BigInt(v) } : Number.isFinite(v) ? { float: v } : undefined;
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^-?\d+$/.test(s)) return { int: BigInt(s) };
    if (isAmountString(s)) return { int: parseAmount(s) };
  }
  return undefined;
}

export function compareNums(a: Num, b: Num): number {
  if ('int' in a && 'int' in b) return a.int < b.int ? -1 : a.int > b.int ? 1 : 0;
  const x = 'int' in a ? Number(a.int) : a.float;
  const y = 'int' in b ? Number(b.int) : b.float;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Deep equality with amount-aware numbers and "missing key = empty list". */
export function valuesEqual(actual: unknown, expected: unknown): boolean {
  if (typeof actual === 'string' && typeof expected === 'string') {
    if (actual === expected) return true;
    if (!isAmountString(actual) && !isAmountString(expected)) return false;
  }
  const na = toNum(actual);
  const ne = toNum(expected);
  if (
    na &&
    ne &&
    (typeof actual !== 'string' || typeof expected !== 'string' || isAmountString(actual) || isAmountString(expected))
  ) {
    return compareNums(na, ne) === 0;
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    return actual.length === expected.length && actual.every((v, i) => valuesEqual(v, expected[i]));
  }
  if (isPlainObject(actual) && isPlainObject(expected)) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    for (const k of keys) {
      const inA = Object.prototype.hasOwnProperty.call(actual, k) && actual[k] !== undefined;
      const inE = Object.prototype.hasOwnProperty.call(expected, k) && expected[k] !== undefined;
      if (inA && inE) {
        if (!valuesEqual(actual[k], expected[k])) return false;
      } else if (inA ? !isEmptyArray(actual[k]) : inE ? !isEmptyArray(expected[k]) : false) {
        return false;
      }
    }
    return true;
  }
  return Object.is(actual, expected) || (actual === null && expected === null);
}

/**
 * Decides an expected value that is not a plain value (a matcher, in a `contains` operand): whether the value found
 * (or its absence) satisfies it; undefined when the expected value is a plain one.
 */
export type Decide = (found: boolean, actual: unknown, expected: unknown) => boolean | undefined;

const has = (o: Record<string, unknown>, k: string): boolean =>
  Object.prototype.hasOwnProperty.call(o, k) && o[k] !== undefined;

/** valuesEqual, where `decide` settles the expected values it recognises (at any depth). */
export function equalWith(actual: unknown, expected: unknown, decide: Decide): boolean {
  const d = decide(true, actual, expected);
  if (d !== undefined) return d;
  if (Array.isArray(actual) && Array.isArray(expected))
    return actual.length === expected.length && actual.every((v, i) => equalWith(v, expected[i], decide));
  if (isPlainObject(actual) && isPlainObject(expected)) {
    for (const k of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
      const [inA, inE] = [has(actual, k), has(expected, k)];
      const dk = inE ? decide(inA, actual[k], expected[k]) : undefined;
      if (dk !== undefined) {
        if (!dk) return false;
      } else if (inA && inE) {
        if (!equalWith(actual[k], expected[k], decide)) return false;
      } else if (inA ? !isEmptyArray(actual[k]) : inE ? !isEmptyArray(expected[k]) : false) return false;
    }
    return true;
  }
  return valuesEqual(actual, expected);
}

/**
 * Every key of `part` is in `whole` with an equal value (missing = empty list); `decide` settles the expected values
 * it recognises (matchers: `{balance: {gt: 0}}`).
 */
export function containsSubset(
  whole: Record<string, unknown>,
  part: Record<string, unknown>,
  decide: Decide = () => undefined,
): boolean {
  return Object.entries(part).every(([k, v]) => {
    const d = decide(has(whole, k), whole[k], v);
    if (d !== undefined) return d;
    return has(whole, k) ? equalWith(whole[k], v, decide) : isEmptyArray(v);
  });
}

// ---- display ----

export const MAX_SHOWN = 300;

/** A readable, exact rendering: strings quoted, bigints as digits, objects as compact JSON. */
export function showValue(v: unknown): string {
  let s: string;
  if (v === undefined) s = '(absent)';
  else if (typeof v === 'string') s = JSON.stringify(v);
  else if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean' || v === null) s = String(v);
  else {
    const marks: string[] = [];
    try {
      s = JSON.stringify(v, (_k, x: unknown) => {
        if (typeof x !== 'bigint') return x;
        marks.push(x.toString());
        return `\u0000big${marks.length - 1}\u0000`;
      }).replace(/"\\u0000big(\d+)\\u0000"/g, (_m, i: string) => marks[Number(i)]!);
    } catch {
      s = String(v);
    }
  }
  return s.length > MAX_SHOWN ? `${s.slice(0, MAX_SHOWN)}…` : s;
}

/** An expected value; amount strings also in atomic units: `"1.5 SAL1" (150000000)`. */
export function showExpected(v: unknown): string {
  if (isAmountString(v)) return `${JSON.stringify(v.trim())} (${parseAmount(v)})`;
  return showValue(v);
}

/**
 * An actual value; when the expectation was written as an amount, also in coins: of `asset` (the asset of the record
 * the value is in: a token's balance in the token, `25.00000000 salTST1`), else of the unit the amount was written in.
 */
export function showActual(found: boolean, v: unknown, expected?: unknown, asset?: string): string {
  if (!found) return '(absent)';
  if (isAmountString(expected)) {
    const unit = asset ?? expected.trim().split(/\s+/)[1] ?? 'SAL1';
    const n = toNum(v);
    if (n && 'int' in n && (asset !== undefined || amountUnits().has(unit)))
      return `${showValue(v)} (${formatAmount(n.int, unit)})`;
  }
  return showValue(v);
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'number';
  return typeof v;
}
