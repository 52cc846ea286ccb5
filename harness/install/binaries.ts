// Finding salviumd, salvium-wallet-cli and salvium-wallet-rpc in an unpacked archive (at its top,
// or nested in a `salvium-v…/` or `bin/` folder) and making sure they can run: zip tools on
// Windows and some CI upload steps drop the executable bit, so it is set again where missing.
import { accessSync, constants, statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { walk } from '../common/files.js';
import { InstallError } from './errors.js';
import { binaryNames, type PlatformId } from './platform.js';

export interface FoundBinaries {
  /** Absolute folder that holds all three. */
  dir: string;
  paths: { daemon: string; walletCli: string; walletRpc: string };
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile(); // follows a symlink that checkEntries allowed
  } catch {
    return false;
  }
}

/**
 * The shallowest folder under `root` (at most `maxDepth` folders down) holding all three programs; throws
 * MISSING_BINARIES listing what is there.
 */
export async function findBinaries(
  root: string,
  platform: PlatformId,
  label: string,
  maxDepth = Infinity,
): Promise<FoundBinaries> {
  const names = binaryNames(platform);
  const tree = await walk(root, { exclude: (p) => depth(p) > maxDepth + 1 });
  const dirs = ['', ...tree.dirs].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : 1));
  for (const d of dirs) {
    const dir = join(root, d);
    const paths = {
      daemon: join(dir, names.daemon),
      walletCli: join(dir, names.walletCli),
      walletRpc: join(dir, names.walletRpc),
    };
    if (Object.values(paths).every(isFile)) return { dir, paths };
  }
  const wanted = Object.values(names);
  const rank = (f: string): number => wanted.indexOf(f.split('/').pop() ?? '');
  const present = [...tree.files, ...tree.others.map((o) => o.path)]
    .filter((f) => rank(f) >= 0)
    .sort((a, b) => rank(a) - rank(b));
  const hint = Number.isFinite(maxDepth)
    ? `looked ${maxDepth} folder(s) deep: give the folder that holds the programs`
    : 'is this the right asset for this platform? pass --asset to pick another';
  throw new InstallError(
    'MISSING_BINARIES',
    `${label} holds no folder with all of ${Object.values(names).join(', ')}` +
      (present.length
        ? ` (found only ${present.join(', ')})`
        : ` (it holds ${tree.files.slice(0, 10).join(', ') || 'no files'}${tree.files.length > 10 ? ', …' : ''})`) +
      `: ${hint}`,
  );
}

function depth(rel: string): number {
  return rel === '' ? 0 : rel.split('/').length;
}

/** chmod u+x,g+x,o+x where the read bit is set but the execute bit was lost; then check X_OK. */
export async function makeExecutable(found: FoundBinaries, platform: PlatformId, root: string): Promise<void> {
  if (platform.startsWith('windows-') || process.platform === 'win32') return; // no execute bit there
  for (const p of Object.values(found.paths)) {
    const mode = statSync(p).mode & 0o777;
    const wanted = mode | ((mode & 0o444) >> 2) | 0o100;
    if (wanted !== mode) await chmod(p, wanted);
    try {
      accessSync(p, constants.X_OK);
    } catch {
      throw new InstallError('MISSING_BINARIES', `${relative(root, p).split(sep).join('/')} cannot be made executable`);
    }
  }
}
