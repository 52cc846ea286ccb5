// Save the testnet's state as a snapshot in the cache (`saltnet snapshot save` on a running `up`).
import { z } from 'zod';
import { assertKey } from '../snapshot/snapshot-dir.js';
import { summarize, type SnapshotSummary } from '../snapshot/manifest.js';
import { asRequestError, defineOperation } from './operation.js';

export interface SaveAnswer {
  key: string;
  cacheDir: string;
  summary: SnapshotSummary;
}

export const snapshotOperation = defineOperation({
  name: 'snapshot',
  what: 'save the testnet state',
  body: z.strictObject({ key: z.string().min(1).describe('a snapshot key (a non-empty string)') }),
  async run(t, { key }, { cacheDir }): Promise<SaveAnswer> {
    asRequestError(() => assertKey(key));
    const m = await t.saveSnapshot(key);
    return { key, cacheDir, summary: summarize(m) };
  },
});
