// Where the real Salvium programs are for the real-Salvium test tier, the bench and the pass-rate
// script: SALTNET_BIN_DIR; else the newest release `saltnet install` put in the cache; else the
// release tarball in ../shared/salvium/ (beside the repository) unpacked once, by its content, into
// the OS temp folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x as untar } from 'tar';
import { resolveCacheDir } from '../harness/common/cache-dir.js';
import { notFoundLibraries, packagesFor } from '../harness/install/debian.js';
import { listInstalled } from '../harness/install/marker.js';
import { platformFor } from '../harness/install/platform.js';

const PROGRAMS = ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc'];

export function hasPrograms(dir: string): boolean {
  return PROGRAMS.every((p) => {
    try {
      accessSync(join(dir, p), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The release tarball in ../shared/salvium/, if there is one. */
export function sharedTarball(repoRoot: string): string | undefined {
  const shared = join(repoRoot, '..', 'shared', 'salvium');
  if (!existsSync(shared)) return undefined;
  const tarball = readdirSync(shared).find((n) => /^salvium-.*\.tar\.gz$/.test(n));
  return tarball ? join(shared, tarball) : undefined;
}

/** The shared release tarball unpacked (once per tarball content) into the OS temp folder. */
async function fromSharedTarball(repoRoot: string): Promise<string | undefined> {
  const tarball = sharedTarball(repoRoot);
  if (!tarball) return undefined;
  const digest = createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 12);
  const into = join(tmpdir(), `saltnet-real-bin-${digest}`);
  if (!existsSync(into)) {
    const staging = mkdtempSync(`${into}.tmp-`);
    try {
      await untar({ file: tarball, cwd: staging });
      renameSync(staging, into);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(into)) throw err; // another run unpacked it meanwhile: fine
    }
  }
  return [into, ...readdirSync(into).map((n) => join(into, n))].find(hasPrograms);
}

/**
 * The newest installed release: in the cache SALTNET_CACHE_DIR names, else in the default cache (under vitest,
 * SALTNET_CACHE_DIR is the run's own temporary cache, so a release the user installed is in the default one).
 */
export function installedRelease(env: NodeJS.ProcessEnv = process.env): { dir: string; version: string } | undefined {
  let platform;
  try {
    platform = platformFor();
  } catch {
    return undefined;
  }
  const caches = [resolveCacheDir({ env }), resolveCacheDir({ env: { ...env, SALTNET_CACHE_DIR: undefined } })];
  for (const cache of new Set(caches)) {
    const newest = listInstalled(join(cache, 'bin'), platform)[0];
    if (newest) return { dir: newest.binDir, version: newest.version };
  }
  return undefined;
}

/** What the dynamic linker cannot find for salviumd (the runtime libraries in ../shared/salvium/README.md). */
export function missingLibraries(dir: string): string[] {
  try {
    return notFoundLibraries(execFileSync('ldd', [join(dir, 'salviumd')], { encoding: 'utf8' }));
  } catch {
    return [];
  }
}

export type RealBinaries = { dir: string; from: string } | { why: string };

/** The real programs' folder and where it came from, or why there is none that runs here. */
export async function findRealBinaries(repoRoot: string): Promise<RealBinaries> {
  const env = process.env.SALTNET_BIN_DIR;
  let found: { dir: string; from: string } | undefined;
  if (env && hasPrograms(env)) found = { dir: env, from: 'SALTNET_BIN_DIR' };
  const installed = found ? undefined : installedRelease();
  if (installed) found = { dir: installed.dir, from: `the installed release ${installed.version}` };
  if (!found) {
    const dir = await fromSharedTarball(repoRoot);
    if (dir) found = { dir, from: `${sharedTarball(repoRoot)}, unpacked` };
  }
  if (!found)
    return {
      why: 'no real Salvium binaries (set SALTNET_BIN_DIR, install a release with `saltnet install --from <archive>`, or keep the release tarball in ../shared/salvium/)',
    };
  const missing = missingLibraries(found.dir);
  if (missing.length)
    return {
      why: `the real binaries in ${found.dir} lack runtime libraries (${missing.join(', ')}): apt-get install -y ${packagesFor(missing).packages.join(' ')} (see ../shared/salvium/README.md)`,
    };
  return found;
}
