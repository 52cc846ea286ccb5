// Expectations and their matchers (eq, contains, length, matches…): checks with messages that
// suggest the matcher meant, and their JSON Schema.
import { z } from 'zod';
import { isPlainObject } from '../../common/plain-object.js';
import { AMOUNT_FORMS, amountError } from '../../coin/amounts.js';
import { describeValue } from '../../common/describe.js';
import { suggest } from '../../common/suggest.js';
import { isTemplateString } from '../interpolate.js';
import { MAX_PATTERN_LENGTH } from '../bounds.js';
import { MATCHER_KEYS, TYPE_NAMES } from '../match.js';
import { REGEX_EXPECTED, regexProblem } from '../regex.js';
import { leaf, type LeafIssue } from './leaves.js';
import { didYouMean, listed, showShort } from './vocabulary.js';

export const MATCHER_EXPECTED =
  'a matcher with one key: eq, ne, contains, not_contains, length, gt, gte, lt, lte, matches, absent: true, present: true, type, all: [matchers] — or a plain value (equality)';

/** Common misspellings and synonyms of matcher names. */
const MATCHER_ALIASES: Record<string, string> = {
  match: 'matches',
  regex: 'matches',
  regexp: 'matches',
  contain: 'contains',
  includes: 'contains',
  include: 'contains',
  not_contain: 'not_contains',
  not_includes: 'not_contains',
  excludes: 'not_contains',
  equals: 'eq',
  equal: 'eq',
  neq: 'ne',
  not_eq: 'ne',
  not: 'ne',
  not_equal: 'ne',
  min: 'gte',
  max: 'lte',
  exists: 'present',
  exist: 'present',
  missing: 'absent',
  len: 'length',
  ge: 'gte',
  le: 'lte',
  greater_than: 'gt',
  less_than: 'lt',
  any: 'all',
};

function matcherSuggestion(k: string): string | undefined {
  return MATCHER_ALIASES[k] ?? MATCHER_ALIASES[k.toLowerCase()] ?? suggest(k, MATCHER_KEYS);
}

function numberLike(v: unknown): boolean {
  if (typeof v === 'bigint') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string') return /^-?\d+$/.test(v.trim()) || amountError(v) === undefined || isTemplateString(v);
  return false;
}

function operandIssues(key: string, op: unknown): LeafIssue[] {
  const at = (message: string, expected: string): LeafIssue[] => [{ path: [key], message, expected }];
  switch (key) {
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (numberLike(op)) return [];
      if (typeof op === 'string' && /\d\s+\S/.test(op)) {
        return at(`${showShort(op)} is not an amount: ${amountError(op)}`, `a number or ${AMOUNT_FORMS}`);
      }
      return at(
        `${key} compares numbers: ${showShort(op)} is not a number or an amount`,
        `a number, or ${AMOUNT_FORMS}`,
      );
    case 'length': {
      if ((typeof op === 'number' && Number.isInteger(op) && op >= 0) || typeof op === 'bigint') return [];
      if (isPlainObject(op)) {
        const ks = Object.keys(op);
        const k0 = ks[0];
        if (ks.length === 1 && k0 && ['gt', 'gte', 'lt', 'lte', 'eq'].includes(k0)) {
          const n = op[k0];
          if (typeof n === 'number' && Number.isInteger(n)) return [];
          return [
            {
              path: [key, k0],
              message: `expected a whole number, got ${describeValue(n)}`,
              expected: 'a whole number',
            },
          ];
        }
      }
      return at(
        `length takes a number or one comparison, got ${describeValue(op)}`,
        'a whole number, or {gt|gte|lt|lte|eq: n}',
      );
    }
    case 'matches':
      if (typeof op !== 'string')
        return at(`matches takes a regular expression (a string), got ${describeValue(op)}`, REGEX_EXPECTED);
      if (isTemplateString(op)) return [];
      return regexProblem(op) === undefined ? [] : at(`bad regular expression: ${regexProblem(op)}`, REGEX_EXPECTED);
    case 'absent':
    case 'present':
      if (op === true) return [];
      if (op === false)
        return at(
          `${key}: false is not supported; write ${key === 'absent' ? 'present' : 'absent'}: true`,
          `${key}: true`,
        );
      return at(`${key} takes true, got ${describeValue(op)}`, `${key}: true`);
    case 'type':
      if (typeof op === 'string' && (TYPE_NAMES as readonly string[]).includes(op)) return [];
      return at(
        `${showShort(op)} is not a type${typeof op === 'string' ? didYouMean(suggest(op, TYPE_NAMES)) : ''}`,
        `one of ${TYPE_NAMES.join(', ')}`,
      );
    case 'contains':
    case 'not_contains':
      return containsOperandIssues(key, op);
    case 'all':
      if (!Array.isArray(op) || op.length === 0)
        return at(
          `all takes a non-empty list of matchers, got ${describeValue(op)}`,
          'a list of matchers, e.g. [{gte: 1}, {lte: 5}]',
        );
      return op.flatMap((m, i) =>
        matcherIssues(m, true).map((iss) => ({ ...iss, path: [key, i, ...(iss.path ?? [])] })),
      );
    default:
      return [];
  }
}

