// The scenario file format as zod schemas (structure, types, leaf values), plus the rules zod cannot
// express well (exactly one action per step, references to wallets, saved names, metadata and
// snapshots, `${…}` placeholders), plus the JSON Schema export for editors.
//
// Validation here is position-free: every problem carries a path into the parsed document and says
// whether it is about the key, the value, or the object that lacks a key. parse.ts turns paths into
// line and column.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AMOUNT_FORMS, amountError, parseAmount } from '../common/amounts.js';
import { METADATA_FIELDS, SCOPE_ROOTS, WALLET_FIELDS, isTemplateString, scanTemplate } from './interpolate.js';
import { MAX_BLOCKS_PER_STEP, MAX_HEIGHT, MAX_PATTERN_LENGTH, MAX_PROBLEMS_COLLECTED, MAX_WAIT_SECONDS, limitProblems, limitReason, sizeProblems } from './limits.js';
import { MATCHER_KEYS, TYPE_NAMES } from './match.js';
import { formatPath, parsePath, type PathSegment } from '../common/path.js';
import { REGEX_EXPECTED, regexProblem } from './regex.js';
import { suggest } from '../common/suggest.js';
import type { WalletMethod } from './types.js';

// ---- vocabulary ----

export const WALLET_METHODS = [
  'get_balance',
  'getbalance',
  'transfer',
  'transfer_split',
  'sweep_all',
  'sweep_single',
  'get_transfers',
  'create_token',
  'get_tokens',
] as const satisfies readonly WalletMethod[];

export const ACTION_KEYS = [
  'call',
  ...WALLET_METHODS,
  'mine',
  'wait',
  'metadata',
  'restart',
  'snapshot',
  'revert',
] as const;
export type ActionKey = (typeof ACTION_KEYS)[number];

/** Keys every step may have besides its one action. */
export const STEP_COMMON_KEYS = ['name', 'wallet', 'expect', 'expect_error', 'save'] as const;
/** Actions that make no RPC call of their own whose error a step could expect. */
const NO_ERROR_ACTIONS: readonly string[] = ['mine', 'wait', 'metadata', 'restart', 'snapshot', 'revert'];
export const BACKENDS = ['salvium', 'sim', 'monero'] as const;
/** Names a declared wallet cannot take: the built-in wallet and the placeholder roots. */
export const RESERVED_WALLET_NAMES: readonly string[] = ['main', ...SCOPE_ROOTS];
/** Wallet, save, metadata and snapshot names. */
export const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Assets in `unlocked` maps: SAL1, SAL, XMR, or a token such as salABCD. */
export const ASSET_RE = /^(SAL1|SAL|XMR|sal[0-9A-Z]{4}|erc[0-9A-Z]{4})$/;
/** Roots of response paths: the response is `{ result }` or `{ error }`. */
export const RESPONSE_ROOTS = ['result', 'error'] as const;

/**
 * Request fields each readable wallet form knows (its own keys and the raw RPC fields of
 * salvium-behaviour.md §6–§7). Extra keys pass through unchanged, unless they look like a typo of one
 * of these.
 */
export const KNOWN_PARAMS: Record<WalletMethod, readonly string[]> = {
  get_balance: ['account_index', 'address_indices', 'asset_type', 'all_accounts', 'all_assets', 'strict'],
  getbalance: ['account_index', 'address_indices', 'asset_type', 'all_accounts', 'all_assets', 'strict'],
  get_transfers: ['in', 'out', 'pending', 'failed', 'pool', 'filter_by_height', 'min_height', 'max_height', 'account_index', 'subaddr_indices', 'all_accounts'],
  get_tokens: ['regex'],
  transfer: [
    'to', 'amount', 'asset', 'destinations', 'source_asset', 'dest_asset', 'tx_type', 'account_index', 'subaddr_indices',
    'subtract_fee_from_outputs', 'priority', 'ring_size', 'unlock_time', 'payment_id', 'get_tx_key', 'do_not_relay',
    'get_tx_hex', 'get_tx_metadata',
  ],
  transfer_split: [
    'to', 'amount', 'asset', 'destinations', 'source_asset', 'dest_asset', 'tx_type', 'account_index', 'subaddr_indices',
    'priority', 'ring_size', 'unlock_time', 'payment_id', 'get_tx_keys', 'do_not_relay', 'get_tx_hex', 'get_tx_metadata',
  ],
  sweep_all: [
    'to', 'address', 'asset', 'account_index', 'subaddr_indices', 'subaddr_indices_all', 'priority', 'ring_size', 'outputs',
    'unlock_time', 'payment_id', 'get_tx_keys', 'below_amount', 'do_not_relay', 'get_tx_hex', 'get_tx_metadata', 'asset_type',
  ],
  sweep_single: [
    'to', 'address', 'asset', 'priority', 'ring_size', 'outputs', 'unlock_time', 'payment_id', 'get_tx_key', 'key_image',
    'do_not_relay', 'get_tx_hex', 'get_tx_metadata', 'asset_type',
  ],
  create_token: [
    'ticker', 'supply', 'name', 'url', 'hash', 'size', 'metadata', 'token_metadata_hex', 'account_index', 'subaddr_indices',
    'get_tx_keys', 'do_not_relay', 'get_tx_hex', 'get_tx_metadata',
  ],
};

// ---- problems ----

/** A problem found in a parsed document, located by path. */
export interface SchemaProblem {
  path: PathSegment[];
  /** Point at the key at `path`, its value, or (missing keys) the object that should hold it. */
  at: PathAnchor;
  message: string;
  expected?: string;
}

// ---- small helpers ----

import { describeValue } from '../common/describe.js';
import type { PathAnchor } from '../common/locator.js';
export { suggest } from '../common/suggest.js';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
}

const has = (o: Record<string, unknown>, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);


function showShort(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'nothing';
  if (typeof v === 'object') return describeValue(v);
  return String(v);
}

const didYouMean = (s: string | undefined): string => (s ? ` (did you mean "${s}"?)` : '');
/** Up to 20 names, comma-separated, then how many more (a hostile file may have thousands). */
const listed = (names: Iterable<string>): string => {
  const all = [...names];
  return all.length > 20 ? `${all.slice(0, 20).join(', ')} and ${all.length - 20} more` : all.join(', ');
};

// ---- leaves: values with hand-written checks, messages and JSON Schema ----

/** A problem inside one value, relative to it. */
export interface LeafIssue {
  path?: PathSegment[];
  at?: 'key' | 'value';
  message: string;
  expected?: string;
}
type LeafCheck = (v: unknown) => LeafIssue[] | LeafIssue | undefined;

/** A value validated by `check`; undefined (a missing key) is reported as missing. */
function leaf(description: string, json: Record<string, unknown>, check: LeafCheck, transform?: (v: unknown) => unknown): z.ZodType {
  const base = z.unknown().superRefine((v, ctx) => {
    if (v === undefined) {
      ctx.addIssue({ code: 'custom', message: 'missing', params: { missing: true, expected: description } });
      return;
    }
    const r = check(v);
    for (const i of r === undefined ? [] : Array.isArray(r) ? r : [r]) {
      ctx.addIssue({ code: 'custom', message: i.message, path: i.path ?? [], params: { expected: i.expected ?? description, at: i.at ?? 'value' } });
    }
  });
  const s = transform ? base.transform(transform) : base;
  return s.meta({ description, ...json });
}

