// `unlocked` in a config is a number of coins (1001) or an amount with its unit ("1001 SAL1"); the
// testnet wants atomic units of the backend's coin. The conversion is exact (decimal text, never
// floating point arithmetic on atomic units).
import { AMOUNT_DECIMALS, parseAmount } from '../scenario/amounts.js';
import type { BackendName } from '../testnet/backends.js';

/** Atomic units for `startTestnet({ unlocked })`; throws when the unit does not fit the backend (XMR on Salvium, SAL1 on Monero). */
export function unlockedAtomic(value: number | string, backend: BackendName): bigint {
  const coin = backend === 'monero' ? 'XMR' : 'SAL1';
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`unlocked: expected a number of coins ≥ 0, got ${value}`);
    return parseAmount(`${value.toFixed(AMOUNT_DECIMALS[coin])} ${coin}`, 'unlocked');
  }
  const unit = /([A-Za-z0-9]+)\s*$/.exec(value)?.[1];
  if ((unit === 'XMR') !== (backend === 'monero')) {
    throw new Error(`unlocked: ${JSON.stringify(value)} is in ${unit ?? 'no unit'}, but the ${backend} backend's coin is ${coin}`);
  }
  return parseAmount(value, 'unlocked');
}
