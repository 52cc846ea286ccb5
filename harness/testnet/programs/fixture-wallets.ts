// The deterministic wallets of fixtures/wallets/: fixed seeds restored on every cold start, so a
// testnet's addresses are the same on every machine and its snapshots can be shared. Each file may
// also list the addresses its seed gives on a backend: a cold build then mines to them while the
// wallet CLI restores the wallets, instead of after (the restore's addresses are checked against them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../common/paths.js';
import { z } from 'zod';
import type { MiningAddresses } from '../mining/mining.js';

const AddressesSchema = z.strictObject({ cn: z.string().min(1), carrot: z.string().min(1).optional() });

export const FixtureWalletSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]+$/),
  purpose: z.string().optional(),
  seed: z.string().refine((s) => s.trim().split(/\s+/).length === 25, 'expected 25 words'),
  /** The addresses the seed gives, by backend name (the simulator derives the real ones; a fork may not). */
  addresses: z.record(z.string(), AddressesSchema).optional(),
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

/**
 * The addresses of the fixture wallets miner and main on this backend, when both files list them: a cold build can
 * mine to them before the wallets are restored.
 */
export function fixtureAddresses(
  backend: string,
  dir = FIXTURE_WALLETS_DIR,
): { miner: MiningAddresses; main: MiningAddresses } | undefined {
  const miner = fixtureWallet('miner', dir).addresses?.[backend];
  const main = fixtureWallet('main', dir).addresses?.[backend];
  return miner && main ? { miner, main } : undefined;
}

/** How the restored wallets differ from the fixture files' addresses for this backend (undefined: they do not). */
export function addressMismatch(
  known: { miner: MiningAddresses; main: MiningAddresses },
  got: Partial<Record<'miner' | 'main', MiningAddresses>>,
  backend: string,
): string | undefined {
  for (const name of ['miner', 'main'] as const) {
    const k = known[name];
    const g = got[name];
    if (g?.cn !== k.cn || g.carrot !== k.carrot)
      return `fixtures/wallets/${name}.json lists ${k.cn}${k.carrot ? ` / ${k.carrot}` : ''} for ${backend}, but the wallet CLI restored ${g?.cn ?? 'nothing'}${g?.carrot ? ` / ${g.carrot}` : ''} from its seed`;
  }
  return undefined;
}
