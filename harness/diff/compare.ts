// Comparing two RPC answers value by value: the same keys, the same JSON types (recursively), the
// same list lengths, deterministic values equal, random ones (rules.ts) of the same form.
import { isPlainObject } from '../common/plain-object.js';
import { isDeepStrictEqual } from 'node:util';
import { formatPath, type PathSegment } from '../common/path.js';
import { compareInputDependent, INPUT_DEPENDENT, isBuildAnswer, isTxObject } from './inputs.js';
import { comparedOrder } from './order.js';
import { classify, near, NEAR_PERCENT, shapeOf } from './rules.js';
import { ABSENT, show, type ValueDivergence } from './values.js';

export { ABSENT, show, type DivergenceKind, type ValueDivergence } from './values.js';

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'list' | 'object' | 'undefined' | 'other';

export function jsonType(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'object':
      return 'object';
    case 'undefined':
      return 'undefined';
    default:
      return 'other';
  }
}

function numbersEqual(a: number | bigint, b: number | bigint): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (typeof a === 'number' && !Number.isInteger(a)) return false;
  if (typeof b === 'number' && !Number.isInteger(b)) return false;
  return BigInt(a) === BigInt(b);
}

const items = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;

function compareLeaf(path: PathSegment[], a: unknown, b: unknown, out: ValueDivergence[]): void {
  const at = formatPath(path);
  const rule = classify(path, at, a, b);
  if (rule?.format === 'near') {
    if (!near(a, b))
      out.push({
        path: at,
        kind: 'value',
        a: show(a),
        b: show(b),
        detail: `more than ${NEAR_PERCENT}% apart`,
        rule: rule.name,
      });
    return;
  }
  if (rule) {
    const [sa, sb] = [shapeOf(rule.format, a), shapeOf(rule.format, b)];
    if (sa !== sb)
      out.push({ path: at, kind: 'format', a: show(a), b: show(b), detail: `${sa} ≠ ${sb}`, rule: rule.name });
    return;
  }
  const same = typeof a === 'number' || typeof a === 'bigint' ? numbersEqual(a, b as number | bigint) : a === b;
  if (!same) out.push({ path: at, kind: 'value', a: show(a), b: show(b) });
}

/** Keys whose string is a JSON document of its own (a block or tx decoded by the daemon): compared as parsed. */
const EMBEDDED_JSON = new Set(['json', 'as_json', 'tx_json', 'txs_as_json']);

