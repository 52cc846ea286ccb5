// The steps every install shares, whatever the programs came from (a download, a local archive, a
// folder): a staging folder in the cache that a killed install leaves behind at most; the programs
// found in the staged tree, made executable and checked (checks.ts); the marker written last; and
// one rename that publishes the tree (without the archive's single top folder) as <cacheDir>/bin/salvium-<version>/.
import { mkdir, readdir } from 'node:fs/promises';
import { makeDirsAsync } from '../common/mkdir.js';
import { join, relative, sep } from 'node:path';
import { cleanStale, publish, removeQuietly, stagingName, startHeartbeat } from '../common/staging.js';
import { findBinaries, makeExecutable, type FoundBinaries } from './binaries.js';
import { checkPrograms, type CheckedPrograms, type Ldd } from './checks.js';
import { resultOf, writeMarker, type HashFrom, type InstallResult, type Marker } from './marker.js';
import type { PlatformId } from './platform.js';
import { recordTrusted, type TrustedHash } from './trust.js';

/** Create `binRoot` (and clear what killed installs left there). */
export async function prepareBinRoot(binRoot: string): Promise<void> {
  await makeDirsAsync(binRoot, 0o700);
  cleanStale(binRoot);
}

/**
 * Run `fn` with a fresh staging folder `<binRoot>/.tmp-<key>-<pid>-<rand>/` that is touched every 10 s while it runs
 * and removed after, whatever happens.
 */
export async function withStaging<T>(binRoot: string, key: string, fn: (staging: string) => Promise<T>): Promise<T> {
  const staging = join(binRoot, stagingName('tmp', key));
  await mkdir(staging, { mode: 0o700 });
  const stop = startHeartbeat(staging);
  try {
    return await fn(staging);
  } finally {
    stop();
    await removeQuietly(binRoot, staging);
  }
}

export interface Inspected {
  found: FoundBinaries;
  checked: CheckedPrograms;
}

/**
 * Find the programs in a staged tree, make them executable (nothing runs yet) and check them: that they are executables
 * of the platform, link and run. Messages name a program by its path in the tree (in the archive), or under `origin`,
 * the folder the tree is a copy of.
 */
export async function inspectTree(
  tree: string,
  o: {
    platform: PlatformId;
    label: string;
    ldd?: Ldd;
    log?: (line: string) => void;
    origin?: string;
    signal?: AbortSignal;
  },
): Promise<Inspected> {
  const found = await findBinaries(tree, o.platform, o.label);
  const name = (p: string): string => {
    const rel = relative(tree, p).split(sep).join('/');
    return o.origin ? join(o.origin, rel) : rel;
  };
  await makeExecutable(found, o.platform, tree);
  const checked = await checkPrograms(found, { ...o, name });
  return { found, checked };
}

export interface PublishInput {
  binRoot: string;
  tree: string;
  inspected: Inspected;
  platform: PlatformId;
  version: string;
  asset: string;
  sha256: string | null;
  hashFrom: HashFrom;
  from: string;
  /** A first-use hash to record before publishing (a conflicting record refuses the install). */
  record?: TrustedHash;
}

/**
 * What is published of an unpacked tree: the archive's single top folder (`salvium-v1.1.3c/` of the release tarball),
 * so that the programs land in `<cacheDir>/bin/salvium-<version>/` itself; the tree when it holds anything else.
 */
async function publishedRoot(tree: string): Promise<string> {
  const entries = await readdir(tree, { withFileTypes: true });
  return entries.length === 1 && entries[0]!.isDirectory() ? join(tree, entries[0]!.name) : tree;
}

/**
 * Write the marker, record the hash when asked, and publish the tree (its single top folder, if that is all it holds)
 * as salvium-<version> in one rename.
 */
export async function publishInstall(p: PublishInput): Promise<InstallResult> {
  const root = await publishedRoot(p.tree);
  const marker: Marker = {
    version: p.version,
    platform: p.platform,
    asset: p.asset,
    sha256: p.sha256,
    hashFrom: p.hashFrom,
    from: p.from,
    binDir: relative(root, p.inspected.found.dir).split(sep).join('/'),
    programVersion: p.inspected.checked.programVersion,
    programs: p.inspected.checked.programs,
    installedAt: new Date().toISOString(),
  };
  await writeMarker(root, marker);
  if (p.record) await recordTrusted(p.binRoot, p.record);
  const key = `salvium-${p.version}`;
  await publish(p.binRoot, root, key);
  return resultOf(join(p.binRoot, key), marker, false);
}
