// The deterministic wallets of fixtures/wallets/: fixed seeds restored on every cold start, so a
// testnet's addresses are the same on every machine and its snapshots can be shared.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../common/paths.js';
import { z } from 'zod';

export const FixtureWalletSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/),
  purpose: z.string().optional(),
  seed: z.string().refine((s) => s.trim().split(/\s+/).length === 25, 'expected 25 words'),
});
export type FixtureWallet = z.infer<typeof FixtureWalletSchema>;

export const FIXTURE_WALLETS_DIR = join(packageRoot(), 'fixtures', 'wallets');

/** Read fixtures/wallets/<name>.json (or `dir`/<name>.json), with a clear error naming the file. */
export function fixtureWallet(name: string, dir = FIXTURE_WALLETS_DIR): FixtureWallet {
  const file = join(dir, `${name}.json`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read the fixture wallet ${file}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  const r = FixtureWalletSchema.safeParse(json);
  if (!r.success)
    throw new Error(
      `${file}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  return { ...r.data, seed: r.data.seed.trim().split(/\s+/).join(' ') };
}