/** The parsed document of an embedded JSON text, or undefined when the value is not one. */
function embedded(path: readonly PathSegment[], v: unknown): unknown {
  if (typeof v !== 'string' || !v.startsWith('{')) return undefined;
  const key = [...path].reverse().find((s) => typeof s === 'string');
  if (!EMBEDDED_JSON.has(String(key))) return undefined;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * get_transfer_by_txid's `transfer` is the first entry of its `transfers` (wallet_rpc_server.cpp), whose order is not
 * fixed (order.ts): where it is that on both sides, the list's comparison covers it.
 */
const firstOfTransfers = (o: Record<string, unknown>): boolean =>
  Array.isArray(o.transfers) && o.transfers.length > 0 && isDeepStrictEqual(o.transfer, o.transfers[0]);

/** Where divergences go, and whether one side followed the other's input counts (exact fees and key images). */
interface Walk {
  out: ValueDivergence[];
  followed: boolean;
  /** Each side's transactions the steps built (inputs.ts builtTxids); an entry of another is its sender's. */
  built?: { a: ReadonlySet<string>; b: ReadonlySet<string> };
}

/** Two transfer entries of a transaction the steps built on neither side: the testnet's funding of a wallet. */
const unbuiltPair = (oa: Record<string, unknown>, ob: Record<string, unknown>, w: Walk): boolean =>
  w.built !== undefined &&
  typeof oa.txid === 'string' &&
  typeof ob.txid === 'string' &&
  !w.built.a.has(oa.txid) &&
  !w.built.b.has(ob.txid);

function walk(path: PathSegment[], a: unknown, b: unknown, w: Walk): void {
  const { out } = w;
  const [ta, tb] = [jsonType(a), jsonType(b)];
  if (ta !== tb) {
    out.push({ path: formatPath(path) || '(answer)', kind: 'type', a: show(a), b: show(b), detail: `${ta} ≠ ${tb}` });
    return;
  }
  const [ja, jb] = [embedded(path, a), embedded(path, b)];
  if (ja !== undefined && jb !== undefined) return walk(path, ja, jb, w);
  if (ta === 'list') {
    const [la, lb] = [comparedOrder(path, a as unknown[]), comparedOrder(path, b as unknown[])];
    if (la.length !== lb.length)
      out.push({
        path: formatPath(path),
        kind: 'length',
        a: show(la),
        b: show(lb),
        detail: `${items(la.length)} ≠ ${items(lb.length)}`,
      });
    for (let i = 0; i < Math.min(la.length, lb.length); i++) walk([...path, i], la[i], lb[i], w);
    return;
  }
  if (ta === 'object') {
    const [oa, ob] = [a as Record<string, unknown>, b as Record<string, unknown>];
    // Followed, an answer that built txs compares exactly; a listed entry may be a tx no replay reached (inputs.ts).
    const loose = isTxObject(oa) && isTxObject(ob) && !(w.followed && isBuildAnswer(oa) && isBuildAnswer(ob));
    for (const k of Object.keys(oa)) {
      if (!(k in ob) || ob[k] === undefined) {
        if (oa[k] !== undefined)
          out.push({ path: formatPath([...path, k]), kind: 'only-in-a', a: show(oa[k]), b: ABSENT });
      } else if (k === 'transfer' && firstOfTransfers(oa) && firstOfTransfers(ob)) continue;
      else if (loose && INPUT_DEPENDENT.has(k))
        compareInputDependent(path, k, oa, ob, out, (p, x, y) => walk(p, x, y, w), unbuiltPair(oa, ob, w));
      else walk([...path, k], oa[k], ob[k], w);
    }
    for (const k of Object.keys(ob)) {
      if ((!(k in oa) || oa[k] === undefined) && ob[k] !== undefined)
        out.push({ path: formatPath([...path, k]), kind: 'only-in-b', a: ABSENT, b: show(ob[k]) });
    }
    return;
  }
  compareLeaf(path, a, b, out);
}

interface Answer {
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

const isAnswer = (v: unknown): v is Answer => isPlainObject(v);

function describeAnswer(v: Answer): string {
  if (v.error !== undefined)
    return `error ${show(v.error.code)}: ${typeof v.error.message === 'string' ? v.error.message : show(v.error.message)}`;
  return 'a result';
}

/**
 * Every divergence between A's and B's answer to the same step (`{ result }` or `{ error: { code,
 * message } }`, plus the JSON-RPC envelope). An answer with a result against one with an error is
 * one `answer` divergence; otherwise the answers are walked together. `followed`: one side took the
 * other's input counts (a simulator side, replay.ts), so the fees and key images of an answer that built
 * transactions are compared as any value is; otherwise (and in transfer entries, which may list the
 * testnet's own funding) by what does not depend on the wallet's coin (inputs.ts).
 */
export function compareAnswers(
  a: unknown,
  b: unknown,
  o: { followed?: boolean; built?: { a: ReadonlySet<string>; b: ReadonlySet<string> } } = {},
): ValueDivergence[] {
  if (a === undefined && b === undefined) return [];
  if (a === undefined || b === undefined) {
    return [{ path: '(answer)', kind: a === undefined ? 'only-in-b' : 'only-in-a', a: show(a), b: show(b) }];
  }
  if (isAnswer(a) && isAnswer(b) && (a.error !== undefined) !== (b.error !== undefined)) {
    return [{ path: '(answer)', kind: 'answer', a: describeAnswer(a), b: describeAnswer(b) }];
  }
  const out: ValueDivergence[] = [];
  walk([], a, b, { out, followed: o.followed ?? false, ...(o.built ? { built: o.built } : {}) });
  return out;
}
