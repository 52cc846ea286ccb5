// Expectations on RPC responses: paths into `{ result?, error? }` and the matchers of types.ts.
//
// Equality is deep. Numbers, bigints, strings of digits and amount strings ("1000 SAL1") compare as
// bigints when both sides are integers (two plain strings always compare as text). epee omits empty
// arrays from answers, so a missing key counts as an empty list: `absent` holds, `length: 0` holds,
// `eq: []` holds, `not_contains` holds; and inside objects a missing key equals `[]`.
import { AMOUNT_DECIMALS, formatAmount, isAmountString, parseAmount } from '../common/amounts.js';
import { interpolate, type Scope } from './interpolate.js';
import { formatPath, parsePath, type PathSegment } from '../common/path.js';
import { regexTest } from './regex.js';
import type { ExpectedError, Expectations, StepFailure } from './types.js';

export { formatPath, parsePath, type PathSegment } from '../common/path.js';

export const MATCHER_KEYS = [
  'eq',
  'ne',
  'contains',
  'not_contains',
  'length',
  'gt',
  'gte',
  'lt',
  'lte',
  'matches',
  'absent',
  'present',
  'type',
  'all',
] as const;
export type MatcherKey = (typeof MATCHER_KEYS)[number];
export const TYPE_NAMES = ['string', 'number', 'boolean', 'array', 'object', 'null'] as const;

export interface Response {
  result?: unknown;
  error?: unknown;
}

/** Look a path up: `result.balances[0].unlocked_balance`, `result["token.version"]`. Throws on a malformed path. */
export function getPath(obj: unknown, path: string | readonly PathSegment[]): { found: boolean; value?: unknown } {
  const segs = typeof path === 'string' ? parsePath(path) : path;
  let cur = obj;
  for (const seg of segs) {
    if (Array.isArray(cur)) {
      if (typeof seg !== 'number' || seg >= cur.length) return { found: false };
      cur = cur[seg];
    } else if (typeof cur === 'object' && cur !== null) {
      const key = String(seg);
      if (!Object.prototype.hasOwnProperty.call(cur, key)) return { found: false };
      cur = (cur as Record<string, unknown>)[key];
    } else {
      return { found: false };
    }
    if (cur === undefined) return { found: false };
  }
  return { found: true, value: cur };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A matcher object: exactly one key, and that key is a matcher name. */
export function isMatcher(v: unknown): v is Record<MatcherKey, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && (MATCHER_KEYS as readonly string[]).includes(keys[0]!);
}

const isEmptyArray = (v: unknown): boolean => Array.isArray(v) && v.length === 0;

// ---- numbers ----

type Num = { int: bigint } | { float: number };

