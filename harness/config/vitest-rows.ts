// Rows of the config table (schema.ts) for the vitest integration.
import { z } from 'zod';
import { isAmountString } from '../coin/amounts.js';

/** At most this many fresh wallets of one amount are kept funded ahead. */
export const MAX_FUNDED_COUNT = 32;

export const FRESH_WALLETS_ROW = {
  key: 'freshWallets',
  schema: z
    .array(
      z.strictObject({
        unlocked: z.union([z.number().positive().finite(), z.string().refine((s) => isAmountString(s))]),
        count: z.number().int().min(1).max(MAX_FUNDED_COUNT),
      }),
    )
    .min(1),
  expected: `a list of { unlocked: an amount (e.g. "10 SAL1") or a number of coins, count: 1 to ${MAX_FUNDED_COUNT} }`,
  unset: 'none: freshWallet pays each wallet from the main wallet and mines until it is unlocked',
  describe:
    'wallets the vitest global setup keeps funded ahead, paid once per machine at difficulty 1 and cached: `freshWallet({ unlocked })` of one of these amounts takes one and mines nothing (above difficulty 1; docs/difficulty.md)',
} as const;