const TEMPLATE_PATTERN = '\\$\\{';
const AMOUNT_PATTERN = '^\\s*(\\d+|\\d+(\\.\\d{1,8})?\\s+(SAL1|SAL)|\\d+(\\.\\d{1,12})?\\s+XMR)\\s*$';
const PLACEHOLDER_NOTE = 'or a "${…}" placeholder';

/** An amount (converted to bigint); with `templates`, a string holding `${…}` is kept as written. */
function amountLeaf(templates: boolean): z.ZodType {
  const description = templates ? `${AMOUNT_FORMS}, ${PLACEHOLDER_NOTE}` : AMOUNT_FORMS;
  return leaf(
    description,
    { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: templates ? `${AMOUNT_PATTERN}|${TEMPLATE_PATTERN}` : AMOUNT_PATTERN }] },
    (v) => {
      if (templates && isTemplateString(v)) return undefined;
      const err = amountError(v);
      return err ? { message: `${showShort(v)} is not an amount: ${err}` } : undefined;
    },
    (v) => (templates && isTemplateString(v) ? v : parseAmount(v)),
  );
}

/** A whole number (number, bigint or string of digits, or a placeholder), kept as written. */
function integerLeaf(what: string): z.ZodType {
  const description = `${what}: a whole number (a quoted string of digits for very large ones) ${PLACEHOLDER_NOTE}`;
  return leaf(description, { anyOf: [{ type: 'integer' }, { type: 'string', pattern: `^-?\\d+$|${TEMPLATE_PATTERN}` }] }, (v) => {
    if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return undefined;
    if (typeof v === 'string' && (/^-?\d+$/.test(v.trim()) || isTemplateString(v))) return undefined;
    return { message: `expected a whole number, got ${describeValue(v)}` };
  });
}

function nameLeaf(what: string, example: string): z.ZodType {
  const description = `a ${what}: letters, digits and _, not starting with a digit (e.g. ${example})`;
  return leaf(description, { type: 'string', pattern: NAME_RE.source }, (v) => {
    if (typeof v !== 'string') return { message: `expected a ${what}, got ${describeValue(v)}` };
    if (isTemplateString(v)) return { message: `a "\${…}" placeholder cannot be used as a ${what}: write the name out` };
    if (!NAME_RE.test(v)) return { message: `${JSON.stringify(v)} is not a valid ${what}` };
    return undefined;
  });
}

function responsePathProblem(p: string): string | undefined {
  let segs: PathSegment[];
  try {
    segs = parsePath(p);
  } catch (e) {
    return (e as Error).message;
  }
  const root = segs[0];
  if (root !== 'result' && root !== 'error') {
    return `${JSON.stringify(p)} must start at result or error (the response is {result: …} or {error: …})${didYouMean(typeof root === 'string' ? suggest(root, RESPONSE_ROOTS) : undefined)}`;
  }
  return undefined;
}

const RESPONSE_PATH_EXPECTED = 'a path into the response starting at result or error, e.g. result.tx_hash, result.balances[0].unlocked_balance, result["token.version"]';

const responsePathLeaf = leaf(RESPONSE_PATH_EXPECTED, { type: 'string', pattern: '^(result|error)([.\\[]|$)' }, (v) => {
  if (typeof v !== 'string') return { message: `expected a path string, got ${describeValue(v)}` };
  const p = responsePathProblem(v);
  return p ? { message: p } : undefined;
});

const httpPathLeaf = leaf('a daemon HTTP endpoint starting with /, e.g. /get_height', { type: 'string', pattern: '^/' }, (v) => {
  if (typeof v !== 'string') return { message: `expected an endpoint path, got ${describeValue(v)}` };
  if (!v.startsWith('/') && !isTemplateString(v)) return { message: `${JSON.stringify(v)} must start with / (e.g. /get_info)` };
  return undefined;
});

// ---- matchers ----

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
      return at(`${key} compares numbers: ${showShort(op)} is not a number or an amount`, `a number, or ${AMOUNT_FORMS}`);
    case 'length': {
      if ((typeof op === 'number' && Number.isInteger(op) && op >= 0) || typeof op === 'bigint') return [];
      if (isPlainObject(op)) {
        const ks = Object.keys(op);
        const k0 = ks[0];
        if (ks.length === 1 && k0 && ['gt', 'gte', 'lt', 'lte', 'eq'].includes(k0)) {
          const n = op[k0];
          if (typeof n === 'number' && Number.isInteger(n)) return [];
          return [{ path: [key, k0], message: `expected a whole number, got ${describeValue(n)}`, expected: 'a whole number' }];
        }
      }
      return at(`length takes a number or one comparison, got ${describeValue(op)}`, 'a whole number, or {gt|gte|lt|lte|eq: n}');
    }
    case 'matches':
      if (typeof op !== 'string') return at(`matches takes a regular expression (a string), got ${describeValue(op)}`, REGEX_EXPECTED);
      if (isTemplateString(op)) return [];
      return regexProblem(op) === undefined ? [] : at(`bad regular expression: ${regexProblem(op)}`, REGEX_EXPECTED);
    case 'absent':
    case 'present':
      if (op === true) return [];
      if (op === false) return at(`${key}: false is not supported; write ${key === 'absent' ? 'present' : 'absent'}: true`, `${key}: true`);
      return at(`${key} takes true, got ${describeValue(op)}`, `${key}: true`);
    case 'type':
      if (typeof op === 'string' && (TYPE_NAMES as readonly string[]).includes(op)) return [];
      return at(`${showShort(op)} is not a type${typeof op === 'string' ? didYouMean(suggest(op, TYPE_NAMES)) : ''}`, `one of ${TYPE_NAMES.join(', ')}`);
    case 'all':
      if (!Array.isArray(op) || op.length === 0) return at(`all takes a non-empty list of matchers, got ${describeValue(op)}`, 'a list of matchers, e.g. [{gte: 1}, {lte: 5}]');
      return op.flatMap((m, i) => matcherIssues(m, true).map((iss) => ({ ...iss, path: [key, i, ...(iss.path ?? [])] })));
    default:
      return [];
  }
}

/**
 * Problems with an expectation value. An object with one matcher key is a matcher; an object with
 * no matcher key is a literal (deep equality) unless its only key looks like a misspelt matcher;
 * matcher keys mixed with others are an error. With `strict` the value must be a matcher.
 */
