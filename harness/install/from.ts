// `saltnet install --from <archive|folder>`: a release that is already on this machine (the
// release tarball CI keeps in ../shared/salvium/, a download made elsewhere, a folder of programs
// built from source) installed into the cache exactly as a download is: copied into a staging
// folder, unpacked, its programs checked (they link and run; its own SHA256SUMS agrees), the
// version they print recorded, and published in one rename as <cacheDir>/bin/salvium-<version>/.
// The version is what `salviumd --version` prints (`(v1.1.3c-…)` → v1.1.3c) unless --version says it.
import { statSync } from 'node:fs';
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { hashPath } from '../common/files.js';
import { findBinaries } from './binaries.js';
import { tagOf, type Ldd } from './checks.js';
import { downloadTo } from './download.js';
import { InstallError } from './errors.js';
import { findInstalled, type HashFrom, type InstallResult } from './marker.js';
import type { PlatformId } from './platform.js';
import { DEFAULT_TABLE_FILE, loadReleaseTable, normalizeVersion } from './releases.js';
import { inspectTree, prepareBinRoot, publishInstall, withStaging } from './stage.js';
import { describeTrusted, lookupTrusted, trustMismatch, type TrustedHash } from './trust.js';
import { archiveFormat, SUPPORTED_FORMATS, unpack } from './unpack.js';
import { checkSha256, sha256Option } from './verify.js';

/** How deep below a --from folder the programs are looked for (a build tree's `bin/` is 1 to 3 down). */
export const FROM_FOLDER_DEPTH = 3;

export interface FromOptions {
  version?: string;
  sha256?: string;
  force?: boolean;
  releasesFile?: string;
  maxBytes?: number;
  maxUnpackedBytes?: number;
  mirror?: string;
  asset?: string;
  trustOnFirstUse?: boolean;
  checkHashesFile?: string;
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  platform: PlatformId;
  binRoot: string;
  ldd?: Ldd;
  signal?: AbortSignal;
}

interface Ctx extends FromOptions {
  path: string;
  /** --version, normalised. */
  given?: string;
  sha?: string;
}

/** The version to install under: --version when it agrees with what the programs print, else what they print. */
export function versionOf(programVersion: string, given: string | undefined, label: string): string {
  const tag = tagOf(programVersion);
  if (given !== undefined) {
    if (tag && !programVersion.includes(given.replace(/^v/, '')))
      throw new InstallError(
        'BAD_OPTIONS',
        `--version ${given} does not match ${label}: its salviumd --version prints "${programVersion}" (${tag}); leave --version out or pass --version ${tag}`,
      );
    return given;
  }
  if (!tag)
    throw new InstallError(
      'BAD_OPTIONS',
      `cannot tell the version of ${label}: salviumd --version printed "${programVersion}"; pass --version V`,
    );
  return tag;
}

/** The hash this version + archive name must have (pinned, or recorded on first use), and what to record. */
function expectation(
  c: Ctx,
  version: string,
  asset: string,
  actual: string,
): { hashFrom: HashFrom; record?: TrustedHash } {
  const table = loadReleaseTable(c.releasesFile ?? (c.env.SALTNET_RELEASES_FILE || DEFAULT_TABLE_FILE));
  const pinned = table.releases.find((r) => r.version === version)?.assets.find((a) => a.name === asset);
  const what = `${asset} (Salvium ${version})`;
  if (pinned) {
    checkSha256(actual, pinned.sha256, { version, asset, from: c.path, expectedFrom: 'the pinned table' });
    return { hashFrom: 'pinned' };
  }
  const recorded = lookupTrusted(c.binRoot, version, asset);
  if (recorded) {
    if (recorded.sha256 !== actual) throw trustMismatch(c.binRoot, recorded, actual, what);
    c.log(`saltnet install: sha256 ${actual} matches ${describeTrusted(c.binRoot, recorded)}`);
    return { hashFrom: 'trust-on-first-use' };
  }
  const how = c.sha ? ('sha256-option' as const) : ('local' as const);
  const recordedAt = new Date().toISOString();
  return { hashFrom: how, record: { version, asset, sha256: actual, how, from: c.path, recordedAt } };
}