/** A number-like value as a bigint (integers) or a float; undefined when not number-like. */
function toNum(v: unknown): Num | undefined {
  if (typeof v === 'bigint') return { int: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { int: BigInt(v) } : Number.isFinite(v) ? { float: v } : undefined;
  if (typeof v === 'string') {
    const s = v.trim();
    if (/^-?\d+$/.test(s)) return { int: BigInt(s) };
    if (isAmountString(s)) return { int: parseAmount(s) };
  }
  return undefined;
}

function compareNums(a: Num, b: Num): number {
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
  if (na && ne && (typeof actual !== 'string' || typeof expected !== 'string' || isAmountString(actual) || isAmountString(expected))) {
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

/** Every key of `part` is in `whole` with an equal value (missing = empty list). */
function containsSubset(whole: Record<string, unknown>, part: Record<string, unknown>): boolean {
  return Object.entries(part).every(([k, v]) =>
    Object.prototype.hasOwnProperty.call(whole, k) ? valuesEqual(whole[k], v) : isEmptyArray(v),
  );
}

// ---- display ----

const MAX_SHOWN = 300;

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
function showExpected(v: unknown): string {
  if (isAmountString(v)) return `${JSON.stringify(v.trim())} (${parseAmount(v)})`;
  return showValue(v);
}

/** An actual value; when the expectation was written as an amount, also in that unit. */
function showActual(found: boolean, v: unknown, expected?: unknown): string {
  if (!found) return '(absent)';
  if (isAmountString(expected)) {
    const unit = expected.trim().split(/\s+/)[1] ?? 'SAL1';
    const n = toNum(v);
    if (n && 'int' in n && unit in AMOUNT_DECIMALS) return `${showValue(v)} (${formatAmount(n.int, unit)})`;
  }
  return showValue(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'bigint') return 'number';
  return typeof v;
}

// ---- matchers ----

/** What a failed matcher expected and what it found, as readable text. */
export interface Mismatch {
  expected: string;
  actual: string;
  /** Extra explanation appended to the message. */
  note?: string;
}

const CMP: Record<string, { sym: string; ok: (c: number) => boolean }> = {
  gt: { sym: '>', ok: (c) => c > 0 },
  gte: { sym: '>=', ok: (c) => c >= 0 },
  lt: { sym: '<', ok: (c) => c < 0 },
  lte: { sym: '<=', ok: (c) => c <= 0 },
  eq: { sym: '==', ok: (c) => c === 0 },
};

/**
 * Apply a matcher (or a plain value: equality) to the value found at a path.
 * Returns undefined when it holds, else what was expected and what was there.
 */
export function matchValue(found: boolean, actual: unknown, matcher: unknown): Mismatch | undefined {
  if (!isMatcher(matcher)) {
    if (!found) return isEmptyArray(matcher) ? undefined : { expected: showExpected(matcher), actual: '(absent)' };
    return valuesEqual(actual, matcher) ? undefined : { expected: showExpected(matcher), actual: showActual(found, actual, matcher) };
  }
  const [key, op] = Object.entries(matcher)[0] as [MatcherKey, unknown];
  const act = () => showActual(found, actual, op);
  switch (key) {
    case 'eq':
      // The operand is always a literal, even when it looks like a matcher.
      if (!found) return isEmptyArray(op) ? undefined : { expected: showExpected(op), actual: '(absent)' };
      return valuesEqual(actual, op) ? undefined : { expected: showExpected(op), actual: act() };
    case 'ne':
      if (!found) return { expected: `not ${showExpected(op)}`, actual: '(absent)' };
      return valuesEqual(actual, op) ? { expected: `not ${showExpected(op)}`, actual: act() } : undefined;
    case 'contains':
    case 'not_contains': {
      const neg = key === 'not_contains';
      const expected = `${neg ? 'not containing' : 'containing'} ${showExpected(op)}`;
      if (!found || isEmptyArray(actual)) return neg ? undefined : { expected, actual: found ? '[]' : '(absent: an omitted list is empty)' };
      let has: boolean;
      // A list contains an object when one of its elements has all of that object's fields
      // (`contains: { txid: …, type: in }` finds a transfer entry among many).
      if (Array.isArray(actual)) has = actual.some((el) => (isPlainObject(el) && isPlainObject(op) ? containsSubset(el, op) : valuesEqual(el, op)));
      else if (typeof actual === 'string') has = actual.includes(typeof op === 'string' ? op : showValue(op));
      else if (isPlainObject(actual) && isPlainObject(op)) has = containsSubset(actual, op);
      else return { expected, actual: act(), note: `${key} applies to a list, a string or (with an object) an object, not a ${typeName(actual)}` };
      return has === neg ? { expected, actual: act() } : undefined;
    }
    case 'length': {
      let len: number;
      if (!found) len = 0;
      else if (Array.isArray(actual) || typeof actual === 'string') len = actual.length;
      else return { expected: `something with a length`, actual: act(), note: `length applies to a list or a string, not a ${typeName(actual)}` };
      let ok: boolean;
      let expected: string;
      if (isPlainObject(op) && Object.keys(op).length === 1) {
        const [ck, cv] = Object.entries(op)[0]!;
        const c = CMP[ck];
        const n = toNum(cv);
        if (!c || !n) return { expected: `length ${showValue(op)}`, actual: act(), note: 'bad length matcher' };
        ok = c.ok(compareNums({ int: BigInt(len) }, n));
        expected = `length ${c.sym} ${showValue(cv)}`;
      } else {
        const n = toNum(op);
        if (!n) return { expected: `length ${showValue(op)}`, actual: act(), note: 'length takes a number or {gt|gte|lt|lte|eq: n}' };
        ok = compareNums({ int: BigInt(len) }, n) === 0;
        expected = `length ${showValue(op)}`;
      }
      return ok ? undefined : { expected, actual: found ? `length ${len}: ${act()}` : '(absent: an omitted list has length 0)' };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const c = CMP[key]!;
      const expected = `${c.sym} ${showExpected(op)}`;
      if (!found) return { expected, actual: '(absent)' };
      const a = toNum(actual);
      const e = toNum(op);
      if (!e) return { expected, actual: act(), note: `${key} needs a number or an amount to compare with` };
      if (!a) return { expected, actual: act(), note: 'not a number' };
      return c.ok(compareNums(a, e)) ? undefined : { expected, actual: act() };
    }
    case 'matches': {
      const expected = `matching /${String(op)}/`;
      if (!found) return { expected, actual: '(absent)' };
      if (typeof actual !== 'string' && typeof actual !== 'number' && typeof actual !== 'bigint' && typeof actual !== 'boolean') {
        return { expected, actual: act(), note: `matches applies to a string or a number, not a ${typeName(actual)}` };
      }
      // RE2 (regex.ts): linear time, so a pattern from a scenario cannot hang the harness.
      const r = regexTest(String(op), String(actual));
      if (r.error !== undefined) return { expected, actual: act(), note: r.error };
      return r.matched ? undefined : { expected, actual: act() };
    }
    case 'absent':
      return !found || isEmptyArray(actual) ? undefined : { expected: 'absent (or an empty list, which epee omits)', actual: act() };
    case 'present':
      return found && !isEmptyArray(actual) ? undefined : { expected: 'present (and not an empty list)', actual: found ? '[] (an empty list counts as absent)' : '(absent)' };
    case 'type': {
      const expected = `a value of type ${String(op)}`;
      if (!found) return { expected, actual: '(absent)' };
      return typeName(actual) === op ? undefined : { expected, actual: `${act()} (type ${typeName(actual)})` };
    }
    case 'all': {
      const subs = Array.isArray(op) ? op : [op];
      for (let i = 0; i < subs.length; i++) {
        const m = matchValue(found, actual, subs[i]);
        if (m) return { ...m, note: `all[${i}]${m.note ? `: ${m.note}` : ''}` };
      }
      return undefined;
    }
  }
}

// ---- responses ----

function isErrorResponse(r: Response): boolean {
  return r.error !== undefined && r.error !== null;
}

function describeError(err: unknown): string {
  if (isPlainObject(err)) {
    const code = err.code;
    const message = err.message;
    if (code !== undefined || message !== undefined) return `error ${showValue(code)}${message !== undefined ? `: ${showValue(message)}` : ''}`;
  }
  return `error ${showValue(err)}`;
}

function failure(path: string, m: Mismatch): StepFailure {
  return {
    message: `${path}: expected ${m.expected}, got ${m.actual}${m.note ? ` (${m.note})` : ''}`,
    path,
    expected: m.expected,
    actual: m.actual,
  };
}

/**
 * Check every expectation against a response; the first that fails is returned. Keys are paths
 * from the response root (`result.…` or `error.…`); values are matchers or plain values, with
 * `${…}` placeholders resolved from `scope`. An error answer fails unless an expectation looks at
 * `error…`; a successful answer fails when every expectation looks at `error…`.
 */
export function checkExpectations(response: Response, exp: Expectations, scope: Scope): StepFailure | undefined {
  const entries: [string, PathSegment[], unknown][] = [];
  for (const [rawKey, rawValue] of Object.entries(exp)) {
    let key = rawKey;
    let segs: PathSegment[];
    let value: unknown;
    try {
      if (key.includes('${')) key = String(interpolate(key, scope));
      segs = parsePath(key);
      value = interpolate(rawValue, scope);
    } catch (e) {
      return { message: `${rawKey}: ${(e as Error).message}`, path: rawKey };
    }
    entries.push([key, segs, value]);
  }
  const roots = entries.map(([, segs]) => segs[0]);
  if (isErrorResponse(response) && !roots.includes('error')) {
    return {
      message: `the call answered ${describeError(response.error)}, but a result was expected`,
      path: 'error',
      expected: 'a result',
      actual: describeError(response.error),
    };
  }
  if (!isErrorResponse(response) && roots.length > 0 && roots.every((r) => r === 'error')) {
    return {
      message: `expected an error, but the call succeeded with result ${showValue(response.result)}`,
      path: 'error',
      expected: 'an error',
      actual: `result ${showValue(response.result)}`,
    };
  }
  for (const [key, segs, value] of entries) {
    const { found, value: actual } = getPath(response, segs);
    const m = matchValue(found, actual, value);
    if (m) return failure(formatPath(segs) || key, m);
  }
  return undefined;
}

/** Check an error answer against `expect_error` (code: equal; message: exact string or a matcher). */
export function checkError(response: Response, expected: ExpectedError, scope?: Scope): StepFailure | undefined {
  const want: string[] = [];
  if (expected.code !== undefined) want.push(`code ${expected.code}`);
  if (expected.message !== undefined) want.push(`message ${typeof expected.message === 'string' ? JSON.stringify(expected.message) : showValue(expected.message)}`);
  const wantText = want.length ? `an error (${want.join(', ')})` : 'an error';
  if (!isErrorResponse(response)) {
    return {
      message: `expected ${wantText}, but the call succeeded with result ${showValue(response.result)}`,
      path: 'error',
      expected: wantText,
      actual: `result ${showValue(response.result)}`,
    };
  }
  const err = response.error;
  const code = getPath(err, ['code']);
  const message = getPath(err, ['message']);
  if (expected.code !== undefined && !(code.found && valuesEqual(code.value, expected.code))) {
    const actual = `${code.found ? showValue(code.value) : '(absent)'}${message.found ? ` (message ${showValue(message.value)})` : ''}`;
    return { message: `error.code: expected ${expected.code}, got ${actual}`, path: 'error.code', expected: String(expected.code), actual };
  }
  if (expected.message !== undefined) {
    let m: Mismatch | undefined;
    try {
      const want = scope ? interpolate(expected.message, scope) : expected.message;
      m = typeof want === 'string'
        ? message.found && message.value === want
          ? undefined
          : { expected: JSON.stringify(want), actual: showActual(message.found, message.value) }
        : matchValue(message.found, message.value, want);
    } catch (e) {
      return { message: `error.message: ${(e as Error).message}`, path: 'error.message' };
    }
    if (m) {
      const f = failure('error.message', m);
      if (code.found) f.actual = `${f.actual} (code ${showValue(code.value)})`;
      return f;
    }
  }
  return undefined;
}
