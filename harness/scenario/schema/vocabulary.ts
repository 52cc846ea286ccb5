// The scenario language's words and small helpers every part of its validation shares.
import { amountUnits } from '../../coin/backends.js';
import { describeValue } from '../../common/describe.js';
import { escapeRegExp } from '../../common/redact.js';
import { SCOPE_ROOTS } from '../interpolate.js';

/** Keys every step may have besides its one action. */
export const STEP_COMMON_KEYS = ['name', 'wallet', 'node', 'expect', 'expect_error', 'save'] as const;
/** Names a declared wallet cannot take: the built-in wallet and the placeholder roots. */
export const RESERVED_WALLET_NAMES: readonly string[] = ['main', ...SCOPE_ROOTS];
/** Wallet, save, metadata and snapshot names. */
export const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * A token's asset type: `sal` + 4 upper-case letters or digits (erc…: the pre-rename form some answers still carry).
 */
const TOKEN = '(sal|erc)[0-9A-Z]{4}';
const TOKEN_RE = new RegExp(`^${TOKEN}$`);
/** The units of the backends' coins (coin/backends.ts), longest first, as a regular expression's alternatives. */
const unitAlternatives = (units: Iterable<string>): string =>
  [...units]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
/** Assets in `unlocked` maps, for the JSON Schema: a unit of a backend's coin (SAL1, SAL, XMR, …) or a token. */
export const assetPattern = (): string => `^(${unitAlternatives(amountUnits().keys())}|${TOKEN})$`;
/**
 * An amount as written in a scenario, for the JSON Schema: atomic units, or a decimal number and a unit, with at most
 * as many decimals as that unit has.
 */
export function amountPattern(): string {
  const byDecimals = new Map<number, string[]>();
  for (const [unit, decimals] of amountUnits()) byDecimals.set(decimals, [...(byDecimals.get(decimals) ?? []), unit]);
  const units = [...byDecimals].map(([d, us]) => `\\d+(\\.\\d{1,${d}})?\\s+(${unitAlternatives(us)})`);
  return `^\\s*(\\d+|${units.join('|')})\\s*$`;
}
/** An asset: a unit of a backend's coin (BACKENDS) or a token. */
export const isAsset = (k: string): boolean => amountUnits().has(k) || TOKEN_RE.test(k);
/** Roots of response paths: the response is `{ result }` or `{ error }`. */
export const RESPONSE_ROOTS = ['result', 'error'] as const;

export const has = (o: Record<string, unknown>, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

export function showShort(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'nothing';
  if (typeof v === 'object') return describeValue(v);
  return String(v);
}

export const didYouMean = (s: string | undefined): string => (s ? ` (did you mean "${s}"?)` : '');
/** Up to 20 names, comma-separated, then how many more (a hostile file may have thousands). */
export const listed = (names: Iterable<string>): string => {
  const all = [...names];
  return all.length > 20 ? `${all.slice(0, 20).join(', ')} and ${all.length - 20} more` : all.join(', ');
};
