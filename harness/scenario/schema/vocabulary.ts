// The scenario language's words and small helpers every part of its validation shares.
import { amountUnits } from '../../testnet/backends.js';
import { describeValue } from '../../common/describe.js';
import { SCOPE_ROOTS } from '../interpolate.js';

/** Keys every step may have besides its one action. */
export const STEP_COMMON_KEYS = ['name', 'wallet', 'node', 'expect', 'expect_error', 'save'] as const;
/** Names a declared wallet cannot take: the built-in wallet and the placeholder roots. */
export const RESERVED_WALLET_NAMES: readonly string[] = ['main', ...SCOPE_ROOTS];
/** Wallet, save, metadata and snapshot names. */
export const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Assets in `unlocked` maps: SAL1, SAL, XMR, or a token such as salABCD. */
/**
 * A token's asset type: `sal` + 4 upper-case letters or digits (erc…: the pre-rename form some answers still carry).
 */
const TOKEN_RE = /^(sal|erc)[0-9A-Z]{4}$/;
/** The built-in backends' assets, for the JSON Schema (isAsset() also knows registered backends' coins). */
export const ASSET_RE = /^(SAL1|SAL|XMR|sal[0-9A-Z]{4}|erc[0-9A-Z]{4})$/;
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
