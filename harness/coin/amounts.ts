// Amounts in scenario files and options: atomic integers or "<decimal> <unit>" strings, always
// exact (digits are parsed as text; no floating point is involved anywhere). The units and their
// decimals are every backend's coin's (backends.ts, coins.ts); a token (`salABCD`) counts like SAL1.
import { amountUnits } from './backends.js';
import { suggest } from '../common/suggest.js';

/** The accepted forms, for error messages and documentation (the units of every backend's coin). */
export function amountForms(): string {
  const units = [...amountUnits()].map(([u, d]) => `"<decimal> ${u}" (up to ${d} decimals)`).join(' / ');
  return `an amount: a non-negative integer of atomic units (150000000, or quoted "150000000") or ${units}, e.g. "1.5 SAL1"`;
}
/** amountForms() of the built-in backends, for the schema's descriptions. */
export const AMOUNT_FORMS = amountForms();

const UNIT_RE = /^\s*(\d+)(?:\.(\d*))?\s+([A-Za-z0-9]+)\s*$/;
const DIGITS_RE = /^\d+$/;
/** A number written with an exponent (1e3, 1.5E-2), alone or before a unit. */
export const EXPONENT_RE = /^[+-]?(\d+\.?\d*|\.\d+)[eE][+-]?\d+(?![\d.])/;

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  if (v === undefined) return 'nothing';
  if (typeof v === 'object' && v !== null) {
    try {
      return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v);
    } catch {
      return Object.prototype.toString.call(v);
    }
  }
  return String(v);
}

/** Why `v` is not an amount (a short reason), or undefined when it is one. */
export function amountError(v: unknown): string | undefined {
  return tryParse(v).error;
}

function tryParse(v: unknown): { value?: bigint; error?: string } {
  if (typeof v === 'bigint') return v < 0n ? { error: 'amounts cannot be negative' } : { value: v };
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return { error: 'not a finite number' };
    if (!Number.isInteger(v))
      return {
        error: `a bare number with a fraction is ambiguous; write "${v} SAL1" for coins or an integer of atomic units`,
      };
    if (v < 0) return { error: 'amounts cannot be negative' };
    if (v > 2 ** 53) return { error: 'too large to be exact as a number; write it as a quoted string of digits' };
    return { value: BigInt(v) };
  }
  if (typeof v === 'string') {
    const s = v.trim();
    if (DIGITS_RE.test(s)) return { value: BigInt(s) };
    if (s.startsWith('-')) return { error: 'amounts cannot be negative' };
    const m = UNIT_RE.exec(s);
    if (EXPONENT_RE.test(s))
      return { error: 'an exponent (1e3) is not accepted in an amount; write the digits, e.g. "1000 SAL1"' };
    if (!m) {
      if (/^\d+(\.\d+)?[A-Za-z]/.test(s)) return { error: 'put a space between the number and the unit' };
      return { error: 'not a number of atomic units nor "<decimal> <unit>"' };
    }
    const [, whole = '', frac, unit = ''] = m;
    const units = amountUnits();
    const decimals = units.get(unit);
    if (decimals === undefined) {
      const known = [...units.keys()];
      const same = known.find((u) => u.toUpperCase() === unit.toUpperCase());
      if (same) return { error: `units are case-sensitive: write ${same}` };
      const near = suggest(unit, known);
      return { error: `unknown unit ${unit}${near ? ` (did you mean ${near}?)` : ''} (units: ${known.join(', ')})` };
    }
    if (frac === '') return { error: 'a decimal point needs digits after it' };
    const f = frac ?? '';
    if (f.length > decimals) {
      return { error: `${unit} has ${decimals} decimals, this has ${f.length}` };
    }
    return { value: BigInt(whole) * 10n ** BigInt(decimals) + BigInt(f.padEnd(decimals, '0') || '0') };
  }
  return { error: `a ${v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v} is not an amount` };
}

/**
 * An amount as atomic units. Accepts a non-negative integer (number ≤ 2^53, bigint, or a string of
 * digits) or `"<decimal> <unit>"` in a unit of a backend's coin (`"1.5 SAL1"`: 8 decimals, `"1 XMR"`: 12).
 * Throws an Error naming the value (and `where`, when given) and the accepted forms.
 */
export function parseAmount(v: unknown, where?: string): bigint {
  const r = tryParse(v);
  if (r.value !== undefined) return r.value;
  throw new Error(`${where ? `${where}: ` : ''}${show(v)} is not an amount (${r.error}); expected ${amountForms()}`);
}

/** True for a valid amount string with a unit (`"1.5 SAL1"`, `"0.000000000001 XMR"`); bare digits are not. */
export function isAmountString(s: unknown): s is string {
  return typeof s === 'string' && UNIT_RE.test(s) && tryParse(s).value !== undefined;
}

/** Atomic units as a decimal string with the unit: `formatAmount(150000000n)` → `"1.50000000 SAL1"`. */
export function formatAmount(atomic: bigint, asset = 'SAL1'): string {
  const decimals = amountUnits().get(asset) ?? 8;
  const neg = atomic < 0n;
  const abs = neg ? -atomic : atomic;
  const scale = 10n ** BigInt(decimals);
  const whole = abs / scale;
  const frac = (abs % scale).toString().padStart(decimals, '0');
  return `${neg ? '-' : ''}${whole}${decimals > 0 ? `.${frac}` : ''} ${asset}`;
}

/** Atomic units as people write them, without trailing zeros: `1.5 SAL1`, `10 SAL1`. */
export function formatAmountShort(atomic: bigint, asset = 'SAL1'): string {
  return formatAmount(atomic, asset).replace(/\.?0+ /, ' ');
}

/**
 * A number of coins as typed (`12`, `0.5`), in atomic units of a coin with `decimals` decimals: exact, never rounded.
 * Throws an Error naming `where` and the value.
 */
export function coinsToAtomic(text: string, decimals: number, where: string): bigint {
  const t = text.trim();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(t);
  if (!m) {
    const why = EXPONENT_RE.test(t)
      ? 'write it in plain digits, without an exponent'
      : t.startsWith('-')
        ? 'it is below 0'
        : 'expected a number of coins, e.g. 12 or 0.5';
    throw new Error(`${where}: ${JSON.stringify(text)} is not an amount (${why})`);
  }
  const [, whole = '0', frac = ''] = m;
  if (frac.length > decimals) throw new Error(`${where}: ${t} has ${frac.length} decimals; the coin has ${decimals}`);
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
}
