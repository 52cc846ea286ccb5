// Expectations on RPC responses: paths into `{ result?, error? }` and the matchers of types.ts.
//
// Equality is deep. Numbers, bigints, strings of digits and amount strings ("1000 SAL1") compare as
// bigints when both sides are integers (two plain strings always compare as text). epee omits empty
// arrays from answers, so a missing key counts as an empty list: `absent` holds, `length: 0` holds,
// `eq: []` holds, `not_contains` holds; and inside objects a missing key equals `[]`.
import { interpolate, type Scope } from './interpolate.js';
import { isPlainObject } from '../common/plain-object.js';
import { formatPath, parsePath, type PathSegment } from '../common/path.js';
import { regexTest } from './regex.js';
import {
  compareNums,
  containsSubset,
  equalWith,
  isEmptyArray,
  showActual,
  showExpected,
  showValue,
  toNum,
  typeName,
  valuesEqual,
  type Decide,
} from './match-values.js';

export { showValue, valuesEqual } from './match-values.js';
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

/** A matcher object: exactly one key, and that key is a matcher name. */
export function isMatcher(v: unknown): v is Record<MatcherKey, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && (MATCHER_KEYS as readonly string[]).includes(keys[0]!);
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

/** `asset`: the asset of the record the value is in (its `asset_type`), the unit an amount is shown in. */
type MatchFn = (found: boolean, actual: unknown, op: unknown, key: MatcherKey, asset?: string) => Mismatch | undefined;

const act = (found: boolean, actual: unknown, op: unknown, asset?: string): string =>
  showActual(found, actual, op, asset);

function equality(found: boolean, actual: unknown, op: unknown, asset?: string): Mismatch | undefined {
  if (!found) return isEmptyArray(op) ? undefined : { expected: showExpected(op), actual: '(absent)' };
  return valuesEqual(actual, op) ? undefined : { expected: showExpected(op), actual: act(found, actual, op, asset) };
}

/** In a contains operand, a matcher is evaluated on the value found there (`eq` keeps its operand literal). */
const byMatcher: Decide = (found, actual, expected) =>
  isMatcher(expected) ? matchValue(found, actual, expected) === undefined : undefined;

const contains: MatchFn = (found, actual, op, key) => {
  const neg = key === 'not_contains';
  const expected = `${neg ? 'not containing' : 'containing'} ${showExpected(op)}`;
  if (!found || isEmptyArray(actual))
    return neg ? undefined : { expected, actual: found ? '[]' : '(absent: an omitted list is empty)' };
  let has: boolean;
  // A list contains an object when one of its elements has all of that object's fields
  // (`contains: { txid: …, type: in }` finds a transfer entry among many). Matchers in the operand are
  // evaluated: `{ balance: { gt: 0 } }` holds for an element whose balance is above 0, `{ gt: 5 }` for a
  // number above 5.
  if (Array.isArray(actual))
    has = actual.some((el) =>
      isPlainObject(el) && isPlainObject(op) ? containsSubset(el, op, byMatcher) : equalWith(el, op, byMatcher),
    );
  else if (typeof actual === 'string') has = actual.includes(typeof op === 'string' ? op : showValue(op));
  else if (isPlainObject(actual) && isPlainObject(op)) has = containsSubset(actual, op, byMatcher);
  else
    return {
      expected,
      actual: act(found, actual, op),
      note: `${key} applies to a list, a string or (with an object) an object, not a ${typeName(actual)}`,
    };
  return has === neg ? { expected, actual: act(found, actual, op) } : undefined;
};

const length: MatchFn = (found, actual, op) => {
  let len: number;
  if (!found) len = 0;
  else if (Array.isArray(actual) || typeof actual === 'string') len = actual.length;
  else
    return {
      expected: `something with a length`,
      actual: act(found, actual, op),
      note: `length applies to a list or a string, not a ${typeName(actual)}`,
    };
  let ok: boolean;
  let expected: string;
  if (isPlainObject(op) && Object.keys(op).length === 1) {
    const [ck, cv] = Object.entries(op)[0]!;
    const c = CMP[ck];
    const n = toNum(cv);
    if (!c || !n)
      return { expected: `length ${showValue(op)}`, actual: act(found, actual, op), note: 'bad length matcher' };
    ok = c.ok(compareNums({ int: BigInt(len) }, n));
    expected = `length ${c.sym} ${showValue(cv)}`;
  } else {
    const n = toNum(op);
    if (!n)
      return {
        expected: `length ${showValue(op)}`,
        actual: act(found, actual, op),
        note: 'length takes a number or {gt|gte|lt|lte|eq: n}',
      };
    ok = compareNums({ int: BigInt(len) }, n) === 0;
    expected = `length ${showValue(op)}`;
  }
  return ok
    ? undefined
    : {
        expected,
        actual: found ? `length ${len}: ${act(found, actual, op)}` : '(absent: an omitted list has length 0)',
      };
};

const comparison: MatchFn = (found, actual, op, key, asset) => {
  const c = CMP[key]!;
  const expected = `${c.sym} ${showExpected(op)}`;
  if (!found) return { expected, actual: '(absent)' };
  const a = toNum(actual);
  const e = toNum(op);
  if (!e)
    return {
      expected,
      actual: act(found, actual, op, asset),
      note: `${key} needs a number or an amount to compare with`,
    };
  if (!a) return { expected, actual: act(found, actual, op, asset), note: 'not a number' };
  return c.ok(compareNums(a, e)) ? undefined : { expected, actual: act(found, actual, op, asset) };
};