async function fromArchive(c: Ctx): Promise<InstallResult> {
  const asset = basename(c.path);
  const format = archiveFormat(asset);
  if (!format)
    throw new InstallError(
      'BAD_OPTIONS',
      `--from ${c.path}: neither a folder nor an archive saltnet can unpack (${SUPPORTED_FORMATS})`,
    );
  return withStaging(c.binRoot, 'salvium-from', async (staging) => {
    const copy = join(staging, `archive.${format}`);
    c.log(`saltnet install: reading ${c.path}`);
    const dl = await downloadTo({ kind: 'file', dir: dirname(c.path), candidates: [c.path] }, copy, {
      maxBytes: c.maxBytes,
      what: asset,
      signal: c.signal,
    });
    const v = c.given ?? '(version not known yet)';
    if (c.sha) checkSha256(dl.sha256, c.sha, { version: v, asset, from: c.path, expectedFrom: '--sha256' });
    const same = c.force
      ? undefined
      : findInstalled(c.binRoot, c.platform, (r) => r.sha256 === dl.sha256 && (!c.given || r.version === c.given));
    if (same) return same;
    const tree = join(staging, 'tree');
    await mkdir(tree);
    const label = asset;
    await unpack(copy, format, tree, label, c.maxUnpackedBytes, c.signal);
    const inspected = await inspectTree(tree, {
      platform: c.platform,
      label,
      ldd: c.ldd,
      log: c.log,
      signal: c.signal,
    });
    c.signal?.throwIfAborted();
    const version = versionOf(inspected.checked.programVersion, c.given, label);
    const e = expectation(c, version, asset, dl.sha256);
    return publishInstall({
      binRoot: c.binRoot,
      tree,
      inspected,
      platform: c.platform,
      version,
      asset,
      sha256: dl.sha256,
      from: c.path,
      ...e,
    });
  });
}

/** The regular files (symlinks followed) directly in `dir`, copied into `into`; sub-folders are not. */
async function copyFiles(dir: string, into: string): Promise<void> {
  for (const d of await readdir(dir, { withFileTypes: true })) {
    const src = join(dir, d.name);
    if (d.isFile() || (d.isSymbolicLink() && (await stat(src).catch(() => undefined))?.isFile()))
      await copyFile(src, join(into, d.name));
  }
}

async function fromFolder(c: Ctx): Promise<InstallResult> {
  const label = `--from ${c.path}`;
  const src = await findBinaries(c.path, c.platform, label, FROM_FOLDER_DEPTH);
  const hashes = new Map<string, string>();
  for (const [role, p] of Object.entries(src.paths)) hashes.set(role, (await hashPath(p)).sha256);
  const sameHashes = (r: InstallResult): boolean =>
    Object.entries(r.programSha256).every(([role, h]) => hashes.get(role) === h);
  const same = c.force
    ? undefined
    : findInstalled(c.binRoot, c.platform, (r) => sameHashes(r) && (!c.given || r.version === c.given));
  if (same) return same;
  return withStaging(c.binRoot, 'salvium-from', async (staging) => {
    const tree = join(staging, 'tree');
    await mkdir(tree);
    c.log(`saltnet install: copying the programs in ${src.dir}`);
    await copyFiles(src.dir, tree);
    const inspected = await inspectTree(tree, {
      platform: c.platform,
      label,
      ldd: c.ldd,
      log: c.log,
      origin: src.dir,
      signal: c.signal,
    });
    c.signal?.throwIfAborted();
    return publishInstall({
      binRoot: c.binRoot,
      tree,
      inspected,
      platform: c.platform,
      version: versionOf(inspected.checked.programVersion, c.given, label),
      asset: basename(src.dir),
      sha256: null,
      hashFrom: 'local',
      from: src.dir,
    });
  });
}

/** Install the release archive or folder at `from`. */
export async function installFrom(from: string, o: FromOptions): Promise<InstallResult> {
  const clash = (
    [
      ['mirror', o.mirror],
      ['asset', o.asset],
      ['trust-on-first-use', o.trustOnFirstUse],
      ['check-hashes-file', o.checkHashesFile],
    ] as const
  ).filter(([, v]) => v !== undefined && v !== false);
  if (clash.length)
    throw new InstallError(
      'BAD_OPTIONS',
      `--from installs what is on this machine: it takes no ${clash.map(([k]) => `--${k}`).join(', ')}`,
    );
  const path = resolve(from);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new InstallError('BAD_OPTIONS', `--from ${from}: no such file or folder (${path})`);
  }
  const c: Ctx = {
    ...o,
    path,
    given: o.version === undefined ? undefined : normalizeVersion(o.version),
    sha: sha256Option(o.sha256),
  };
  if (isDir && c.sha)
    throw new InstallError('BAD_OPTIONS', `--sha256 checks an archive, and --from ${from} is a folder`);
  await prepareBinRoot(o.binRoot);
  const r = await (isDir ? fromFolder(c) : fromArchive(c));
  if (r.alreadyInstalled) o.log(`saltnet install: ${from} is installed already as Salvium ${r.version}`);
  return r;
}
