// `unlocked` in a config is a number of coins (1001) or an amount with its unit ("1001 SAL1"); the
// testnet wants atomic units of the backend's coin. The conversion is exact (decimal text, never
// floating point arithmetic on atomic units): a number of coins is read as the shortest decimal
// that is that number (what was typed), and more decimals than the coin has are an error, never rounded.
import { amountError, EXPONENT_RE, parseAmount } from '../coin/amounts.js';
import { AUTO_ORDER, backendSpec, type BackendChoice } from '../coin/backends.js';
import { unitsOf } from '../coin/coins.js';

/** `v` as plain decimal digits, exactly as JavaScript prints it but without an exponent (1e-7 → "0.0000001"). */
export function plainDecimal(v: number): string {
  const s = String(v);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign = '', int = '', frac = '', expText = '0'] = m;
  const digits = int + frac;
  const point = int.length + Number(expText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * Atomic units for `startTestnet({ unlocked })`; throws when the unit does not fit the backend (XMR on Salvium, SAL1 on
 * Monero) or the coins have more decimals than the coin.
 */
export function unlockedAtomic(value: number | string, backend: BackendChoice): bigint {
  // auto picks among backends of one coin (AUTO_ORDER)
  const spec = backendSpec(backend === 'auto' ? AUTO_ORDER[0]! : backend);
  const { unit: coin, decimals: places } = spec.coin;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`unlocked: expected a number of coins ≥ 0, got ${value}`);
    const text = plainDecimal(value);
    const decimals = text.split('.')[1]?.length ?? 0;
    if (decimals > places)
      throw new RangeError(`unlocked: ${text} has ${decimals} decimals, but ${coin} has ${places}`);
    return parseAmount(`${text} ${coin}`, 'unlocked');
  }
  // The backend's own coin: units of another chain (XMR on Salvium, SAL1 on a fork) are refused.
  const unit = /([A-Za-z0-9]+)\s*$/.exec(value)?.[1];
  if (unit === undefined || !unitsOf([spec.coin]).has(unit)) {
    throw new Error(
      `unlocked: ${JSON.stringify(value)} is in ${unit ?? 'no unit'}, but the ${spec.name} backend's coin is ${coin}`,
    );
  }
  return parseAmount(value, 'unlocked');
}

const COINS = /^\d+(\.\d+)?$/;
/** Without a leading zero of the whole part or trailing zeros of the fraction: 007.50 → 7.5. */
const canonical = (t: string): string =>
  t
    .replace(/^0+(?=\d)/, '')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');

/**
 * `--unlocked` as typed: a number of coins (`1100`, `0.5`) or an amount with its unit (`'1100 SAL1'`).
 * Refuses, naming the option and the value: an exponent (`1e3`), a negative number, more digits
 * than a number keeps exactly, and anything that is neither.
 */
export function parseUnlockedText(name: string, text: unknown): number | string {
  if (Array.isArray(text)) throw new Error(`${name} is given ${text.length} times; give it once`);
  const t = String(text ?? '').trim();
  if (t === '') throw new Error(`${name} needs a number of coins (1100) or an amount with its unit ('1100 SAL1')`);
  const shown = `'${String(text)}'`;
  if (EXPONENT_RE.test(t))
    throw new Error(`${name}: ${shown} is written with an exponent; write it in plain digits (e.g. 1000 for 1e3)`);
  if (/^-\d/.test(t)) throw new Error(`${name}: ${shown} is below 0`);
  if (COINS.test(t)) {
    const v = Number(t);
    if (plainDecimal(v) !== canonical(t))
      throw new Error(
        `${name}: ${shown} has more digits than a number of coins keeps exactly; give it with its unit, e.g. '${t} SAL1'`,
      );
    return v;
  }
  const why = amountError(t);
  if (why === undefined) return t;
  if (/^\d+(\.\d*)?\s+\S+$/.test(t)) throw new Error(`${name}: ${shown} is not an amount: ${why}`);
  throw new Error(`${name}: ${shown} is neither a number of coins (1100) nor an amount with its unit ('1100 SAL1')`);
}
