// vitest globalSetup of the real-Salvium tier: find the real programs — SALTNET_BIN_DIR, or the
// release tarball in ../shared/salvium/ unpacked once into the OS temp folder — and hand their
// folder to the tier's files as SALTNET_REAL_BIN_DIR, with a chain-state cache of the tier's own
// (SALTNET_REAL_CACHE_DIR: the first file that needs the default chain builds it, the others
// restore it). Without binaries the tier is skipped, and says so; in CI (CI set) it must run.
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { x as untar } from 'tar';

const PROGRAMS = ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc'];

const hasPrograms = (dir: string): boolean =>
  PROGRAMS.every((p) => {
    try {
      accessSync(join(dir, p), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** The shared release tarball unpacked (once per tarball content) into the OS temp folder. */
async function fromSharedTarball(root: string): Promise<string | undefined> {
  const shared = join(root, '..', 'shared', 'salvium');
  if (!existsSync(shared)) return undefined;
  const tarball = readdirSync(shared).find((n) => /^salvium-.*\.tar\.gz$/.test(n));
  if (!tarball) return undefined;
  const data = readFileSync(join(shared, tarball));
  const into = join(tmpdir(), `saltnet-real-bin-${createHash('sha256').update(data).digest('hex').slice(0, 12)}`);
  if (!existsSync(into)) {
    const staging = mkdtempSync(`${into}.tmp-`);
    await untar({ file: join(shared, tarball), cwd: staging });
    renameSync(staging, into);
  }
  const dir = readdirSync(into).map((n) => join(into, n)).find(hasPrograms) ?? (hasPrograms(into) ? into : undefined);
  return dir;
}

/** What the dynamic linker cannot find for a program (the runtime libraries in ../shared/salvium/README.md). */
function missingLibraries(dir: string): string[] {
  try {
    return execFileSync('ldd', [join(dir, 'salviumd')], { encoding: 'utf8' }).split('\n').filter((l) => l.includes('not found')).map((l) => l.trim());
  } catch {
    return [];
  }
}

export default async function setup(): Promise<() => void> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const env = process.env.SALTNET_BIN_DIR;
  const dir = env && hasPrograms(env) ? env : await fromSharedTarball(root);
  const missing = dir ? missingLibraries(dir) : [];
  if (!dir || missing.length) {
    const why = !dir
      ? 'no real Salvium binaries (set SALTNET_BIN_DIR, or keep the release tarball in ../shared/salvium/)'
      : `the real binaries in ${dir} lack runtime libraries (${missing.join('; ')}): see ../shared/salvium/README.md`;
    if (process.env.CI) throw new Error(`the real-Salvium tier must run in CI, but there are ${why}`);
    process.stderr.write(`\nsaltnet: real-Salvium tier SKIPPED: ${why}\n\n`);
    return () => undefined;
  }
  process.stderr.write(`\nsaltnet: real-Salvium tier runs on ${dir}\n\n`);
  process.env.SALTNET_REAL_BIN_DIR = dir;
  const cache = join(tmpdir(), `saltnet-real-cache-${process.pid}`);
  mkdirSync(cache, { recursive: true });
  process.env.SALTNET_REAL_CACHE_DIR = cache;
  return () => rmSync(cache, { recursive: true, force: true });
}
