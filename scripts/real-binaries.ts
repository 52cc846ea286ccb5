// Where the real Salvium programs are for the real-Salvium test tier, the bench and the pass-rate
// script: SALTNET_BIN_DIR, or the release tarball in ../shared/salvium/ (beside the repository)
// unpacked once, by its content, into the OS temp folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x as untar } from 'tar';

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

/** The shared release tarball unpacked (once per tarball content) into the OS temp folder. */
async function fromSharedTarball(repoRoot: string): Promise<string | undefined> {
  const shared = join(repoRoot, '..', 'shared', 'salvium');
  if (!existsSync(shared)) return undefined;
  const tarball = readdirSync(shared).find((n) => /^salvium-.*\.tar\.gz$/.test(n));
  if (!tarball) return undefined;
  const digest = createHash('sha256')
    .update(readFileSync(join(shared, tarball)))
    .digest('hex')
    .slice(0, 12);
  const into = join(tmpdir(), `saltnet-real-bin-${digest}`);
  if (!existsSync(into)) {
    const staging = mkdtempSync(`${into}.tmp-`);
    try {
      await untar({ file: join(shared, tarball), cwd: staging });
      renameSync(staging, into);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(into)) throw err; // another run unpacked it meanwhile: fine
    }
  }
  return [into, ...readdirSync(into).map((n) => join(into, n))].find(hasPrograms);
}

/** What the dynamic linker cannot find for salviumd (the runtime libraries in ../shared/salvium/README.md). */
export function missingLibraries(dir: string): string[] {
  try {
    return execFileSync('ldd', [join(dir, 'salviumd')], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => l.includes('not found'))
      .map((l) => l.trim());
  } catch {
    return [];
  }
}

export type RealBinaries = { dir: string } | { why: string };

/** The real programs' folder, or why there is none that runs here. */
export async function findRealBinaries(repoRoot: string): Promise<RealBinaries> {
  const env = process.env.SALTNET_BIN_DIR;
  const dir = env && hasPrograms(env) ? env : await fromSharedTarball(repoRoot);
  if (!dir)
    return { why: 'no real Salvium binaries (set SALTNET_BIN_DIR, or keep the release tarball in ../shared/salvium/)' };
  const missing = missingLibraries(dir);
  if (missing.length)
    return {
      why: `the real binaries in ${dir} lack runtime libraries (${missing.join('; ')}): see ../shared/salvium/README.md`,
    };
  return { dir };
}
