// vitest globalSetup of the real-Salvium tier: find the real programs (scripts/real-binaries.ts:
// SALTNET_BIN_DIR, else the newest release `saltnet install` put in the cache, else the release
// tarball in ../shared/salvium/ unpacked once) and hand their folder to the tier's files as
// SALTNET_REAL_BIN_DIR, with a chain-state cache of the tier's own (SALTNET_REAL_CACHE_DIR: the
// first file that needs the default chain builds it, the others restore it). The tarball itself,
// when there is one, is SALTNET_REAL_TARBALL (the `saltnet install --from` test installs it).
// Without binaries the tier is skipped, and says so; in CI (CI set) it must run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRealBinaries, sharedTarball } from '../../scripts/real-binaries.js';

export default async function setup(): Promise<() => void> {
  // Both real projects (real-beside, real: vitest.config.ts) name this setup: once per run, one cache for both.
  if (process.env.SALTNET_REAL_SET_UP) return () => undefined;
  process.env.SALTNET_REAL_SET_UP = '1';
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const found = await findRealBinaries(root);
  if ('why' in found) {
    if (process.env.CI) throw new Error(`the real-Salvium tier must run in CI (CI is set): ${found.why}`);
    process.stderr.write(`\nsaltnet: real-Salvium tier SKIPPED: ${found.why}\n\n`);
    return () => undefined;
  }
  process.stderr.write(`\nsaltnet: real-Salvium tier runs on ${found.dir} (from ${found.from})\n\n`);
  process.env.SALTNET_REAL_BIN_DIR = found.dir;
  const tarball = sharedTarball(root);
  if (tarball) process.env.SALTNET_REAL_TARBALL = tarball;
  const cache = mkdtempSync(join(tmpdir(), 'saltnet-real-cache-'));
  process.env.SALTNET_REAL_CACHE_DIR = cache;
  return () => rmSync(cache, { recursive: true, force: true });
}
