// `saltnet install`: download a Salvium release archive for this platform, check it against the
// pinned SHA-256, unpack it and publish it as <cacheDir>/bin/salvium-<version>/ in one rename.
//
//   <cacheDir>/bin/salvium-<version>/                 a finished install (what the archive holds)
//   <cacheDir>/bin/salvium-<version>/.saltnet-install.json   marker: version, asset, verified sha256, binDir
//   <cacheDir>/bin/.tmp-salvium-<version>-<pid>-<rand>/      an install in progress (archive + tree/)
//
// Nothing is written outside a .tmp- folder until the archive is verified, unpacked and its three
// programs found executable; a kill at any moment leaves at most a .tmp- folder, which the next
// run removes (snapshot/staging.ts: the pid in its name is dead, or it was not touched for a minute).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { z } from 'zod';
import { cacheDir as resolveCache } from '../common/cache-dir.js';
import { cleanStale, publish, removeQuietly, stagingName, startHeartbeat } from '../common/staging.js';
import { findBinaries, makeExecutable } from './binaries.js';
import { archiveSource, DEFAULT_BASE_URL, describeSource, downloadTo, type ArchiveSource } from './download.js';
import { InstallError } from './errors.js';
import { binaryNames, guessAssetName, PLATFORMS, platformFor, type PlatformId } from './platform.js';
import {
  ASSET_NAME_RE,
  compareVersionsDesc,
  DEFAULT_TABLE_FILE,
  loadReleaseTable,
  normalizeVersion,
  PIN_HINT,
  SHA256_RE,
  type ReleaseTable,
} from './releases.js';
import { archiveFormat, SUPPORTED_FORMATS, unpack, type ArchiveFormat } from './unpack.js';
import { checkAgainstHashesFile, checkSha256 } from './verify.js';
import { makeDirsAsync } from '../common/mkdir.js';

export const MARKER_FILE = '.saltnet-install.json';

export interface InstallOptions {
  /** A release tag (`v1.1.3c`, or `1.1.3c`); default: the newest pinned one. */
  version?: string;
  /** Base URL (or local folder) instead of GitHub releases; default $SALTNET_RELEASE_MIRROR. */
  mirror?: string;
  /** Install against this hash instead of (or, for a pinned asset, in agreement with) the table. */
  sha256?: string;
  /** The archive's file name, instead of the table's (or the guessed) name for this platform. */
  asset?: string;
  /** Install again even when the same version is installed. */
  force?: boolean;
  /** `--cache-dir`; see snapshot/cache-dir.ts. */
  cacheDir?: string;
  /** A release table file instead of fixtures/releases/salvium.json; default $SALTNET_RELEASES_FILE. */
  releasesFile?: string;
  /** A hashes file (URL or path) that must list the asset with the expected hash. */
  checkHashesFile?: string;
  /** Build for another platform than this machine's (the CLI does not offer this; tests do). */
  platform?: PlatformId;
  maxBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** Progress lines ("downloading …"); default: none. */
  log?: (line: string) => void;
}

export interface InstallResult {
  version: string;
  platform: PlatformId;
  asset: string;
  /** The verified SHA-256 of the archive. */
  sha256: string;
  /** Where that hash came from: the pinned table, or --sha256. */
  hashFrom: 'pinned' | 'sha256-option';
  /** Where the archive was (or, when already installed, had been) downloaded from. */
  from: string;
  /** <cacheDir>/bin/salvium-<version> */
  installDir: string;
  /** The folder holding the three programs: pass it as --bin-dir or SALTNET_BIN_DIR. */
  binDir: string;
  binaries: { daemon: string; walletCli: string; walletRpc: string };
  alreadyInstalled: boolean;
}

const MarkerSchema = z.object({
  version: z.string(),
  platform: z.enum(PLATFORMS),
  asset: z.string(),
  sha256: z.string().regex(SHA256_RE),
  hashFrom: z.enum(['pinned', 'sha256-option']),
  from: z.string(),
  /** Relative POSIX path from the install folder to the binaries ('' when at the top). */
  binDir: z.string(),
  installedAt: z.string(),
});
type Marker = z.infer<typeof MarkerSchema>;

interface Plan {
  version: string;
  asset: string;
  /** undefined: an unlisted version without --sha256 (only an existing install can satisfy it). */
  sha256: string | undefined;
  hashFrom: 'pinned' | 'sha256-option';
  /** For messages: where the hash comes from. */
  expectedFrom: string;
}

function knownVersions(table: ReleaseTable): string {
  const list = table.releases.map((r) => r.version).sort(compareVersionsDesc);
  return list.length ? `known versions: ${list.join(', ')}` : 'no version is pinned yet';
}

