// `${…}` placeholders in scenario values, resolved just before a step runs.
//
// The scope the runner passes (every key optional):
//   <saved name>        values saved by earlier steps (`save: { tx: result.tx_hash }` → `${tx}`)
//   wallets             { <wallet name>: { address, cn, carrot } }   → `${wallets.bob.address}`,
//                       shorthand `${bob.address}`, `${bob.cn}`, `${bob.carrot}`
//   metadata            { <metadata name>: { url, sha256, size } }   → `${metadata.rich.url}`
//   height              the daemon height when the step starts        → `${height}`
//   unique              `${unique.ticker}`, `${unique.gold}`: a token ticker of this scenario's own (4
//                       characters, A-Z and 0-9, from the scenario's name and NAME: the same in every run)
//   env                 optional override of process.env (tests)      → `${env.HOME}`; `${env.public.HOME}`
//                       is the same value, marked as no secret (see env-secrets.ts)
//
// A string that is exactly one placeholder takes the value's own type (bigint, number, object…);
// placeholders embedded in text are stringified (bigints exactly, objects as JSON). `$${` is a
// literal `${`. Interpolate a value once: the escape is removed on the way.
import { isPlainObject } from '../common/plain-object.js';
import { createHash } from 'node:crypto';
import { formatPath, parsePath, type PathSegment } from '../common/path.js';
import type { Template } from './types.js';

export type Scope = Record<string, unknown>;

/** Scope keys with a fixed meaning (never saved names or wallet names). */
export const SCOPE_ROOTS = ['env', 'wallets', 'metadata', 'height', 'unique'] as const;
/** A name after `unique.`. */
export const UNIQUE_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The scope key the runner sets to the scenario's name: `${unique.<name>}` is derived from it. Not a name a file can
 * save under (NAME_RE).
 */
export const UNIQUE_SEED = '\u0000scenario';

/**
 * The ticker `${unique.<name>}` stands for: 4 characters (A-Z, 0-9) derived from the scenario's name and `name`. The
 * same in every run of the scenario, so two runs, two backends and a recording compare; another for every other
 * scenario and name (one chance in 1.7 million that two meet).
 */
export function uniqueTicker(scenario: string, name: string): string {
  const digest = createHash('sha256').update(`${scenario}\u0000${name}`).digest();
  return Array.from({ length: 4 }, (_, i) => TICKER_CHARS[digest.readUInt16BE(2 * i) % TICKER_CHARS.length]).join('');
}
const TICKER_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Fields of `wallets.<name>` and of the `<name>.…` shorthand. */
export const WALLET_FIELDS = ['address', 'cn', 'carrot'] as const;
/** Fields of `metadata.<name>`. */
export const METADATA_FIELDS = ['url', 'sha256', 'size'] as const;

export type TemplatePart = { text: string } | { expr: string; start: number; end: number };

/**
 * Split a string into literal text and placeholders. Throws on an unterminated `${`.
 * `start`/`end` are offsets of `${` and of the character after `}` in the original string.
 */
export function scanTemplate(s: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let buf = '';
  let i = 0;
  const n = s.length;
  while (i < n) {
    if (s.startsWith('$${', i)) {
      buf += '${';
      i += 3;
    } else if (s.startsWith('${', i)) {
      let j = i + 2;
      let quote: string | undefined;
      while (j < n) {
        const ch = s[j]!;
        if (quote) {
          if (ch === '\\') j++;
          else if (ch === quote) quote = undefined;
        } else if (ch === '"' || ch === "'") quote = ch;
        else if (ch === '}') break;
        j++;
      }
      if (j >= n)
        throw new Error(
          `unterminated placeholder in ${JSON.stringify(s)}: "\${" without a closing "}" (write $\${ for a literal \${)`,
        );
      if (buf) parts.push({ text: buf });
      buf = '';
      parts.push({ expr: s.slice(i + 2, j).trim(), start: i, end: j + 1 });
      i = j + 1;
    } else {
      buf += s[i]!;
      i++;
    }
  }
  if (buf || parts.length === 0) parts.push({ text: buf });
  return parts;
}

/** True when the string holds at least one placeholder (an unterminated one counts). */
export function isTemplateString(s: unknown): s is string {
  if (typeof s !== 'string' || !s.includes('${')) return false;
  try {
    return scanTemplate(s).some((p) => 'expr' in p);
  } catch {
    return true;
  }
}

/** True when a value holds a placeholder anywhere (strings, array items, object keys or values). */
export function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return isTemplateString(value);
  if (Array.isArray(value)) return value.some(hasTemplate);
  if (isPlainObject(value)) return Object.entries(value).some(([k, v]) => isTemplateString(k) || hasTemplate(v));
  return false;
}

/** Text of a value embedded in a string: strings as-is, bigints exactly, objects as JSON. */
export function stringifyForTemplate(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return 'null';
  return jsonWithBigInts(v);
}

function jsonWithBigInts(v: unknown): string {
  // Bigints as bare digits: replace them with unique markers, then unquote the markers.
  const marks: string[] = [];
  const text = JSON.stringify(v, (_k, x: unknown) => {
    if (typeof x !== 'bigint') return x;
    marks.push(x.toString());
    return `\u0000bigint${marks.length - 1}\u0000`;
  });
  return (text ?? 'null').replace(/"\\u0000bigint(\d+)\\u0000"/g, (_m, i: string) => marks[Number(i)]!);
}

