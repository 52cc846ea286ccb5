// `saltnet install`: download a Salvium release archive for this platform, check it against the
// pinned SHA-256 (or --sha256, or the hash recorded when it was first installed: trust.ts), unpack
// it, check that its programs link and run (checks.ts) and publish it as
// <cacheDir>/bin/salvium-<version>/ in one rename (stage.ts). `--from` (from.ts) installs an
// archive or folder that is already on this machine the same way.
//
//   <cacheDir>/bin/salvium-<version>/                 a finished install (what the archive's single top folder holds)
//   <cacheDir>/bin/salvium-<version>/.saltnet-install.json   marker (marker.ts)
//   <cacheDir>/bin/.tmp-salvium-<version>-<pid>-<rand>/      an install in progress (archive + tree/)
//   <cacheDir>/bin/trusted-sha256.json                       hashes accepted on first use (trust.ts)
//
// Nothing is written outside a .tmp- folder until the archive is verified, unpacked and its three
// programs found executable, linked and running; a kill at any moment leaves at most a .tmp-
// folder, which the next run removes (common/staging.ts: the pid in its name is dead, or it was
// not touched for a minute).
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Ldd } from './checks.js';
import {
  archiveSource,
  DEFAULT_BASE_URL,
  describeSource,
  downloadTo,
  type ArchiveSource,
  type Pace,
} from './download.js';
import { InstallError } from './errors.js';
import { installFrom } from './from.js';
import { binRootOf, readInstalled, resultOf, type HashFrom, type InstallResult, type Marker } from './marker.js';
import { guessAssetName, platformFor, type PlatformId } from './platform.js';
import {
  ASSET_NAME_RE,
  compareVersionsDesc,
  DEFAULT_TABLE_FILE,
  loadReleaseTable,
  normalizeVersion,
  PIN_HINT,
  type ReleaseTable,
} from './releases.js';
import { inspectTree, prepareBinRoot, publishInstall, withStaging, type Inspected } from './stage.js';
import { describeTrusted, lookupTrusted, trustFilePath } from './trust.js';
import { archiveFormat, SUPPORTED_FORMATS, unpack, type ArchiveFormat } from './unpack.js';
import { checkAgainstHashesFile, checkSha256, sha256Option } from './verify.js';

export { MARKER_FILE, type InstallResult } from './marker.js';

export interface InstallOptions {
  /** A release tag (`v1.1.3c`, or `1.1.3c`); default: the newest pinned one (with `from`: what the programs print). */
  version?: string;
  /** A release archive or folder on this machine to install instead of downloading one. */
  from?: string;
  /** Base URL (or local folder) instead of GitHub releases; default $SALTNET_RELEASE_MIRROR. */
  mirror?: string;
  /** Install against this hash instead of (or, for a pinned asset, in agreement with) the table. */
  sha256?: string;
  /** A version the table does not pin, without --sha256: accept what arrives, print its hash and record it. */
  trustOnFirstUse?: boolean;
  /** The archive's file name, instead of the table's (or the guessed) name for this platform. */
  asset?: string;
  /** Install again even when the same version is installed. */
  force?: boolean;
  /** `--cache-dir`; see common/cache-dir.ts. */
  cacheDir?: string;
  /** A release table file instead of fixtures/releases/salvium.json; default $SALTNET_RELEASES_FILE. */
  releasesFile?: string;
  /** A hashes file (URL or path) that must list the asset with the expected hash. */
  checkHashesFile?: string;
  /** Build for another platform than this machine's (the CLI does not offer this; tests do). */
  platform?: PlatformId;
  /** The largest archive download (default download.ts's DEFAULT_MAX_BYTES). */
  maxBytes?: number;
  /** The most content an archive may declare (default unpack.ts's DEFAULT_MAX_UNPACKED_BYTES, 4 GiB). */
  maxUnpackedBytes?: number;
  env?: NodeJS.ProcessEnv;
  /** Progress lines ("downloading …"); default: none. */
  log?: (line: string) => void;
  /** `ldd` (checks.ts); tests pass a fake one. */
  ldd?: Ldd;
  /** How fast a download must go, and how often it says how far it is (download.ts's DEFAULT_PACE). */
  pace?: Pace;
  /**
   * Stops the install (Ctrl-C, SIGTERM: the CLI aborts it): the download, unpacking and the programs' runs end, the
   * staging folder is removed, nothing is installed, and the promise rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

interface Plan {
  version: string;
  asset: string;
  /** undefined: trust on first use (`tofu`), or an unlisted version without a hash (only an existing install fits). */
  sha256: string | undefined;
  hashFrom: HashFrom;
  /** For messages: where the hash comes from. */
  expectedFrom: string;
  /** Record the archive's hash as this version + asset's (a version the table does not pin). */
  record: boolean;
  tofu: boolean;
}

function knownVersions(table: ReleaseTable): string {
  const list = table.releases.map((r) => r.version).sort(compareVersionsDesc);
  return list.length ? `known versions: ${list.join(', ')}` : 'no version is pinned yet';
}