/** Which archive and which hash, from the table and the options; throws on anything contradictory. */
function plan(table: ReleaseTable, tableFile: string, opts: InstallOptions, platform: PlatformId): Plan {
  const sha = opts.sha256?.trim().toLowerCase();
  if (sha !== undefined && !SHA256_RE.test(sha))
    throw new InstallError('BAD_OPTIONS', `--sha256 must be 64 hex digits, got ${JSON.stringify(opts.sha256)}`);
  if (opts.asset !== undefined && !ASSET_NAME_RE.test(opts.asset))
    throw new InstallError(
      'BAD_OPTIONS',
      `--asset must be a plain file name (letters, digits, '.', '_', '+', '-'), got ${JSON.stringify(opts.asset)}`,
    );
  let version: string;
  if (opts.version !== undefined) version = normalizeVersion(opts.version);
  else {
    const newest = [...table.releases].sort((a, b) => compareVersionsDesc(a.version, b.version))[0];
    if (!newest) throw new InstallError('UNKNOWN_VERSION', `no Salvium release is pinned in ${tableFile}: ${PIN_HINT}`);
    version = newest.version;
  }
  const entry = table.releases.find((r) => r.version === version);
  const fromTable = `the pinned table ${tableFile}`;
  if (!entry) {
    const asset = opts.asset ?? guessAssetName(version, platform);
    if (sha === undefined)
      return { version, asset, sha256: undefined, hashFrom: 'sha256-option', expectedFrom: '--sha256' };
    return { version, asset, sha256: sha, hashFrom: 'sha256-option', expectedFrom: '--sha256' };
  }
  const pinned =
    opts.asset !== undefined
      ? entry.assets.find((a) => a.name === opts.asset)
      : entry.assets.find((a) => a.platform === platform);
  const listing = entry.assets.map((a) => (a.platform ? `${a.name} (${a.platform})` : a.name)).join(', ');
  if (!pinned) {
    if (opts.asset !== undefined && sha !== undefined)
      return { version, asset: opts.asset, sha256: sha, hashFrom: 'sha256-option', expectedFrom: '--sha256' };
    const what =
      opts.asset !== undefined ? `no pinned archive named ${opts.asset}` : `no pinned archive for ${platform}`;
    throw new InstallError(
      'NO_ASSET',
      `Salvium ${version} has ${what} in ${tableFile} (pinned: ${listing}): pass --asset <name> --sha256 <hex> for an archive you checked yourself`,
    );
  }
  if (sha !== undefined && sha !== pinned.sha256) {
    throw new InstallError(
      'BAD_OPTIONS',
      `--sha256 ${sha} contradicts ${fromTable}, which pins ${pinned.name} of ${version} as ${pinned.sha256}`,
    );
  }
  return { version, asset: pinned.name, sha256: pinned.sha256, hashFrom: 'pinned', expectedFrom: fromTable };
}

/** The marker of a finished install whose programs are still there, or undefined. */
export function readInstalled(installDir: string, platform: PlatformId): Marker | undefined {
  let marker: Marker;
  try {
    marker = MarkerSchema.parse(JSON.parse(readFileSync(join(installDir, MARKER_FILE), 'utf8')));
  } catch {
    return undefined;
  }
  if (marker.platform !== platform) return undefined;
  const dir = join(installDir, ...marker.binDir.split('/').filter(Boolean));
  return Object.values(binaryNames(platform)).every((b) => existsSync(join(dir, b))) ? marker : undefined;
}

function resultOf(installDir: string, m: Marker, alreadyInstalled: boolean): InstallResult {
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
    alreadyInstalled,
  };
}

/**
 * An install already there that answers the plan (undefined: install). A plan without a hash (a version the table
 * does not pin, without --sha256) is answered only by an earlier install of that version, or refused.
 */
function reusable(
  existing: Marker | undefined,
  p: Plan,
  o: { installDir: string; table: ReleaseTable; tableFile: string; force?: boolean; log: (line: string) => void },
): InstallResult | undefined {
  if (p.sha256 === undefined) {
    // An unlisted version installed earlier with --sha256 is still a verified install.
    if (existing && existing.version === p.version && !o.force) return resultOf(o.installDir, existing, true);
    throw new InstallError(
      'UNKNOWN_VERSION',
      `Salvium ${p.version} is not in the pinned table ${o.tableFile} (${knownVersions(o.table)}): ${PIN_HINT}`,
    );
  }
  if (existing && !o.force) {
    if (existing.sha256 === p.sha256) return resultOf(o.installDir, existing, true);
    o.log(
      `saltnet install: ${o.installDir} holds an archive with sha256 ${existing.sha256}, expected ${p.sha256}: installing again`,
    );
  }
  return undefined;
}

interface Fetch {
  /** The install's staging folder: the archive goes there, and its tree into `tree/`. */
  staging: string;
  format: ArchiveFormat;
  platform: PlatformId;
  /** --mirror, SALTNET_RELEASE_MIRROR or the release site, and the archive's place there. */
  base: string;
  source: ArchiveSource;
  maxBytes?: number;
  log: (line: string) => void;
}

/**
 * Download the archive, refuse it unless its SHA-256 is `sha256`, unpack it and find its programs (made executable):
 * the tree to publish, with its marker written.
 */
