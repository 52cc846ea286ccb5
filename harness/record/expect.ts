import { formatPath, type PathSegment } from '../common/path.js';
import { isPlainObject } from '../common/plain-object.js';
import { escapeRegExp } from '../common/redact.js';
import { isTxObject } from '../diff/inputs.js';
import { classify, nearestKey, type Format } from '../diff/rules.js';
import { escapeText, SECRET_KEY } from './links.js';

/** Where the chain is: the same session replayed on a longer chain answers other numbers here. */
const CHAIN_POSITION =
  /^(height|heights|[a-z0-9_]*_height|confirmations|blocks_to_unlock|time_to_unlock|tx_count|tx_pool_size|[a-z0-9_]*_count|count|[a-z0-9_]*difficulty[a-z0-9_]*|already_generated_coins|reward|block_reward|[a-z0-9_]*_size|start_time|adjusted_time|target)$/;

/** Wallet methods whose answer is the wallet's history: unknown for a wallet the session did not create. */
const HISTORY = new Set([
  'get_balance',
  'getbalance',
  'get_transfers',
  'incoming_transfers',
  'get_payments',
  'get_bulk_payments',
  'get_transfer_by_txid',
  'get_address',
  'getaddress',
]);

/**
 * Lists of the whole chain (every token): a replay on a shared chain holds others too, so each recorded element is
 * looked for.
 */
const CHAIN_LISTS = /^(tokens)$/;

export interface ExpectContext {
  on: 'daemon' | 'wallet';
  method?: string;
  /** The wallet's history is the replay's too (a wallet the session created). */
  knownHistory: boolean;
  /** The placeholder for a value (an address, a value an earlier answer produced), if it has one. */
  link(value: string): string | undefined;
  /** Folders of the recording machine (longest first): where an answer names one, a replay elsewhere names another. */
  localPaths?: readonly string[];
}

/**
 * A pattern for a text that names a folder of the recording machine or holds a hash: each such folder matched by
 * `.+` (a replay's workdir, temporary or home folder is another), each hash by its form; undefined when it has neither.
 */
export function portablePattern(text: string, localPaths: readonly string[] = []): string | undefined {
  const paths = localPaths.filter((p) => text.includes(p));
  const hashes = /[0-9a-f]{64}/.test(text);
  if (!paths.length && !hashes) return undefined;
  // Split at the folders (longest first), escape the pieces, and join them with `.+`.
  let pieces = [text];
  for (const p of paths) pieces = pieces.flatMap((x) => x.split(p));
  const escaped = pieces.map((x) => escapeRegExp(x).replace(/[0-9a-f]{64}/g, '[0-9a-f]{64}'));
  return `^${escaped.join('.+')}$`;
}

type Expectation = unknown;

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'bigint' ? 'number' : typeof v;

function byFormat(format: Format, v: unknown): Expectation {
  if (typeof v === 'string') {
    if (v === '') return '';
    if (/^[0-9a-f]+$/.test(v) && v.length <= 128) return { matches: `^[0-9a-f]{${v.length}}$` };
    return { type: 'string' };
  }
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (typeof n === 'number') {
    if (format === 'count') return { gte: 0 };
    if ((format === 'timestamp' || format === 'near') && n > 0) return { gt: 0 };
    if (format === 'timestamp' && n === 0) return 0;
  }
  return { type: typeOf(v) };
}