/** A version the table does not pin: the hash on record, else --sha256, else trust on first use, else none. */
function unpinnedPlan(
  version: string,
  asset: string,
  sha: string | undefined,
  o: InstallOptions,
  binRoot: string,
): Plan {
  const recorded = lookupTrusted(binRoot, version, asset);
  const base = { version, asset, record: true, tofu: false };
  if (recorded) {
    if (sha !== undefined && sha !== recorded.sha256)
      throw new InstallError(
        'HASH_MISMATCH',
        `--sha256 ${sha} contradicts ${describeTrusted(binRoot, recorded)}, which is ${recorded.sha256} for ${asset} of ${version}: ` +
          `nothing was downloaded. If it was re-published on purpose, delete its entry from ${trustFilePath(binRoot)}`,
      );
    const expectedFrom = describeTrusted(binRoot, recorded);
    return { ...base, sha256: recorded.sha256, hashFrom: 'trust-on-first-use', expectedFrom, record: false };
  }
  if (sha !== undefined) return { ...base, sha256: sha, hashFrom: 'sha256-option', expectedFrom: '--sha256' };
  if (o.trustOnFirstUse)
    return { ...base, sha256: undefined, hashFrom: 'trust-on-first-use', expectedFrom: 'nothing', tofu: true };
  return { ...base, sha256: undefined, hashFrom: 'sha256-option', expectedFrom: '--sha256', record: false };
}

/** Which archive and which hash, from the table, the record and the options; throws on anything contradictory. */
function plan(
  table: ReleaseTable,
  tableFile: string,
  opts: InstallOptions,
  platform: PlatformId,
  binRoot: string,
): Plan {
  const sha = sha256Option(opts.sha256);
  if (sha !== undefined && opts.trustOnFirstUse)
    throw new InstallError('BAD_OPTIONS', '--sha256 and --trust-on-first-use: give one (--sha256 is the safer one)');
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
  if (!entry) return unpinnedPlan(version, opts.asset ?? guessAssetName(version, platform), sha, opts, binRoot);
  const pinned =
    opts.asset !== undefined
      ? entry.assets.find((a) => a.name === opts.asset)
      : entry.assets.find((a) => a.platform === platform);
  const listing = entry.assets.map((a) => (a.platform ? `${a.name} (${a.platform})` : a.name)).join(', ');
  if (!pinned) {
    if (opts.asset !== undefined && sha !== undefined) return unpinnedPlan(version, opts.asset, sha, opts, binRoot);
    const what =
      opts.asset !== undefined ? `no pinned archive named ${opts.asset}` : `no pinned archive for ${platform}`;
    throw new InstallError(
      'NO_ASSET',
      `Salvium ${version} has ${what} in ${tableFile} (pinned: ${listing}): pass --asset <name> --sha256 <hex> for an archive you checked yourself`,
    );
  }
  const fromTable = `the pinned table ${tableFile}`;
  if (sha !== undefined && sha !== pinned.sha256) {
    throw new InstallError(
      'BAD_OPTIONS',
      `--sha256 ${sha} contradicts ${fromTable}, which pins ${pinned.name} of ${version} as ${pinned.sha256}`,
    );
  }
  const p = { version, asset: pinned.name, sha256: pinned.sha256, hashFrom: 'pinned' as const };
  return { ...p, expectedFrom: fromTable, record: false, tofu: false };
}

/**
 * An install already there that answers the plan (undefined: install). A plan without a hash (a version the table
 * does not pin, without --sha256 or --trust-on-first-use) is answered only by an earlier install of that version.
 */
function reusable(
  existing: Marker | undefined,
  p: Plan,
  o: { installDir: string; table: ReleaseTable; tableFile: string; force?: boolean; log: (line: string) => void },
): InstallResult | undefined {
  if (p.sha256 === undefined) {
    // An unlisted version installed earlier (--sha256, --from, first use) is still a checked install.
    if (existing && existing.version === p.version && !o.force) return resultOf(o.installDir, existing, true);
    if (p.tofu) return undefined;
    throw new InstallError(
      'UNKNOWN_VERSION',
      `Salvium ${p.version} is not in the pinned table ${o.tableFile} (${knownVersions(o.table)}): ${PIN_HINT}`,
    );
  }
  if (existing && !o.force) {
    if (existing.sha256 === p.sha256) return resultOf(o.installDir, existing, true);
    o.log(
      `saltnet install: ${o.installDir} holds ${existing.sha256 ? `an archive with sha256 ${existing.sha256}` : `a copy of ${existing.from}`}, expected ${p.sha256}: installing again`,
    );
  }
  return undefined;
}

interface Fetch {
  binRoot: string;
  /** The install's staging folder: the archive goes there, and its tree into `tree/`. */
  staging: string;
  format: ArchiveFormat;
  platform: PlatformId;
  /** --mirror, SALTNET_RELEASE_MIRROR or the release site, and the archive's place there. */
  base: string;
  source: ArchiveSource;
  checkHashesFile?: string;
  maxBytes?: number;
  maxUnpackedBytes?: number;
  ldd?: Ldd;
  log: (line: string) => void;
  pace?: Pace;
  signal?: AbortSignal;
}

