// The simulator's public face: what the harness may use of it. The simulator itself imports nothing
// from the harness (but the Digest code both sides speak, harness/digest/digest.ts); the harness
// reaches into it only through this module.
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { blocksFileHeight } from './chain/height.js';

export { BLOCKS_FILE as SIM_BLOCKS_FILE } from './chain/height.js';
export { VERSION_LINE as SIM_VERSION_LINE } from './common/version.js';
export { decode as base58Decode } from './crypto/base58.js';
export { decodeVarint } from './crypto/varint.js';
export { TREASURY_MINT, TxType } from './chain/constants.js';
export { REPLAY_HEADER as SIM_REPLAY_HEADER } from './http/replay.js';

/** The folder with the simulated `salviumd`, `salvium-wallet-cli` and `salvium-wallet-rpc` (a drop-in --bin-dir). */
export const SIM_BIN_DIR = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../../harness/sim/bin/' : './bin/', import.meta.url),
);

/**
 * The simulator's chain rules live in its compiled code (what bin/ runs): a hash of all of it, for chain cache keys.
 */
export async function simCodeHash(): Promise<string> {
  const root = join(SIM_BIN_DIR, '..', '..', '..', 'dist', 'harness', 'sim');
  const files = (await readdir(root, { recursive: true, withFileTypes: true }))
    // Its bundles (scripts/bundle.ts) are made of these modules: a key is the same before the bundle step and after.
    .filter((e) => e.isFile() && e.name.endsWith('.js') && !e.name.endsWith('.bundle.js'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
  const h = createHash('sha256');
  for (const f of files)
    h.update(relative(root, f))
      .update('\0')
      .update(await readFile(f))
      .update('\0');
  return h.digest('hex');
}

/** The height of the simulated chain in a daemon's blocks file (SIM_BLOCKS_FILE), as the simulator would load it. */
export async function simChainHeight(file: string): Promise<number> {
  return blocksFileHeight(await readFile(file));
}