/** Replace every placeholder in `value` (deeply) with its value in `scope`. */
export function interpolate(value: Template, scope: Scope): unknown {
  if (typeof value === 'string') return interpolateString(value, scope);
  if (Array.isArray(value)) return value.map((v) => interpolate(v, scope));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = k.includes('${') ? stringifyForTemplate(interpolateString(k, scope)) : k;
      out[key] = interpolate(v, scope);
    }
    return out;
  }
  return value;
}

function interpolateString(s: string, scope: Scope): unknown {
  if (!s.includes('$')) return s;
  const parts = scanTemplate(s);
  const only = parts.length === 1 ? parts[0]! : undefined;
  if (only && 'expr' in only) return lookup(only.expr, scope);
  return parts.map((p) => ('expr' in p ? stringifyForTemplate(lookup(p.expr, scope)) : p.text)).join('');
}

/** The value of one placeholder expression (`bob.address`, `tx.list[0]`, `env.HOME`). */
export function lookup(expr: string, scope: Scope): unknown {
  const ph = `\${${expr}}`;
  let segs: PathSegment[];
  try {
    segs = parsePath(expr);
  } catch (e) {
    throw new Error(`bad placeholder ${ph}: ${(e as Error).message}`, { cause: e });
  }
  const [root, ...rest] = segs;
  if (typeof root !== 'string')
    throw new Error(`bad placeholder ${ph}: it must start with a name; ${definedNames(scope)}`);
  if (root === 'env') {
    // ${env.public.NAME}: the same value, marked as no secret (not redacted from artifacts: env-secrets.ts)
    const name = rest.length === 2 && rest[0] === 'public' ? rest[1] : rest.length === 1 ? rest[0] : undefined;
    if (typeof name !== 'string')
      throw new Error(
        `bad placeholder ${ph}: write \${env.NAME} for the environment variable NAME (\${env.public.NAME} when its value may appear in the artifacts)`,
      );
    const env = isPlainObject(scope.env) ? (scope.env as Record<string, unknown>) : process.env;
    const v = env[name];
    if (v === undefined) throw new Error(`placeholder ${ph}: the environment variable ${name} is not set`);
    return v;
  }
  if (root === 'unique') {
    const name = rest.length === 1 ? rest[0] : undefined;
    if (typeof name !== 'string' || !UNIQUE_NAME.test(name))
      throw new Error(
        `bad placeholder ${ph}: write \${unique.NAME} (e.g. \${unique.ticker}) for a ticker of this run's own`,
      );
    return uniqueTicker(String(scope[UNIQUE_SEED] ?? ''), name);
  }
  let base: unknown;
  if (Object.prototype.hasOwnProperty.call(scope, root)) {
    base = scope[root];
  } else if (isPlainObject(scope.wallets) && Object.prototype.hasOwnProperty.call(scope.wallets, root)) {
    base = scope.wallets[root];
  } else {
    throw new Error(`unknown placeholder ${ph}: nothing is called "${root}"; ${definedNames(scope)}`);
  }
  let cur = base;
  const walked: PathSegment[] = [root];
  for (const seg of rest) {
    const next = step(cur, seg);
    if (!next.found) {
      const where = formatPath(walked);
      throw new Error(
        `unknown placeholder ${ph}: ${where} has no ${typeof seg === 'number' ? `item [${seg}]` : JSON.stringify(seg)} (${describeKeys(cur)})`,
      );
    }
    cur = next.value;
    walked.push(seg);
  }
  return cur;
}

function step(cur: unknown, seg: PathSegment): { found: boolean; value?: unknown } {
  if (Array.isArray(cur)) {
    if (typeof seg === 'number' && seg < cur.length) return { found: true, value: cur[seg] };
    return { found: false };
  }
  if (typeof cur === 'object' && cur !== null) {
    const key = String(seg);
    if (Object.prototype.hasOwnProperty.call(cur, key))
      return { found: true, value: (cur as Record<string, unknown>)[key] };
  }
  return { found: false };
}

function describeKeys(v: unknown): string {
  if (Array.isArray(v)) return `it is a list of ${v.length}`;
  if (typeof v === 'object' && v !== null) {
    const keys = Object.keys(v);
    return keys.length ? `it has: ${keys.join(', ')}` : 'it is empty';
  }
  return `it is ${v === null ? 'null' : typeof v === 'string' ? `the string ${JSON.stringify(v)}` : `${typeof v} ${String(v)}`}`;
}

/** "defined: …" — what a placeholder could name in this scope. */
export function definedNames(scope: Scope): string {
  const saved = Object.keys(scope).filter((k) => !(SCOPE_ROOTS as readonly string[]).includes(k) && k !== UNIQUE_SEED);
  const parts: string[] = [];
  parts.push(saved.length ? `saved values: ${saved.join(', ')}` : 'no saved values');
  const wallets = isPlainObject(scope.wallets) ? Object.keys(scope.wallets) : [];
  if (wallets.length) parts.push(`wallets: ${wallets.join(', ')} (\${<wallet>.address}, .cn, .carrot)`);
  const metadata = isPlainObject(scope.metadata) ? Object.keys(scope.metadata) : [];
  if (metadata.length) parts.push(`metadata: ${metadata.join(', ')} (\${metadata.<name>.url}, .sha256, .size)`);
  if ('height' in scope) parts.push('height');
  parts.push('env.<NAME>', 'unique.<NAME>');
  return `defined: ${parts.join('; ')}`;
}