/** Download the archive and refuse it unless its SHA-256 is the plan's (trust on first use: print it). */
async function download(p: Plan, f: Fetch, archive: string): Promise<{ sha256: string; from: string }> {
  const what = `Salvium ${p.version} (${p.asset})`;
  f.log(`saltnet install: downloading ${what} from ${describeSource(f.source)}`);
  let dl;
  try {
    dl = await downloadTo(f.source, archive, {
      maxBytes: f.maxBytes,
      what,
      log: f.log,
      pace: f.pace,
      signal: f.signal,
    });
  } catch (err) {
    if (err instanceof InstallError && err.code === 'DOWNLOAD_FAILED')
      throw withDownloadHint(err, p.version, p.asset, f.base, f.source.kind);
    throw err;
  }
  try {
    if (p.sha256 !== undefined)
      checkSha256(dl.sha256, p.sha256, {
        version: p.version,
        asset: p.asset,
        from: dl.from,
        expectedFrom: p.expectedFrom,
      });
    else if (f.checkHashesFile) await checkAgainstHashesFile(f.checkHashesFile, p.asset, dl.sha256, p.version);
  } catch (err) {
    await rm(archive, { force: true }); // refused bytes do not stay on disk, not even for the moment until clean-up
    throw err;
  }
  f.log(
    p.sha256 !== undefined
      ? `saltnet install: sha256 ${dl.sha256} matches ${p.hashFrom === 'pinned' ? 'the pinned hash' : p.expectedFrom}; unpacking`
      : `saltnet install: trust on first use: ${p.asset} of ${p.version} has sha256 ${dl.sha256}; it will be recorded in ${trustFilePath(f.binRoot)} and later installs must match it`,
  );
  return dl;
}

/** Download, verify, unpack and check a release; then publish it with its marker (and record its hash). */
async function fetchRelease(p: Plan, f: Fetch): Promise<InstallResult> {
  const archive = join(f.staging, p.asset);
  const tree = join(f.staging, 'tree');
  await mkdir(tree);
  const dl = await download(p, f, archive);
  const label = `${p.asset} (Salvium ${p.version})`;
  await unpack(archive, f.format, tree, label, f.maxUnpackedBytes, f.signal);
  await rm(archive, { force: true });
  const inspected: Inspected = await inspectTree(tree, {
    platform: f.platform,
    label,
    ldd: f.ldd,
    log: f.log,
    signal: f.signal,
  });
  f.signal?.throwIfAborted();
  const how = p.tofu ? 'trust-on-first-use' : 'sha256-option';
  return publishInstall({
    binRoot: f.binRoot,
    tree,
    inspected,
    platform: f.platform,
    version: p.version,
    asset: p.asset,
    sha256: dl.sha256,
    hashFrom: p.hashFrom,
    from: dl.from,
    record: p.record
      ? {
          version: p.version,
          asset: p.asset,
          sha256: dl.sha256,
          how,
          from: dl.from,
          recordedAt: new Date().toISOString(),
        }
      : undefined,
  });
}

export async function installSalvium(opts: InstallOptions = {}): Promise<InstallResult> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const platform = opts.platform ?? platformFor();
  const binRoot = binRootOf({ cacheDir: opts.cacheDir, env });
  if (opts.from !== undefined) return installFrom(opts.from, { ...opts, env, log, platform, binRoot });
  const tableFile = opts.releasesFile ?? (env.SALTNET_RELEASES_FILE || DEFAULT_TABLE_FILE);
  const table = loadReleaseTable(tableFile);
  const p = plan(table, tableFile, opts, platform, binRoot);
  const format = archiveFormat(p.asset);
  if (!format)
    throw new InstallError(
      'BAD_OPTIONS',
      `cannot unpack ${p.asset}: supported archive formats are ${SUPPORTED_FORMATS}`,
    );

  await prepareBinRoot(binRoot);
  const key = `salvium-${p.version}`;
  const installDir = join(binRoot, key);
  const reused = reusable(readInstalled(installDir, platform), p, {
    installDir,
    table,
    tableFile,
    force: opts.force,
    log,
  });
  if (reused) return reused;

  const base = opts.mirror ?? (env.SALTNET_RELEASE_MIRROR || DEFAULT_BASE_URL);
  const source = archiveSource(base, p.version, p.asset);
  if (opts.checkHashesFile && p.sha256 !== undefined)
    await checkAgainstHashesFile(opts.checkHashesFile, p.asset, p.sha256, p.version);
  return withStaging(binRoot, key, (staging) =>
    fetchRelease(p, {
      binRoot,
      staging,
      format,
      platform,
      base,
      source,
      checkHashesFile: opts.checkHashesFile,
      maxBytes: opts.maxBytes,
      maxUnpackedBytes: opts.maxUnpackedBytes,
      ldd: opts.ldd,
      log,
      pace: opts.pace,
      signal: opts.signal,
    }),
  );
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