async function fetchRelease(p: Plan, sha256: string, f: Fetch): Promise<{ tree: string; marker: Marker }> {
  const archive = join(f.staging, p.asset);
  const tree = join(f.staging, 'tree');
  await mkdir(tree);
  const what = `Salvium ${p.version} (${p.asset})`;
  f.log(`saltnet install: downloading ${what} from ${describeSource(f.source)}`);
  let dl;
  try {
    dl = await downloadTo(f.source, archive, { maxBytes: f.maxBytes, what });
  } catch (err) {
    if (err instanceof InstallError && err.code === 'DOWNLOAD_FAILED')
      throw withDownloadHint(err, p.version, p.asset, f.base, f.source.kind);
    throw err;
  }
  try {
    checkSha256(dl.sha256, sha256, { version: p.version, asset: p.asset, from: dl.from, expectedFrom: p.expectedFrom });
  } catch (err) {
    await rm(archive, { force: true }); // refused bytes do not stay on disk, not even for the moment until clean-up
    throw err;
  }
  f.log(
    `saltnet install: sha256 ${dl.sha256} matches ${p.hashFrom === 'pinned' ? 'the pinned hash' : '--sha256'}; unpacking`,
  );
  await unpack(archive, f.format, tree, `${p.asset} (Salvium ${p.version})`);
  await rm(archive, { force: true });
  const found = await findBinaries(tree, f.platform, `${p.asset} (Salvium ${p.version})`);
  await makeExecutable(found, f.platform, tree);
  const marker: Marker = {
    version: p.version,
    platform: f.platform,
    asset: p.asset,
    sha256: dl.sha256,
    hashFrom: p.hashFrom,
    from: dl.from,
    binDir: relative(tree, found.dir).split(sep).join('/'),
    installedAt: new Date().toISOString(),
  };
  await writeFile(join(tree, MARKER_FILE), `${JSON.stringify(marker, null, 2)}\n`, { mode: 0o644 });
  return { tree, marker };
}

export async function installSalvium(opts: InstallOptions = {}): Promise<InstallResult> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const platform = opts.platform ?? platformFor();
  const tableFile = opts.releasesFile ?? (env.SALTNET_RELEASES_FILE || DEFAULT_TABLE_FILE);
  const table = loadReleaseTable(tableFile);
  const p = plan(table, tableFile, opts, platform);
  const format = archiveFormat(p.asset);
  if (!format)
    throw new InstallError(
      'BAD_OPTIONS',
      `cannot unpack ${p.asset}: supported archive formats are ${SUPPORTED_FORMATS}`,
    );

  const binRoot = join(resolveCache({ cacheDir: opts.cacheDir, env }), 'bin');
  await makeDirsAsync(binRoot, 0o700);
  cleanStale(binRoot);
  const key = `salvium-${p.version}`;
  const installDir = join(binRoot, key);
  const existing = readInstalled(installDir, platform);
  const reused = reusable(existing, p, { installDir, table, tableFile, force: opts.force, log });
  if (reused) return reused;
  const sha256 = p.sha256!; // reusable() refused a plan without one

  const base = opts.mirror ?? (env.SALTNET_RELEASE_MIRROR || DEFAULT_BASE_URL);
  const source = archiveSource(base, p.version, p.asset);
  if (opts.checkHashesFile) await checkAgainstHashesFile(opts.checkHashesFile, p.asset, sha256, p.version);

  const staging = join(binRoot, stagingName('tmp', key));
  await mkdir(staging, { mode: 0o700 });
  const stopHeartbeat = startHeartbeat(staging);
  try {
    const { tree, marker } = await fetchRelease(p, sha256, {
      staging,
      format,
      platform,
      base,
      source,
      maxBytes: opts.maxBytes,
      log,
    });
    await publish(binRoot, tree, key);
    return resultOf(installDir, marker, false);
  } finally {
    stopHeartbeat();
    await removeQuietly(binRoot, staging);
  }
}

/** A download failure, plus where else the archive can come from. */
function withDownloadHint(
  err: InstallError,
  version: string,
  asset: string,
  base: string,
  kind: 'http' | 'file',
): InstallError {
  const notFound = /HTTP 404/.test(err.message);
  const hints = [
    notFound
      ? `is ${version} published with an asset named ${asset}? check the release page and pass --asset <name> if it is named differently`
      : undefined,
    kind === 'http' && base === DEFAULT_BASE_URL
      ? 'use --mirror <url> (or SALTNET_RELEASE_MIRROR) for a reachable copy of the release'
      : kind === 'http'
        ? `check --mirror / SALTNET_RELEASE_MIRROR (${base})`
        : undefined,
    `offline: download ${asset} elsewhere and pass --mirror <folder> with the file in <folder>/ or <folder>/${version}/ (it is still checked against the hash)`,
    'or skip the install: give `saltnet up` binaries you already have with --bin-dir, or use --backend sim',
  ].filter(Boolean);
  return new InstallError('DOWNLOAD_FAILED', `${err.message} (Salvium ${version})\nfix: ${hints.join(';\n     ')}`, {
    cause: err,
  });
}