/** Problems with the matchers inside a value of a contains operand, at any depth (they are evaluated there). */
function nestedIssues(v: unknown, path: (string | number)[]): LeafIssue[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => nestedIssues(x, [...path, i]));
  if (!isPlainObject(v)) return [];
  const keys = Object.keys(v);
  const own = matcherIssues(v).map((iss) => ({ ...iss, path: [...path, ...(iss.path ?? [])] }));
  if (own.length || keys.some((k) => (MATCHER_KEYS as readonly string[]).includes(k))) return own;
  return keys.flatMap((k) => nestedIssues(v[k], [...path, k]));
}

/**
 * A contains operand: a matcher applied to each element (`{gt: 5}`), or a value whose nested matchers are checked
 * (`{asset_type: SAL1, balance: {gt: 0}}`). A one-key mapping named like a matcher that is not a valid one
 * (`{type: in}`) is a field to look for.
 */
function containsOperandIssues(key: string, op: unknown): LeafIssue[] {
  if (isPlainObject(op)) {
    const keys = Object.keys(op);
    const k0 = keys[0];
    if (
      keys.length === 1 &&
      k0 &&
      (MATCHER_KEYS as readonly string[]).includes(k0) &&
      !operandIssues(k0, op[k0]).length
    )
      return [];
    return keys.flatMap((k) => nestedIssues(op[k], [key, k]));
  }
  return nestedIssues(op, [key]);
}

/**
 * Problems with an expectation value. An object with one matcher key is a matcher; an object with
 * no matcher key is a literal (deep equality) unless its only key looks like a misspelt matcher;
 * matcher keys mixed with others are an error. With `strict` the value must be a matcher.
 */
export function matcherIssues(v: unknown, strict = false): LeafIssue[] {
  if (!isPlainObject(v))
    return strict ? [{ message: `expected a matcher, got ${describeValue(v)}`, expected: MATCHER_EXPECTED }] : [];
  const keys = Object.keys(v);
  const mk = keys.filter((k) => (MATCHER_KEYS as readonly string[]).includes(k));
  if (mk.length === 1 && keys.length === 1) return operandIssues(mk[0]!, v[mk[0]!]);
  if (mk.length > 1 && keys.length === mk.length) {
    return [
      {
        message: `a matcher has exactly one key, this one has ${mk.join(', ')}: combine them with all: [{${mk[0]}: …}, {${mk[1]}: …}]`,
        expected: MATCHER_EXPECTED,
      },
    ];
  }
  if (mk.length > 0) {
    const others = keys.filter((k) => !mk.includes(k));
    return [
      {
        message: `mixes matcher keys (${mk.join(', ')}) with other keys (${listed(others)}); a matcher has exactly one key, and an object to compare with is written eq: {…}`,
        expected: MATCHER_EXPECTED,
      },
    ];
  }
  if (keys.length === 1 || strict) {
    const out: LeafIssue[] = [];
    for (const k of keys) {
      const s = matcherSuggestion(k);
      if (s)
        out.push({
          path: [k],
          at: 'key',
          message: `unknown matcher "${k}" (did you mean "${s}"?); to compare with an object that has a "${k}" key write eq: {${k}: …}`,
          expected: MATCHER_EXPECTED,
        });
      else if (strict)
        out.push({ path: [k], at: 'key', message: `unknown matcher "${k}"`, expected: MATCHER_EXPECTED });
    }
    if (strict && keys.length === 0)
      out.push({ message: 'an empty mapping is not a matcher', expected: MATCHER_EXPECTED });
    return out;
  }
  return [];
}

