// What the real-Salvium tier's files share: the binaries and cache that test/real/setup.ts found,
// and a describe that is skipped, visibly, when there are none.
import { describe } from 'vitest';

export const BIN_DIR = process.env.SALTNET_REAL_BIN_DIR ?? '';
export const CACHE_DIR = process.env.SALTNET_REAL_CACHE_DIR ?? '';
export const SAL1 = 100_000_000n;

/** describe() that runs only with real binaries (the setup printed why not). */
export function describeReal(name: string, fn: () => void): void {
  describe.skipIf(!BIN_DIR)(name, fn);
}

/**
 * The options every real testnet of the tier uses: the real programs at difficulty 1 (light RandomX: ~15 blocks/s on
 * two cores).
 */
export const REAL = { backend: 'salvium' as const, binDir: BIN_DIR, difficulty: 1 };

/**
 * `saltnet diff`'s and `saltnet fuzz`'s sides as the tier compares them: the simulator against the real programs at
 * difficulty 1, on the tier's cache.
 */
export const SIM_AGAINST_REAL = [
  '--a',
  'sim',
  '--b',
  'salvium',
  '--bin-dir-b',
  BIN_DIR,
  '--difficulty',
  '1',
  '--cache-dir',
  CACHE_DIR,
];