export function matcherIssues(v: unknown, strict = false): LeafIssue[] {
  if (!isPlainObject(v)) return strict ? [{ message: `expected a matcher, got ${describeValue(v)}`, expected: MATCHER_EXPECTED }] : [];
  const keys = Object.keys(v);
  const mk = keys.filter((k) => (MATCHER_KEYS as readonly string[]).includes(k));
  if (mk.length === 1 && keys.length === 1) return operandIssues(mk[0]!, v[mk[0]!]);
  if (mk.length > 1 && keys.length === mk.length) {
    return [{ message: `a matcher has exactly one key, this one has ${mk.join(', ')}: combine them with all: [{${mk[0]}: …}, {${mk[1]}: …}]`, expected: MATCHER_EXPECTED }];
  }
  if (mk.length > 0) {
    const others = keys.filter((k) => !mk.includes(k));
    return [{ message: `mixes matcher keys (${mk.join(', ')}) with other keys (${listed(others)}); a matcher has exactly one key, and an object to compare with is written eq: {…}`, expected: MATCHER_EXPECTED }];
  }
  if (keys.length === 1 || strict) {
    const out: LeafIssue[] = [];
    for (const k of keys) {
      const s = matcherSuggestion(k);
      if (s) out.push({ path: [k], at: 'key', message: `unknown matcher "${k}" (did you mean "${s}"?); to compare with an object that has a "${k}" key write eq: {${k}: …}`, expected: MATCHER_EXPECTED });
      else if (strict) out.push({ path: [k], at: 'key', message: `unknown matcher "${k}"`, expected: MATCHER_EXPECTED });
    }
    if (strict && keys.length === 0) out.push({ message: 'an empty mapping is not a matcher', expected: MATCHER_EXPECTED });
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

const MATCHER_JSON = {
  description: MATCHER_EXPECTED,
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  properties: {
    eq: { description: 'deep equality (amounts compare exactly as bigints)' },
    ne: { description: 'not deeply equal' },
    contains: { description: 'a list holding an equal element, a string holding this substring, or an object holding these keys' },
    not_contains: { description: 'the opposite of contains (an omitted list contains nothing)' },
    length: { description: 'length of a list or string (an omitted list has length 0)', anyOf: [{ type: 'integer', minimum: 0 }, comparisonJson('integer')] },
    gt: { description: 'greater than (numbers or amounts such as "1.5 SAL1")', anyOf: [{ type: 'number' }, { type: 'string' }] },
    gte: { description: 'greater than or equal', anyOf: [{ type: 'number' }, { type: 'string' }] },
    lt: { description: 'less than', anyOf: [{ type: 'number' }, { type: 'string' }] },
    lte: { description: 'less than or equal', anyOf: [{ type: 'number' }, { type: 'string' }] },
    matches: { description: `a regular expression (RE2 syntax: JavaScript's without backreferences or lookaround) the value (as text) must match somewhere`, type: 'string', maxLength: MAX_PATTERN_LENGTH },
    absent: { description: 'the path is missing (an empty list counts: epee omits empty lists)', const: true },
    present: { description: 'the path exists and is not an empty list', const: true },
    type: { description: 'the JSON type of the value', enum: [...TYPE_NAMES] },
    all: { description: 'every matcher holds', type: 'array', minItems: 1, items: { $ref: '#/$defs/matcher' } },
  },
  additionalProperties: false,
};

/** A plain value: anything but an object holding a matcher key (those must be valid matchers). */
const LITERAL_JSON = { not: { type: 'object', anyOf: MATCHER_KEYS.map((k) => ({ required: [k] })) } };

const expectationValue = leaf(MATCHER_EXPECTED, { anyOf: [{ $ref: '#/$defs/matcher' }, LITERAL_JSON] }, (v) => matcherIssues(v));

const errorMessageLeaf = leaf('the exact error message, or a matcher on it (e.g. {contains: "not found"})', { anyOf: [{ type: 'string' }, { $ref: '#/$defs/matcher' }] }, (v) =>
  typeof v === 'string' ? undefined : matcherIssues(v, true),
);

// ---- the file format ----

const expectations = z
  .record(z.string(), expectationValue)
  .describe('expectations: response path (result.… or error.…) → matcher or plain value, e.g. {result.tokens: {contains: salABCD}}');

const assetAmounts = (whose: string) =>
  z
    .record(z.string(), amountLeaf(false))
    .describe(`${whose}: asset (SAL1, SAL, XMR or a token such as salABCD) → amount, e.g. {SAL1: "1100 SAL1"}`)
    .meta({ propertyNames: { pattern: ASSET_RE.source } });

const RAW_PARAMS_EXAMPLE: Record<string, string> = { get_transfers: '{in: true, pending: true}', get_tokens: '{regex: ABCD}' };
const rawParams = (method: string) =>
  z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(`${method} request parameters, sent as written (e.g. ${RAW_PARAMS_EXAMPLE[method] ?? '{asset_type: SAL1}'}); may be empty`);

const addressText = 'a destination address, usually a placeholder such as "${bob.address}"';

const destination = z
  .strictObject({
    to: z.string().describe(addressText).optional(),
    address: z.string().describe(`${addressText} (same as to)`).optional(),
    amount: amountLeaf(true),
    asset: z.string().describe('asset of the amount (default SAL1), e.g. salABCD').optional(),
  })
  .describe('a destination: {to (or address), amount, asset?}')
  .meta({ oneOf: [{ required: ['to'] }, { required: ['address'] }] });

function transferSchema(method: 'transfer' | 'transfer_split'): z.ZodType {
  return z
    .looseObject({
      to: z.string().describe(addressText).optional(),
      amount: amountLeaf(true).optional(),
      asset: z.string().describe('asset to send (default SAL1), e.g. salABCD; sets source/dest/destination asset_type').optional(),
      destinations: z.array(destination).min(1).describe('several destinations: [{to, amount, asset?}]').optional(),
    })
    .describe(`${method}: {to, amount, asset?} or {destinations: [{to, amount, asset?}]}, plus raw ${method} fields (priority, do_not_relay, …) sent as written; tx_type 3 and the assets are filled in`)
    .meta({ anyOf: [{ required: ['to', 'amount'] }, { required: ['destinations'] }] });
}

function sweepSchema(method: 'sweep_all' | 'sweep_single'): z.ZodType {
  const shape: Record<string, z.ZodType> = {
    to: z.string().describe(addressText).optional(),
    address: z.string().describe(`${addressText} (same as to)`).optional(),
    asset: z.string().describe('asset to sweep (default SAL1)').optional(),
  };
  if (method === 'sweep_all') shape.below_amount = amountLeaf(true).optional();
  if (method === 'sweep_single') shape.key_image = z.string().describe('key image (hex) of the output to sweep').optional();
  return z
    .looseObject(shape)
    .describe(`${method}: {to (or address), ${method === 'sweep_single' ? 'key_image, ' : ''}asset?}, plus raw ${method} fields sent as written`)
    .meta({ oneOf: [{ required: ['to'] }, { required: ['address'] }] });
}

const createToken = z
  .looseObject({
    ticker: z.string().describe('the ticker (4 characters A–Z 0–9; the wallet upper-cases it). Quote all-digit tickers: "1234"'),
    supply: integerLeaf('supply in whole tokens'),
    name: z.string().describe('token name').optional(),
    url: z.string().describe('metadata URL').optional(),
    hash: z.string().describe('metadata SHA-256 (64 hex characters)').optional(),
    size: integerLeaf('metadata size in bytes').optional(),
    metadata: nameLeaf('metadata name', 'rich').describe('name of an earlier metadata step: fills in url, hash and size').optional(),
    token_metadata_hex: z.string().describe('raw metadata JSON, hex-encoded (replaces name/url/hash/size)').optional(),
  })
  .describe('create_token: {ticker, supply, name?, url?, hash?, size?, metadata?: <metadata name>} or {ticker, supply, token_metadata_hex}, plus raw create_token fields');

const call = z
  .strictObject({
    method: z.string().min(1).describe('JSON-RPC method name, e.g. get_info').optional(),
    path: httpPathLeaf.optional(),
    on: z.enum(['wallet', 'daemon']).describe('which server: wallet (default) or daemon; path implies daemon').optional(),
    params: z.unknown().describe('request parameters (JSON-RPC params, or the body of a path call), sent as written').optional(),
  })
  .describe('a generic call: {method, on?: wallet|daemon, params?} or {path: /endpoint, params?} (daemon HTTP)')
  .meta({ oneOf: [{ required: ['method'] }, { required: ['path'] }] });

const walletMethodSchemas = (): Record<WalletMethod, z.ZodType> => ({
  get_balance: rawParams('get_balance'),
  getbalance: rawParams('getbalance'),
  transfer: transferSchema('transfer'),
  transfer_split: transferSchema('transfer_split'),
  sweep_all: sweepSchema('sweep_all'),
  sweep_single: sweepSchema('sweep_single'),
  get_transfers: rawParams('get_transfers'),
  create_token: createToken,
  get_tokens: rawParams('get_tokens'),
});
const methods = walletMethodSchemas();
const optionalMethods = Object.fromEntries(Object.entries(methods).map(([k, s]) => [k, s.optional()])) as unknown as Record<WalletMethod, z.ZodType>;

const mine = z
  .union([
    z.int().min(1).max(MAX_BLOCKS_PER_STEP).describe('number of blocks'),
    z
      .strictObject({
        blocks: z.int().min(1).max(MAX_BLOCKS_PER_STEP).describe('number of blocks to mine').optional(),
        to: z.int().min(0).max(MAX_HEIGHT).describe('mine until the chain has this height').optional(),
      })
      .meta({ oneOf: [{ required: ['blocks'] }, { required: ['to'] }] }),
  ])
  .describe('blocks to mine: a number (mine: 5), {blocks: 5} or {to: <height>}');

const wait = z
  .strictObject({
    call: call.optional(),
    ...optionalMethods,
    wallet: nameLeaf('wallet name', 'bob').describe('the wallet that runs the call (default: the step\'s wallet, main)').optional(),
    until: expectations.describe('expectations that end the wait when they all hold'),
    seconds: z.number().positive().max(MAX_WAIT_SECONDS).describe('give up after this many seconds').optional(),
    blocks: z.int().min(1).max(MAX_BLOCKS_PER_STEP).describe('give up after this many blocks (mined by the wait when mine is true)').optional(),
    mine: z.boolean().describe('mine one block between tries (default false)').optional(),
  })
  .describe('repeat a call until expectations hold: {call: {…} | <wallet method>: {…}, until: {…}, seconds?, blocks?, mine?} (seconds and/or blocks)')
  .meta({ anyOf: [{ required: ['seconds'] }, { required: ['blocks'] }] });

const metadata = z
  .strictObject({
    name: nameLeaf('metadata name', 'rich'),
    fields: z.record(z.string(), z.unknown()).describe('the JSON fields of the blob').optional(),
    file: z.string().min(1).describe('a JSON file with the blob (at most 1 MiB, in the scenario\'s folder or the working directory; relative to the scenario\'s folder, else to the working directory), e.g. ../fixtures/metadata/gold.json').optional(),
  })
  .describe('build a metadata blob and serve it: {name, fields: {…}} or {name, file}; its url, sha256 and size become ${metadata.<name>.url|sha256|size}')
  .meta({ oneOf: [{ required: ['fields'] }, { required: ['file'] }] });

const expectError = z
  .strictObject({
    code: z.int().describe('the JSON-RPC error code, e.g. -7').optional(),
    message: errorMessageLeaf.optional(),
  })
  .nullable()
  .describe('the step must answer an error: {code?, message?} ({} for any error)');

const save = z
  .record(z.string(), responsePathLeaf)
  .describe('values to save for later ${…}: name → response path, e.g. {tx: result.tx_hash}')
  .meta({ propertyNames: { pattern: NAME_RE.source, not: { enum: [...SCOPE_ROOTS, 'main'] } } });

const stepShape = {
  name: z.string().describe('a title for reports').optional(),
  wallet: nameLeaf('wallet name', 'bob').describe('the wallet that runs this step: main (default) or a declared wallet').optional(),
  expect: expectations.describe('expectations on what the step answered (any step kind: a wait its last answer, mine {result: {height}}, snapshot/revert {result: {height}})').optional(),
  expect_error: expectError.describe('the error answer the call must give (call and wallet methods only)').optional(),
  save: save.optional(),
  call: call.optional(),
  ...optionalMethods,
  mine: mine.optional(),
  wait: wait.optional(),
  metadata: metadata.optional(),
  restart: z.enum(['daemon', 'wallet']).describe('restart a process: daemon or wallet (the step\'s wallet RPC)').optional(),
  snapshot: nameLeaf('snapshot name', 'before_transfer').describe('checkpoint the whole testnet under this name').optional(),
  revert: nameLeaf('snapshot name', 'before_transfer').describe('roll the testnet back to an earlier snapshot').optional(),
};

export const stepSchema = z
  .strictObject(stepShape)
  .describe(`a step: exactly one action (${ACTION_KEYS.join(', ')}) plus optional ${STEP_COMMON_KEYS.join(', ')}`)
  .meta({ oneOf: ACTION_KEYS.map((k) => ({ required: [k] })) });

export const scenarioSchema = z
  .strictObject({
    name: z.string().min(1).describe('the scenario\'s title'),
    description: z.string().describe('what the scenario checks and why').optional(),
    tags: z.array(z.string()).describe('tags for selecting scenarios, e.g. [tokens]').optional(),
    backends: z.array(z.enum(BACKENDS)).min(1).describe('backends the scenario is written for (salvium, sim, monero); default: any').optional(),
    requires: z
      .strictObject({
        height: z.int().min(0).max(MAX_HEIGHT).describe('minimum chain height before the steps').optional(),
        unlocked: assetAmounts('unlocked amounts the main wallet must hold before the steps').optional(),
      })
      .describe('what must hold before the steps: {height?, unlocked?: {SAL1: "1100 SAL1"}}')
      .optional(),
    wallets: z
      .record(
        z.string(),
        z
          .strictObject({ unlocked: assetAmounts('unlocked amounts funded from main before the steps').optional() })
          .nullable()
          .describe('a wallet declaration: {} or {unlocked: {SAL1: "10 SAL1"}}'),
      )
      .describe('extra wallets besides main: name → {} or {unlocked: {SAL1: "10 SAL1"}}')
      .meta({ propertyNames: { pattern: NAME_RE.source, not: { enum: [...RESERVED_WALLET_NAMES] } } })
      .optional(),
    steps: z.array(stepSchema).min(1).describe('the steps, run in order (at least one)'),
  })
  .describe('a saltnet scenario: name, steps and optional description, tags, backends, requires, wallets');

// ---- zod issues → problems ----

type AnySchema = z.core.$ZodType;
type Def = { type: string; [k: string]: unknown };
const defOf = (s: AnySchema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schema and its wrappers (optional, nullable, pipe input…), outermost first. */
function layers(s: AnySchema): AnySchema[] {
  const out: AnySchema[] = [s];
  for (;;) {
    const d = defOf(out[out.length - 1]!);
    const inner = (d.innerType ?? (d.type === 'pipe' ? d.in : undefined)) as AnySchema | undefined;
    if (!inner) return out;
    out.push(inner);
  }
}

function childSchema(s: AnySchema, seg: PathSegment): AnySchema | undefined {
  const core = layers(s).at(-1)!;
  const d = defOf(core);
  if (d.type === 'object') return (d.shape as Record<string, AnySchema>)[String(seg)];
  if (d.type === 'array') return typeof seg === 'number' ? (d.element as AnySchema) : undefined;
  if (d.type === 'record') return d.valueType as AnySchema;
  if (d.type === 'union') {
    for (const o of d.options as AnySchema[]) {
      const c = childSchema(o, seg);
      if (c) return c;
    }
  }
  return undefined;
}

export function schemaAt(path: readonly PathSegment[], root: AnySchema = scenarioSchema): AnySchema | undefined {
  let s: AnySchema | undefined = root;
  for (const seg of path) {
    if (!s) return undefined;
    s = childSchema(s, seg);
  }
  return s;
}

function describeSchema(s: AnySchema): string {
  for (const l of layers(s)) {
    const desc = (l as unknown as { description?: string }).description;
    if (desc) return desc;
  }
  const core = layers(s).at(-1)!;
  const d = defOf(core);
  switch (d.type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of: ${Object.values(d.entries as Record<string, string>).join(', ')}`;
    case 'object':
      return `a mapping with keys: ${Object.keys(d.shape as object).join(', ')}`;
    case 'array':
      return 'a list';
    case 'record':
      return 'a mapping';
    default:
      return 'a value of another shape';
  }
}

function expectedAt(path: readonly PathSegment[]): string | undefined {
  const s = schemaAt(path);
  return s ? describeSchema(s) : undefined;
}

function keysAt(path: readonly PathSegment[]): string[] {
  const s = schemaAt(path);
  if (!s) return [];
  const d = defOf(layers(s).at(-1)!);
  return d.type === 'object' ? Object.keys(d.shape as object) : [];
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'nothing',
  record: 'a mapping',
};

function isStepPath(path: readonly PathSegment[]): boolean {
  return path.length === 2 && path[0] === 'steps' && typeof path[1] === 'number';
}

function keyLabel(path: readonly PathSegment[]): string {
  const last = path.at(-1);
  return typeof last === 'number' ? `item [${last}]` : `"${String(last)}"`;
}

function unknownKeyProblem(objPath: PathSegment[], key: string): SchemaProblem {
  const allowed = keysAt(objPath);
  const s = suggest(key, allowed);
  let message = `unknown key "${key}"${didYouMean(s)}`;
  let expected = allowed.length ? `one of: ${allowed.join(', ')}` : undefined;
  if (isStepPath(objPath)) {
    expected = `one action (${ACTION_KEYS.join(', ')}) and optionally ${STEP_COMMON_KEYS.join(', ')}`;
    if (!s && /^[a-z_]+$/.test(key)) message += `; to call another RPC method write call: {method: ${key}}`;
  } else if (objPath.length === 0) {
    expected = `the keys ${allowed.join(', ')}`;
  }
  return { path: [...objPath, key], at: 'key', message, ...(expected ? { expected } : {}) };
}

function problemsFromIssue(iss: z.core.$ZodIssue, base: readonly PathSegment[]): SchemaProblem[] {
  const path = [...base, ...(iss.path as PathSegment[])];
  const input = (iss as { input?: unknown }).input;
  const expected = expectedAt(path);
  const withExpected = (p: Omit<SchemaProblem, 'expected'>, exp = expected): SchemaProblem => (exp ? { ...p, expected: exp } : p);
  if ((iss.code === 'invalid_type' || iss.code === 'invalid_union') && isTemplateString(input)) {
    return [withExpected({ path, at: 'value', message: `a "\${…}" placeholder cannot be used here: the value must be written out (it is needed before the steps run)` })];
  }
  switch (iss.code) {
    case 'custom': {
      const params = (iss.params ?? {}) as { missing?: boolean; expected?: string; at?: 'key' | 'value' };
      if (params.missing) return [withExpected({ path, at: 'parent', message: `missing ${keyLabel(path)}` }, params.expected ?? expected)];
      return [withExpected({ path, at: params.at ?? 'value', message: iss.message }, params.expected ?? expected)];
    }
    case 'invalid_type': {
      if (input === undefined) return [withExpected({ path, at: 'parent', message: `missing ${keyLabel(path)}` })];
      const want = TYPE_WORDS[iss.expected] ?? `a ${iss.expected}`;
      const why = typeof input === 'bigint' ? limitReason(path) : undefined; // a whole number too large for a number: no maximum check ran
      if (why) return [withExpected({ path, at: 'value', message: `${String(input)} is far too large (${why})` })];
      const hint = iss.expected === 'string' && (typeof input === 'number' || typeof input === 'bigint' || typeof input === 'boolean') ? ` (quote it: "${String(input)}")` : '';
      return [withExpected({ path, at: 'value', message: `expected ${want}, got ${describeValue(input)}${hint}` })];
    }
    case 'unrecognized_keys':
      return iss.keys.slice(0, MAX_PROBLEMS_COLLECTED).map((k) => unknownKeyProblem(path, k));
    case 'too_small': {
      const min = String(iss.minimum);
      if (iss.origin === 'array') return [withExpected({ path, at: 'value', message: min === '1' ? 'the list is empty (at least one item is needed)' : `the list needs at least ${min} items` })];
      if (iss.origin === 'string') return [withExpected({ path, at: 'value', message: 'must not be empty' })];
      return [withExpected({ path, at: 'value', message: `must be ${iss.inclusive ? 'at least' : 'more than'} ${min}, got ${showShort(input)}` })];
    }
    case 'too_big': {
      const max = String(iss.maximum);
      if (iss.origin === 'array') return [withExpected({ path, at: 'value', message: `has more than ${max} items` })];
      if (iss.origin === 'string') return [withExpected({ path, at: 'value', message: `is longer than ${max} characters` })];
      const why = limitReason(path);
      return [withExpected({ path, at: 'value', message: `must be ${iss.inclusive ? 'at most' : 'less than'} ${max}, got ${showShort(input)}${why ? ` (${why})` : ''}` })];
    }
    case 'invalid_value': {
      const values = iss.values.map((v) => String(v));
      const s = typeof input === 'string' ? suggest(input, values) : undefined;
      return [withExpected({ path, at: 'value', message: `${showShort(input)} is not one of: ${values.join(', ')}${didYouMean(s)}` }, `one of: ${values.join(', ')}`)];
    }
    case 'invalid_union': {
      // Keep the branches whose own type matched (no type error at the union itself).
      const fitting = iss.errors.filter((errs) => errs.length > 0 && !errs.some((e) => e.path.length === 0 && (e.code === 'invalid_type' || e.code === 'invalid_union')));
      if (fitting.length === 1) return fitting[0]!.flatMap((e) => problemsFromIssue(e, path));
      return [withExpected({ path, at: 'value', message: `${describeValue(input)} does not fit here` })];
    }
    default:
      return [withExpected({ path, at: 'value', message: iss.message })];
  }
}

// ---- rules beyond the structure ----

interface Ctx {
  out: SchemaProblem[];
  wallets: Set<string>;
  /** save name → index of the step that saves it */
  savedBy: Map<string, number>;
}

/** Thrown by problem() once MAX_PROBLEMS_COLLECTED are in: the rules stop looking. */
const ENOUGH = Symbol('enough problems');

function problem(ctx: Ctx, path: PathSegment[], at: SchemaProblem['at'], message: string, expected?: string): void {
  ctx.out.push(expected ? { path, at, message, expected } : { path, at, message });
  if (ctx.out.length >= MAX_PROBLEMS_COLLECTED) throw ENOUGH;
}

function checkAssetKeys(ctx: Ctx, m: unknown, path: PathSegment[]): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) {
    if (ASSET_RE.test(k)) continue;
    const fix = ['SAL1', 'SAL', 'XMR'].find((a) => a.toLowerCase() === k.toLowerCase()) ?? (/^sal[0-9a-z]{4}$/i.test(k) ? `sal${k.slice(3).toUpperCase()}` : undefined);
    problem(ctx, [...path, k], 'key', `"${k}" is not an asset${didYouMean(fix)}`, 'SAL1, SAL, XMR or a token such as salABCD (lower-case sal + 4 upper-case letters or digits)');
  }
}

function checkWalletRef(ctx: Ctx, v: unknown, path: PathSegment[]): void {
  if (typeof v !== 'string' || !NAME_RE.test(v) || ctx.wallets.has(v)) return;
  const names = [...ctx.wallets];
  problem(ctx, path, 'value', `unknown wallet "${v}"${didYouMean(suggest(v, names))}`, `main or a wallet declared under wallets: (${names.join(', ')})`);
}

function checkAddressValue(ctx: Ctx, v: unknown, path: PathSegment[]): void {
  if (typeof v === 'string' && ctx.wallets.has(v)) {
    problem(ctx, path, 'value', `"${v}" is a wallet name, not an address; write "\${${v}.address}"`, addressText);
  }
}

function checkRawKeys(ctx: Ctx, params: Record<string, unknown>, method: WalletMethod, path: PathSegment[]): void {
  const known = KNOWN_PARAMS[method];
  for (const k of Object.keys(params)) {
    if (known.includes(k)) continue;
    const s = suggest(k, known);
    if (s) {
      problem(ctx, [...path, k], 'key', `unknown key "${k}" (did you mean "${s}"?); other keys are sent to ${method} as written, but this one looks like a typo — use call: {method: ${method}, params: …} to send it anyway`, `one of: ${known.join(', ')}, or a raw ${method} field`);
    }
  }
}

function checkTransfer(ctx: Ctx, v: unknown, method: 'transfer' | 'transfer_split', path: PathSegment[]): void {
  if (!isPlainObject(v)) return;
  if (has(v, 'address')) problem(ctx, [...path, 'address'], 'key', `${method} takes "to" for the destination address (or destinations: [{address, amount}])`, 'to: <address>');
  if (has(v, 'destinations')) {
    for (const k of ['to', 'amount', 'asset']) {
      if (has(v, k)) problem(ctx, [...path, k], 'key', `"${k}" cannot be combined with destinations; give each destination its own ${k}`, '{destinations: [{to, amount, asset?}]}');
    }
    if (Array.isArray(v.destinations)) {
      v.destinations.forEach((d, i) => {
        if (!isPlainObject(d)) return;
        const dp = [...path, 'destinations', i];
        if (has(d, 'to') && has(d, 'address')) problem(ctx, [...dp, 'address'], 'key', 'give either to or address, not both', '{to, amount, asset?}');
        else if (!has(d, 'to') && !has(d, 'address')) problem(ctx, [...dp, 'to'], 'parent', 'missing "to" (the destination address)', addressText);
        checkAddressValue(ctx, d.to, [...dp, 'to']);
        checkAddressValue(ctx, d.address, [...dp, 'address']);
      });
    }
  } else {
    if (!has(v, 'to') && !has(v, 'address')) problem(ctx, [...path, 'to'], 'parent', `missing "to" (the destination address)`, `{to, amount, asset?} or {destinations: [{to, amount, asset?}]}`);
    if (!has(v, 'amount')) problem(ctx, [...path, 'amount'], 'parent', 'missing "amount"', `${AMOUNT_FORMS}`);
  }
  checkAddressValue(ctx, v.to, [...path, 'to']);
  checkRawKeys(ctx, v, method, path);
}

function checkSweep(ctx: Ctx, v: unknown, method: 'sweep_all' | 'sweep_single', path: PathSegment[]): void {
  if (!isPlainObject(v)) return;
  if (has(v, 'to') && has(v, 'address')) problem(ctx, [...path, 'address'], 'key', 'give either to or address, not both', addressText);
  else if (!has(v, 'to') && !has(v, 'address')) problem(ctx, [...path, 'to'], 'parent', 'missing "to" (the destination address)', addressText);
  checkAddressValue(ctx, v.to, [...path, 'to']);
  checkAddressValue(ctx, v.address, [...path, 'address']);
  checkRawKeys(ctx, v, method, path);
}

function checkCreateToken(ctx: Ctx, v: unknown, path: PathSegment[], metadataNames: Set<string>, metadataLater: Map<string, number>): void {
  if (!isPlainObject(v)) return;
  if (has(v, 'metadata')) {
    for (const k of ['token_metadata_hex', 'url', 'hash', 'size']) {
      if (has(v, k)) problem(ctx, [...path, k], 'key', `"${k}" cannot be combined with metadata (the metadata step provides url, hash and size)`, '{ticker, supply, name?, metadata: <name>}');
    }
    const m = v.metadata;
    if (typeof m === 'string' && NAME_RE.test(m) && !metadataNames.has(m)) {
      const later = metadataLater.get(m);
      problem(
        ctx,
        [...path, 'metadata'],
        'value',
        later !== undefined ? `metadata "${m}" is built by step ${later + 1}, which runs after this one` : `no earlier metadata step is named "${m}"${didYouMean(suggest(m, [...metadataNames]))}`,
        'the name of an earlier metadata step',
      );
    }
  }
  checkRawKeys(ctx, v, 'create_token', path);
}

function checkCall(ctx: Ctx, v: unknown, path: PathSegment[]): void {
  if (!isPlainObject(v)) return;
  if (has(v, 'method') && has(v, 'path')) problem(ctx, [...path, 'path'], 'key', 'give either method (JSON-RPC) or path (daemon HTTP endpoint), not both', '{method, on?, params?} or {path, params?}');
  else if (!has(v, 'method') && !has(v, 'path')) problem(ctx, [...path, 'method'], 'parent', 'missing "method" (or "path" for a daemon HTTP endpoint)', '{method, on?, params?} or {path, params?}');
  if (has(v, 'path') && v.on === 'wallet') problem(ctx, [...path, 'on'], 'value', 'path calls go to the daemon (the wallet RPC has only /json_rpc); drop on or write on: daemon', 'daemon');
}

function checkWait(ctx: Ctx, v: unknown, path: PathSegment[], stepWallet: unknown, ruleArgs: RuleArgs): void {
  if (!isPlainObject(v)) return;
  const forms = Object.keys(v).filter((k) => k === 'call' || (WALLET_METHODS as readonly string[]).includes(k));
  if (forms.length === 0) problem(ctx, [...path, 'call'], 'parent', 'missing what to repeat: call: {…} or a wallet method such as get_balance: {…}', `call or one of ${WALLET_METHODS.join(', ')}`);
  for (const extra of forms.slice(1)) problem(ctx, [...path, extra], 'key', `wait repeats one call; it already has ${forms[0]}`, 'one of call or a wallet method');
  for (const f of forms) checkAction(ctx, f as ActionKey, v[f], [...path, f], ruleArgs);
  if (!has(v, 'seconds') && !has(v, 'blocks')) problem(ctx, [...path, 'seconds'], 'parent', 'a wait needs a bound: seconds, blocks or both', '{…, seconds: 30} and/or {…, blocks: 12}');
  if (isPlainObject(v.until) && Object.keys(v.until).length === 0) problem(ctx, [...path, 'until'], 'value', 'until is empty: nothing to wait for', 'at least one expectation');
  if (has(v, 'wallet')) {
    checkWalletRef(ctx, v.wallet, [...path, 'wallet']);
    if (stepWallet !== undefined && stepWallet !== v.wallet) problem(ctx, [...path, 'wallet'], 'value', `the step says wallet: ${String(stepWallet)} and the wait says wallet: ${String(v.wallet)}; keep one`, 'one wallet');
  }
  checkExpectationKeys(ctx, v.until, [...path, 'until']);
}

function checkExpectationKeys(ctx: Ctx, m: unknown, path: PathSegment[]): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) {
    if (isTemplateString(k)) continue;
    const p = responsePathProblem(k);
    if (p) problem(ctx, [...path, k], 'key', p, RESPONSE_PATH_EXPECTED);
  }
}

interface RuleArgs {
  metadataNames: Set<string>;
  metadataLater: Map<string, number>;
}

function checkAction(ctx: Ctx, key: ActionKey, v: unknown, path: PathSegment[], args: RuleArgs): void {
  switch (key) {
    case 'call':
      return checkCall(ctx, v, path);
    case 'transfer':
    case 'transfer_split':
      return checkTransfer(ctx, v, key, path);
    case 'sweep_all':
    case 'sweep_single':
      return checkSweep(ctx, v, key, path);
    case 'create_token':
      return checkCreateToken(ctx, v, path, args.metadataNames, args.metadataLater);
    case 'get_balance':
    case 'getbalance':
    case 'get_transfers':
    case 'get_tokens':
      if (isPlainObject(v)) checkRawKeys(ctx, v, key, path);
      return;
    case 'mine':
      if (isPlainObject(v)) {
        if (has(v, 'blocks') && has(v, 'to')) problem(ctx, [...path, 'to'], 'key', 'give either blocks or to, not both', '{blocks: N} or {to: <height>}');
        else if (!has(v, 'blocks') && !has(v, 'to')) problem(ctx, path, 'value', 'mine needs a number of blocks or a height', '{blocks: N} or {to: <height>}');
      }
      return;
    case 'metadata':
      if (isPlainObject(v)) {
        if (has(v, 'fields') && has(v, 'file')) problem(ctx, [...path, 'file'], 'key', 'give either fields or file, not both', '{name, fields: {…}} or {name, file}');
        else if (!has(v, 'fields') && !has(v, 'file')) problem(ctx, [...path, 'fields'], 'parent', 'missing "fields" (or "file")', '{name, fields: {…}} or {name, file}');
      }
      return;
    default:
      return;
  }
}

/** Every string in a value, with its path (keys too, marked). */
function* strings(v: unknown, path: PathSegment[]): Generator<{ s: string; path: PathSegment[]; at: 'key' | 'value' }> {
  if (typeof v === 'string') yield { s: v, path, at: 'value' };
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* strings(v[i], [...path, i]);
  else if (isPlainObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (k.includes('${')) yield { s: k, path: [...path, k], at: 'key' };
      yield* strings(x, [...path, k]);
    }
  }
}

const PLACEHOLDER_EXPECTED = 'a saved name, ${<wallet>.address|cn|carrot}, ${wallets.<wallet>.address}, ${metadata.<name>.url|sha256|size}, ${height}, ${env.NAME} or ${env.public.NAME}';

function checkPlaceholder(ctx: Ctx, expr: string, where: { path: PathSegment[]; at: 'key' | 'value' }, stepIndex: number, saved: Set<string>, metadataNames: Set<string>, metadataLater: Map<string, number>): void {
  const ph = `\${${expr}}`;
  const bad = (msg: string) => problem(ctx, where.path, where.at, msg, PLACEHOLDER_EXPECTED);
  let segs: PathSegment[];
  try {
    segs = parsePath(expr);
  } catch (e) {
    return bad(`bad placeholder ${ph}: ${(e as Error).message}`);
  }
  const [root, second, third] = segs;
  if (typeof root !== 'string') return bad(`bad placeholder ${ph}: it must start with a name`);
  const field = (fields: readonly string[], what: string, seg: PathSegment | undefined, n: number) => {
    if (seg === undefined) return bad(`${ph} needs a field: ${fields.map((f) => `.${f}`).join(', ')}`);
    if (typeof seg !== 'string' || !fields.includes(seg)) return bad(`${what} has no ${JSON.stringify(seg)} in ${ph}${didYouMean(typeof seg === 'string' ? suggest(seg, fields) : undefined)}; it has ${fields.join(', ')}`);
    if (segs.length > n) return bad(`${ph}: ${what}.${seg} is a plain value; nothing follows it`);
  };
  if (saved.has(root)) return;
  if (root === 'env') {
    const named = segs.length === 3 && second === 'public' ? third : segs.length === 2 ? second : undefined;
    if (typeof named !== 'string') return bad(`write \${env.NAME} (or \${env.public.NAME}: not redacted from the artifacts) for the environment variable NAME, not ${ph}`);
    return;
  }
  if (root === 'height') {
    if (segs.length > 1) return bad(`${ph}: height is a number; write \${height}`);
    return;
  }
  if (root === 'wallets') {
    if (typeof second !== 'string' || !ctx.wallets.has(second)) return bad(`unknown wallet ${JSON.stringify(second)} in ${ph}${didYouMean(typeof second === 'string' ? suggest(second, [...ctx.wallets]) : undefined)}; wallets: ${[...ctx.wallets].join(', ')}`);
    return field(WALLET_FIELDS, `wallet ${second}`, third, 3);
  }
  if (root === 'metadata') {
    if (typeof second !== 'string' || !metadataNames.has(second)) {
      const later = typeof second === 'string' ? metadataLater.get(second) : undefined;
      if (later !== undefined) return bad(`${ph}: metadata "${second}" is built by step ${later + 1}, which runs after this one`);
      return bad(`no earlier metadata step is named ${JSON.stringify(second)} in ${ph}${didYouMean(typeof second === 'string' ? suggest(second, [...metadataNames]) : undefined)}`);
    }
    return field(METADATA_FIELDS, `metadata ${second}`, third, 3);
  }
  if (ctx.wallets.has(root)) return field(WALLET_FIELDS, `wallet ${root}`, second, 2);
  const later = ctx.savedBy.get(root);
  if (later !== undefined && later >= stepIndex) return bad(`${ph}: "${root}" is saved by step ${later + 1}, which runs ${later === stepIndex ? 'at the end of this step' : 'after this one'}`);
  const known = [...saved, ...ctx.wallets, ...SCOPE_ROOTS];
  bad(`unknown name "${root}" in ${ph}${didYouMean(suggest(root, known))}; defined here: ${saved.size ? `saved ${listed(saved)}; ` : ''}wallets ${[...ctx.wallets].join(', ')}; metadata.<name>; height; env.NAME`);
}

/** Rules zod does not check: run on the raw document, whatever its structural problems (the first MAX_PROBLEMS_COLLECTED problems). */
export function checkRules(doc: unknown): SchemaProblem[] {
  const ctx: Ctx = { out: [], wallets: new Set(['main']), savedBy: new Map() };
  try {
    if (isPlainObject(doc)) collectRuleProblems(ctx, doc);
  } catch (e) {
    if (e !== ENOUGH) throw e;
  }
  return ctx.out;
}

function collectRuleProblems(ctx: Ctx, doc: Record<string, unknown>): void {
  if (isPlainObject(doc.wallets)) {
    for (const [name, decl] of Object.entries(doc.wallets)) {
      if (name === 'main') problem(ctx, ['wallets', name], 'key', '"main" is the built-in wallet (it runs steps by default); give extra wallets other names', 'a wallet name other than main');
      else if (RESERVED_WALLET_NAMES.includes(name)) problem(ctx, ['wallets', name], 'key', `"${name}" is reserved for \${${name}…} placeholders; pick another wallet name`, `a name other than ${RESERVED_WALLET_NAMES.join(', ')}`);
      else if (!NAME_RE.test(name)) problem(ctx, ['wallets', name], 'key', `"${name}" is not a valid wallet name`, 'letters, digits and _, not starting with a digit');
      else ctx.wallets.add(name);
      if (isPlainObject(decl)) checkAssetKeys(ctx, decl.unlocked, ['wallets', name, 'unlocked']);
    }
  }
  if (isPlainObject(doc.requires)) checkAssetKeys(ctx, doc.requires.unlocked, ['requires', 'unlocked']);
  const steps = Array.isArray(doc.steps) ? doc.steps : [];
  // Who saves what and who builds which metadata, for "defined later" messages.
  const metadataLater = new Map<string, number>();
  steps.forEach((st, i) => {
    if (!isPlainObject(st)) return;
    if (isPlainObject(st.save)) for (const k of Object.keys(st.save)) if (!ctx.savedBy.has(k)) ctx.savedBy.set(k, i);
    if (isPlainObject(st.metadata) && typeof st.metadata.name === 'string' && !metadataLater.has(st.metadata.name)) metadataLater.set(st.metadata.name, i);
  });
  const saved = new Set<string>();
  const metadataNames = new Set<string>();
  const snapshots = new Set<string>();
  steps.forEach((st, i) => {
    if (!isPlainObject(st)) return;
    const path: PathSegment[] = ['steps', i];
    const keys = Object.keys(st);
    const actions = keys.filter((k): k is ActionKey => (ACTION_KEYS as readonly string[]).includes(k));
    const allowed = [...ACTION_KEYS, ...STEP_COMMON_KEYS] as readonly string[];
    const unknown = keys.filter((k) => !allowed.includes(k));
    if (actions.length === 0 && !unknown.some((k) => suggest(k, ACTION_KEYS))) {
      problem(ctx, path, 'value', 'the step has no action', `exactly one of: ${ACTION_KEYS.join(', ')}`);
    }
    for (const extra of actions.slice(1)) {
      problem(ctx, [...path, extra], 'key', `a step has exactly one action; this one already has ${actions[0]} (split it into two steps)`, `exactly one of: ${ACTION_KEYS.join(', ')}`);
    }
    const args: RuleArgs = { metadataNames, metadataLater: new Map([...metadataLater].filter(([, j]) => j >= i)) };
    for (const a of actions) {
      if (a === 'wait') checkWait(ctx, st.wait, [...path, 'wait'], st.wallet, args);
      else checkAction(ctx, a, st[a], [...path, a], args);
    }
    if (has(st, 'wallet')) checkWalletRef(ctx, st.wallet, [...path, 'wallet']);
    const kind = actions[0];
    if (has(st, 'expect_error') && kind && NO_ERROR_ACTIONS.includes(kind)) {
      problem(ctx, [...path, 'expect_error'], 'key', `a ${kind} step answers no RPC error to expect${kind === 'wait' ? ' (a wait ends when its until holds; an error answer keeps it waiting)' : ''}`, 'expect_error only on call or a wallet method');
    }
    checkExpectationKeys(ctx, st.expect, [...path, 'expect']);
    if (typeof st.revert === 'string' && NAME_RE.test(st.revert) && !snapshots.has(st.revert)) {
      problem(ctx, [...path, 'revert'], 'value', `no earlier snapshot is named "${st.revert}"${didYouMean(suggest(st.revert, [...snapshots]))}`, 'the name of an earlier snapshot step');
    }
    // Placeholders: everything but the save paths.
    for (const k of keys) {
      if (k === 'save') continue;
      for (const str of strings(st[k], [...path, k])) {
        let parts;
        try {
          parts = scanTemplate(str.s);
        } catch (e) {
          problem(ctx, str.path, str.at, (e as Error).message, PLACEHOLDER_EXPECTED);
          continue;
        }
        for (const p of parts) if ('expr' in p) checkPlaceholder(ctx, p.expr, str, i, saved, metadataNames, args.metadataLater);
      }
    }
    if (isPlainObject(st.save)) {
      for (const name of Object.keys(st.save)) {
        const sp = [...path, 'save', name];
        if (!NAME_RE.test(name)) problem(ctx, sp, 'key', `"${name}" is not a valid name to save under`, 'letters, digits and _, not starting with a digit');
        else if ((SCOPE_ROOTS as readonly string[]).includes(name) || name === 'main') problem(ctx, sp, 'key', `"${name}" is reserved for placeholders; save under another name`, `a name other than ${[...SCOPE_ROOTS, 'main'].join(', ')}`);
        else if (ctx.wallets.has(name)) problem(ctx, sp, 'key', `"${name}" is a wallet name; save under another name`, 'a name that is not a wallet');
        saved.add(name);
      }
    }
    if (isPlainObject(st.metadata) && typeof st.metadata.name === 'string') {
      if (metadataNames.has(st.metadata.name)) problem(ctx, [...path, 'metadata', 'name'], 'value', `metadata "${st.metadata.name}" is already built by an earlier step`, 'a new metadata name');
      metadataNames.add(st.metadata.name);
    }
    if (typeof st.snapshot === 'string') snapshots.add(st.snapshot);
  });
}

// ---- entry points ----

/** The validated document: amounts as bigints (placeholders kept), everything else as written. */
export type ValidatedDocument = Record<string, unknown>;

/**
 * Validate a parsed document (YAML or JSON data): every problem, each located by path — up to
 * MAX_PROBLEMS_COLLECTED of them (then `truncated`), and only the size problems of a document with
 * too many steps or wallets.
 */
export function validateDocument(doc: unknown): { value?: ValidatedDocument; problems: SchemaProblem[]; truncated?: boolean } {
  if (!isPlainObject(doc)) {
    return {
      problems: [{ path: [], at: 'value', message: `a scenario file is a mapping (name: …, steps: …), this is ${describeValue(doc)}`, expected: describeSchema(scenarioSchema) }],
    };
  }
  const tooBig = sizeProblems(doc);
  if (tooBig.length) return { problems: tooBig };
  const r = scenarioSchema.safeParse(doc, { reportInput: true });
  const problems: SchemaProblem[] = [];
  for (const iss of r.success ? [] : r.error.issues) if (problems.length < MAX_PROBLEMS_COLLECTED) problems.push(...problemsFromIssue(iss, []));
  problems.push(...checkRules(doc), ...limitProblems(doc));
  // One report per place and message.
  const seen = new Set<string>();
  const unique = problems.filter((p) => {
    const k = `${formatPath(p.path)}\u0000${p.at}\u0000${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  if (unique.length >= MAX_PROBLEMS_COLLECTED) return { problems: unique.slice(0, MAX_PROBLEMS_COLLECTED), truncated: true };
  return unique.length ? { problems: unique } : { value: r.data as ValidatedDocument, problems: [] };
}

// ---- JSON Schema ----

/** JSON Schema (draft 2020-12) of the file format, with descriptions, for editors. */
export function scenarioJsonSchema(): Record<string, unknown> {
  const js = z.toJSONSchema(scenarioSchema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', reused: 'inline' }) as Record<string, unknown>;
  const defs = (js.$defs ?? {}) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://saltnet.dev/schema/scenario.json',
    title: 'saltnet scenario',
    ...js,
    $defs: { ...defs, matcher: MATCHER_JSON },
  };
}

/** Write the JSON Schema to `path` (for editor settings such as yaml.schemas), creating folders. */
export function writeJsonSchema(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
}