function leaf(path: PathSegment[], v: unknown, c: ExpectContext): Expectation {
  if (typeof v === 'string') {
    const linked = c.link(v);
    if (linked !== undefined) return linked;
    if (c.localPaths?.some((p) => v.includes(p))) return { matches: portablePattern(v, c.localPaths)! };
  }
  const key = nearestKey(path);
  if (key !== undefined && SECRET_KEY.test(key) && typeof v === 'string' && v !== '') return { type: 'string' };
  if (
    key !== undefined &&
    CHAIN_POSITION.test(key) &&
    (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean')
  )
    return { type: typeOf(v) };
  const rule = classify(path, formatPath(path), v, v);
  if (rule) return byFormat(rule.format, v);
  return typeof v === 'string' ? escapeText(v) : v;
}

/**
 * Lists of transfers: entries of one block come back in no fixed order, so each is looked for by its deterministic
 * fields.
 */
const UNORDERED = /^(in|out|pending|pool|failed|transfers)$/;

/**
 * A transaction's fee follows how many inputs its wallet chose, and Salvium picks 1 or 2 at random when one can pay
 * (diff/inputs.ts): a replay's fee is of the same order, not the same. So a recorded fee is expected within a factor
 * of 2 (`{all: [{gte: f/2}, {lte: 2f}]}`; a zero fee stays 0).
 */
function feeRange(v: unknown): Expectation {
  if (typeof v !== 'bigint' && !Number.isSafeInteger(v)) return { type: typeOf(v) };
  const f = BigInt(v as number | bigint);
  return f <= 0n ? 0 : { all: [{ gte: asNumber((f + 1n) / 2n) }, { lte: asNumber(f * 2n) }] };
}

/** A bigint as a number when that is exact (as the answer wrote it), else as a string of digits. */
const asNumber = (n: bigint): number | string => (n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString());

/** The fee fields of a transaction (a transfer answer or entry; not get_fee_estimate's `fee`, a rate). */
const isFeeOf = (o: Record<string, unknown>, k: string): boolean => (k === 'fee' || k === 'fee_list') && isTxObject(o);

/** The fields of a list entry a replay answers exactly (placeholders included), for `contains`. */
function exactPart(path: PathSegment[], v: unknown, c: ExpectContext): unknown {
  if (Array.isArray(v)) {
    const parts = v.map((x, i) => exactPart([...path, i], x, c));
    return parts.every((x) => x !== undefined) ? parts : undefined;
  }
  if (isPlainObject(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      // a fee is not exact (feeRange), and a matcher cannot go inside `contains`: left out
      if (isFeeOf(v, k)) continue;
      const part = exactPart([...path, k], x, c);
      if (part !== undefined) out[k] = part;
    }
    return out;
  }
  const e = leaf(path, v, c);
  // a matcher (a mapping) cannot go inside `contains`: only exact values do
  return isPlainObject(e) ? undefined : e;
}

function walk(path: PathSegment[], v: unknown, c: ExpectContext, out: Record<string, Expectation>): void {
  const key = nearestKey(path);
  if (
    Array.isArray(v) &&
    v.length > 0 &&
    key !== undefined &&
    UNORDERED.test(key) &&
    typeof path.at(-1) === 'string' &&
    v.every(isPlainObject)
  ) {
    out[formatPath(path)] = {
      all: [{ length: v.length }, ...v.map((x) => ({ contains: exactPart([...path, 0], x, c) }))],
    };
    return;
  }
  if (Array.isArray(v)) {
    if (v.length > 0 && key !== undefined && CHAIN_LISTS.test(key) && v.every((x) => typeof x === 'string')) {
      out[formatPath(path)] = v.length === 1 ? { contains: v[0] } : { all: v.map((x) => ({ contains: x })) };
      return;
    }
    if (v.length === 0) out[formatPath(path)] = [];
    v.forEach((x, i) => walk([...path, i], x, c, out));
    return;
  }
  if (isPlainObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 0) out[formatPath(path)] = { type: 'object' };
    for (const k of keys) {
      const x = v[k];
      if (isFeeOf(v, k) && Array.isArray(x)) x.forEach((f, i) => (out[formatPath([...path, k, i])] = feeRange(f)));
      else if (isFeeOf(v, k)) out[formatPath([...path, k])] = feeRange(x);
      else walk([...path, k], x, c, out);
    }
    return;
  }
  out[formatPath(path)] = leaf(path, v, c);
}

/** The expectations of an answer's `result`, keyed by path (`result.balances[0].asset_type`). */
export function expectationsOf(result: unknown, c: ExpectContext): Record<string, Expectation> {
  if (c.on === 'wallet' && !c.knownHistory && HISTORY.has(c.method ?? '')) return { result: { type: typeOf(result) } };
  const out: Record<string, Expectation> = {};
  walk(['result'], result, c, out);
  return out;
}

/**
 * `expect_error` of an error answer: its code, and its message exactly (hashes in it by their form, a folder of the
 * recording machine by a pattern).
 */
export function expectedError(e: { code: number; message: string }, c: ExpectContext): Record<string, unknown> {
  let message: unknown;
  const pattern = portablePattern(e.message, c.localPaths);
  if (pattern !== undefined) message = { matches: pattern };
  else {
    const linked = c.link(e.message);
    message = linked ?? escapeText(e.message);
  }
  return { code: e.code, message };
}
