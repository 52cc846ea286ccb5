// The marker of a finished install, `<cacheDir>/bin/salvium-<version>/.saltnet-install.json`: what
// was installed, from where, checked against which hash, and what the programs print for
// --version. It is written last, after every check passed, so a folder with a marker is an install
// whose programs linked and ran; `auto` and `doctor` read the installs through it.
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { resolveCacheDir } from '../common/cache-dir.js';
import { binaryNames, PLATFORMS, type PlatformId } from './platform.js';
import { compareVersionsDesc, SHA256_RE } from './releases.js';

export const MARKER_FILE = '.saltnet-install.json';

/**
 * What the archive's hash was checked against: the pinned table, `--sha256`, the hash recorded when this version was
 * first installed (trust.ts), or nothing (`local`: a file or folder given with --from, with nothing on record for it).
 */
export const HASH_FROM = ['pinned', 'sha256-option', 'trust-on-first-use', 'local'] as const;
export type HashFrom = (typeof HASH_FROM)[number];

const Sha = z.string().regex(SHA256_RE);
const Programs = z.object({ daemon: Sha, walletCli: Sha, walletRpc: Sha });

export const MarkerSchema = z.object({
  version: z.string(),
  platform: z.enum(PLATFORMS),
  /** The archive's file name, or the folder's name for --from <folder>. */
  asset: z.string(),
  /** The archive's SHA-256; null for a folder. */
  sha256: Sha.nullable(),
  hashFrom: z.enum(HASH_FROM),
  /** The URL or path the archive (or folder) was read from. */
  from: z.string(),
  /** Relative POSIX path from the install folder to the binaries ('' when at the top). */
  binDir: z.string(),
  /** The first line `salviumd --version` printed. */
  programVersion: z.string(),
  /** SHA-256 of each program as installed. */
  programs: Programs,
  installedAt: z.string(),
});
export type Marker = z.infer<typeof MarkerSchema>;

export interface InstallResult {
  version: string;
  platform: PlatformId;
  asset: string;
  /** The archive's SHA-256 (null: installed from a folder). */
  sha256: string | null;
  hashFrom: HashFrom;
  /** Where the archive was (or, when already installed, had been) read from. */
  from: string;
  /** <cacheDir>/bin/salvium-<version> */
  installDir: string;
  /** The folder holding the three programs: pass it as --bin-dir or SALTNET_BIN_DIR. */
  binDir: string;
  binaries: { daemon: string; walletCli: string; walletRpc: string };
  /** What `salviumd --version` printed (its first line). */
  programVersion: string;
  /** SHA-256 of each program as installed. */
  programSha256: { daemon: string; walletCli: string; walletRpc: string };
  alreadyInstalled: boolean;
}

/** <cacheDir>/bin: where installs live (the --cache-dir option, else SALTNET_CACHE_DIR, XDG, ~/.cache). */
export function binRootOf(opts: { cacheDir?: string; env?: NodeJS.ProcessEnv } = {}): string {
  return join(resolveCacheDir(opts), 'bin');
}

const runnable = (p: string): boolean => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The marker of a finished install whose programs are still there and executable, or undefined. */
export function readInstalled(installDir: string, platform: PlatformId): Marker | undefined {
  let marker: Marker;
  try {
    marker = MarkerSchema.parse(JSON.parse(readFileSync(join(installDir, MARKER_FILE), 'utf8')));
  } catch {
    return undefined; // none, unreadable, or written by an older saltnet before the programs were checked
  }
  if (marker.platform !== platform) return undefined;
  const dir = join(installDir, ...marker.binDir.split('/').filter(Boolean));
  return Object.values(binaryNames(platform)).every((b) => runnable(join(dir, b))) ? marker : undefined;
}

export function resultOf(installDir: string, m: Marker, alreadyInstalled: boolean): InstallResult {
  const binDir = join(installDir, ...m.binDir.split('/').filter(Boolean));
  const names = binaryNames(m.platform);
  return {
    version: m.version,
    platform: m.platform,
    asset: m.asset,
    sha256: m.sha256,
    hashFrom: m.hashFrom,
    from: m.from,
    installDir,
    binDir,
    binaries: {
      daemon: join(binDir, names.daemon),
      walletCli: join(binDir, names.walletCli),
      walletRpc: join(binDir, names.walletRpc),
    },
    programVersion: m.programVersion,
    programSha256: m.programs,
    alreadyInstalled,
  };
}

export async function writeMarker(tree: string, marker: Marker): Promise<void> {
  await writeFile(join(tree, MARKER_FILE), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o644 });
}

/** Every finished install in `binRoot` for `platform`, newest version first. */
export function listInstalled(binRoot: string, platform: PlatformId): InstallResult[] {
  let names: string[];
  try {
    names = readdirSync(binRoot);
  } catch {
    return [];
  }
  const found: InstallResult[] = [];
  for (const name of names) {
    if (!name.startsWith('salvium-')) continue;
    const dir = join(binRoot, name);
    const m = readInstalled(dir, platform);
    if (m && `salvium-${m.version}` === name) found.push(resultOf(dir, m, true));
  }
  return found.sort((a, b) => compareVersionsDesc(a.version, b.version));
}

/** The install whose marker satisfies `match`, if any (e.g. the same archive hash installed under its version). */
export function findInstalled(
  binRoot: string,
  platform: PlatformId,
  match: (r: InstallResult) => boolean,
): InstallResult | undefined {
  return listInstalled(binRoot, platform).find(match);
}