const comparisonJson = (type: string) => ({
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  properties: Object.fromEntries(['gt', 'gte', 'lt', 'lte', 'eq'].map((k) => [k, { type }])),
  additionalProperties: false,
});

export const MATCHER_JSON = {
  description: MATCHER_EXPECTED,
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  properties: {
    eq: { description: 'deep equality (amounts compare exactly as bigints)' },
    ne: { description: 'not deeply equal' },
    contains: {
      description:
        'a list holding a matching element, a string holding this substring, or an object holding these keys; matchers inside are evaluated ({balance: {gt: 0}}, or {gt: 5} on a list of numbers)',
    },
    not_contains: {
      description: 'the opposite of contains, matchers inside evaluated too (an omitted list contains nothing)',
    },
    length: {
      description: 'length of a list or string (an omitted list has length 0)',
      anyOf: [{ type: 'integer', minimum: 0 }, comparisonJson('integer')],
    },
    gt: {
      description: 'greater than (numbers or amounts such as "1.5 SAL1")',
      anyOf: [{ type: 'number' }, { type: 'string' }],
    },
    gte: { description: 'greater than or equal', anyOf: [{ type: 'number' }, { type: 'string' }] },
    lt: { description: 'less than', anyOf: [{ type: 'number' }, { type: 'string' }] },
    lte: { description: 'less than or equal', anyOf: [{ type: 'number' }, { type: 'string' }] },
    matches: {
      description: `a regular expression (RE2 syntax: JavaScript's without backreferences or lookaround) the value (as text) must match somewhere`,
      type: 'string',
      maxLength: MAX_PATTERN_LENGTH,
    },
    absent: { description: 'the path is missing (an empty list counts: epee omits empty lists)', const: true },
    present: { description: 'the path exists and is not an empty list', const: true },
    type: { description: 'the JSON type of the value', enum: [...TYPE_NAMES] },
    all: { description: 'every matcher holds', type: 'array', minItems: 1, items: { $ref: '#/$defs/matcher' } },
  },
  additionalProperties: false,
};

/** A plain value: anything but an object holding a matcher key (those must be valid matchers). */
const LITERAL_JSON = { not: { type: 'object', anyOf: MATCHER_KEYS.map((k) => ({ required: [k] })) } };

const expectationValue = leaf(MATCHER_EXPECTED, { anyOf: [{ $ref: '#/$defs/matcher' }, LITERAL_JSON] }, (v) =>
  matcherIssues(v),
);

export const errorMessageLeaf = leaf(
  'the exact error message, or a matcher on it (e.g. {contains: "not found"})',
  { anyOf: [{ type: 'string' }, { $ref: '#/$defs/matcher' }] },
  (v) => (typeof v === 'string' ? undefined : matcherIssues(v, true)),
);

export const expectations = z
  .record(z.string(), expectationValue)
  .describe(
    'expectations: response path (result.… or error.…) → matcher or plain value, e.g. {result.tokens: {contains: salABCD}}',
  );