const matches: MatchFn = (found, actual, op) => {
  const expected = `matching /${String(op)}/`;
  if (!found) return { expected, actual: '(absent)' };
  if (
    typeof actual !== 'string' &&
    typeof actual !== 'number' &&
    typeof actual !== 'bigint' &&
    typeof actual !== 'boolean'
  ) {
    return {
      expected,
      actual: act(found, actual, op),
      note: `matches applies to a string or a number, not a ${typeName(actual)}`,
    };
  }
  // RE2 (regex.ts): linear time, so a pattern from a scenario cannot hang the harness.
  const r = regexTest(String(op), String(actual));
  if (r.error !== undefined) return { expected, actual: act(found, actual, op), note: r.error };
  return r.matched ? undefined : { expected, actual: act(found, actual, op) };
};

/** Each matcher (MATCHER_KEYS), by name. */
const MATCHERS: Record<MatcherKey, MatchFn> = {
  // The operand is always a literal, even when it looks like a matcher.
  eq: (found, actual, op, _key, asset) => equality(found, actual, op, asset),
  ne: (found, actual, op, _key, asset) => {
    if (!found) return { expected: `not ${showExpected(op)}`, actual: '(absent)' };
    return valuesEqual(actual, op)
      ? { expected: `not ${showExpected(op)}`, actual: act(found, actual, op, asset) }
      : undefined;
  },
  contains,
  not_contains: contains,
  length,
  gt: comparison,
  gte: comparison,
  lt: comparison,
  lte: comparison,
  matches,
  absent: (found, actual, op) =>
    !found || isEmptyArray(actual)
      ? undefined
      : { expected: 'absent (or an empty list, which epee omits)', actual: act(found, actual, op) },
  present: (found, actual) =>
    found && !isEmptyArray(actual)
      ? undefined
      : {
          expected: 'present (and not an empty list)',
          actual: found ? '[] (an empty list counts as absent)' : '(absent)',
        },
  type: (found, actual, op) => {
    const expected = `a value of type ${String(op)}`;
    if (!found) return { expected, actual: '(absent)' };
    return typeName(actual) === op
      ? undefined
      : { expected, actual: `${act(found, actual, op)} (type ${typeName(actual)})` };
  },
  all: (found, actual, op, _key, asset) => {
    const subs = Array.isArray(op) ? op : [op];
    for (let i = 0; i < subs.length; i++) {
      const m = matchValue(found, actual, subs[i], asset);
      if (m) return { ...m, note: `all[${i}]${m.note ? `: ${m.note}` : ''}` };
    }
    return undefined;
  },
};

/**
 * Apply a matcher (or a plain value: equality) to the value found at a path.
 * Returns undefined when it holds, else what was expected and what was there.
 */
export function matchValue(found: boolean, actual: unknown, matcher: unknown, asset?: string): Mismatch | undefined {
  if (!isMatcher(matcher)) return equality(found, actual, matcher, asset);
  const [key, op] = Object.entries(matcher)[0] as [MatcherKey, unknown];
  return MATCHERS[key](found, actual, op, key, asset);
}

/**
 * The asset of the record a value is in: the `asset_type` beside it (`result.balances[0].unlocked_balance` is of
 * `result.balances[0].asset_type`), so that a token's amount is shown in the token, not in the unit it was written in.
 */
function assetBeside(response: Response, segs: readonly PathSegment[]): string | undefined {
  if (segs.length < 2) return undefined;
  const parent = getPath(response, segs.slice(0, -1));
  const a = isPlainObject(parent.value) ? parent.value.asset_type : undefined;
  return typeof a === 'string' && /^[A-Za-z0-9]{1,32}$/.test(a) ? a : undefined;
}

// ---- responses ----

function isErrorResponse(r: Response): boolean {
  return r.error !== undefined && r.error !== null;
}

function describeError(err: unknown): string {
  if (isPlainObject(err)) {
    const code = err.code;
    const message = err.message;
    if (code !== undefined || message !== undefined)
      return `error ${showValue(code)}${message !== undefined ? `: ${showValue(message)}` : ''}`;
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
 * Check every expectation against a response: the first that fails, with every failing one in its message. Keys are
 * paths
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
  const failures: StepFailure[] = [];
  for (const [key, segs, value] of entries) {
    const { found, value: actual } = getPath(response, segs);
    const m = matchValue(found, actual, value, assetBeside(response, segs));
    if (m) failures.push(failure(formatPath(segs) || key, m));
  }
  const [first, ...more] = failures;
  // The first failure's path and values; its message lists every expectation that does not hold, one a line.
  return first && { ...first, message: [first.message, ...more.map((f) => f.message)].join('\n') };
}

/** Check an error answer against `expect_error` (code: equal; message: exact string or a matcher). */
export function checkError(response: Response, expected: ExpectedError, scope?: Scope): StepFailure | undefined {
  const want: string[] = [];
  if (expected.code !== undefined) want.push(`code ${expected.code}`);
  if (expected.message !== undefined)
    want.push(
      `message ${typeof expected.message === 'string' ? JSON.stringify(expected.message) : showValue(expected.message)}`,
    );
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
    return {
      message: `error.code: expected ${expected.code}, got ${actual}`,
      path: 'error.code',
      expected: String(expected.code),
      actual,
    };
  }
  if (expected.message !== undefined) {
    let m: Mismatch | undefined;
    try {
      const want = scope ? interpolate(expected.message, scope) : expected.message;
      m =
        typeof want === 'string'
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
