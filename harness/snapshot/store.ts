// The snapshot store: chain states saved once under <cacheDir>/snapshots/<key>/ and restored in
// well under a second.
//
//   <key>/manifest.json         what the snapshot is and every file's size, sha256 and mode
//   <key>/<source>/<path…>      the files of each source folder (daemon data dir, wallets, …)
//
// A save writes a temporary folder and renames it to <key> only once every file and the manifest
// are written and fsynced, so a crash or kill leaves no snapshot or a complete one, never half of
// one. A load verifies every file before it writes anything, and writes only into empty or new
// folders. A snapshot that fails verification is renamed to <key>.corrupt-<time> and never used.
// exportSnapshot / importSnapshot live in archive.ts and are re-exported here.
import { chmodSync, constants, copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, copyFile, cp, lstat, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { isWithin } from '../common/paths.js';
import { performance } from 'node:perf_hooks';
import { snapshotsDir } from '../common/cache-dir.js';
import { errnoCode } from '../common/errno.js';
import { SnapshotError } from './errors.js';
import { SMALL_FILE, byPath, fsyncDir, hashHandle, inBatches, mapLimit, randomHex, walk } from '../common/files.js';
import { isValidKey } from './key.js';
import {
  MANIFEST_FORMAT_VERSION,
  ManifestInputSchema,
  ManifestSchema,
  describeIssues,
  isValidSourceName,
  parseManifest,
  serializeManifest,
  summarize,
  type Manifest,
  type ManifestFile,
  type ManifestInput,
  type SnapshotSummary,
} from './manifest.js';
import {
  SAVE_CONCURRENCY,
  assertKey,
  cacheMode,
  ensureSnapshotsDir,
  lstatOrNull,
  moveAside,
  writeDurably,
} from './snapshot-dir.js';
import {
  cleanStale,
  isStale,
  publish,
  removeNow,
  removeQuietly,
  stagingName,
  stagingPid,
  startHeartbeat,
} from '../common/staging.js';
import { verifySnapshotDir } from './verify.js';

const RESTORE_CONCURRENCY = 4;
const SMALL_BATCH = 200;

export interface SnapshotSource {
  /** The top-level folder name inside the snapshot (e.g. "daemon", "wallets"). */
  name: string;
  dir: string;
}

export interface SaveProgress {
  /** The file just saved, as <source>/<path>. */
  path: string;
  size: number;
  done: number;
  total: number;
}

export interface SaveSnapshotOptions {
  cacheDir: string;
  key: string;
  sources: SnapshotSource[];
  manifest: ManifestInput;
  /**
   * Leave a path out: called with <source>/<path> for every file and folder (an excluded folder is
   * not entered). Symlinks, sockets and other special files must be excluded, or the save fails.
   */
  exclude?: (relPath: string) => boolean;
  /** Called after each file is copied; the save waits for a returned promise (progress bars, tests). */
  onFile?: (progress: SaveProgress) => void | Promise<void>;
}

export interface LoadSnapshotOptions {
  cacheDir: string;
  key: string;
  /** Source name -> destination folder; each must not exist or be empty. Sources not named are not restored. */
  targets: Record<string, string>;
}

export type LoadSnapshotResult =
  { manifest: Manifest; ms: number } | { missing: true } | { corrupt: string; movedTo: string | undefined };

// ---------------------------------------------------------------------------------------------
// save

async function checkSources(sources: SaveSnapshotOptions['sources']): Promise<void> {
  const names = new Set<string>();
  for (const s of sources) {
    if (!isValidSourceName(s.name))
      throw new SnapshotError(
        'BAD_SOURCE',
        `bad source name ${JSON.stringify(s.name)} (one folder name: letters, digits, '.', '-', '_')`,
      );
    if (names.has(s.name)) throw new SnapshotError('BAD_SOURCE', `source name ${s.name} is given twice`);
    names.add(s.name);
    const st = await stat(resolve(s.dir)).catch((e: unknown) => {
      if (errnoCode(e) === 'ENOENT') return null;
      throw e;
    });
    if (!st) throw new SnapshotError('BAD_SOURCE', `source ${s.name}: ${resolve(s.dir)} does not exist`);
    if (!st.isDirectory()) throw new SnapshotError('BAD_SOURCE', `source ${s.name}: ${resolve(s.dir)} is not a folder`);
  }
}

/** What to copy: every folder and regular file of the sources (anything else is refused). */
async function planCopy(opts: SaveSnapshotOptions): Promise<{ plan: { abs: string; path: string }[]; dirs: string[] }> {
  const plan: { abs: string; path: string }[] = [];
  const dirs: string[] = [];
  for (const s of opts.sources) {
    const root = resolve(s.dir);
    const tree = await walk(root, { prefix: s.name, ...(opts.exclude ? { exclude: opts.exclude } : {}) });
    const other = tree.others[0];
    if (other) {
      throw new SnapshotError(
        'BAD_SOURCE',
        `source ${s.name}: ${join(root, other.path.slice(s.name.length + 1))} is a ${other.kind}; a snapshot holds regular files and folders only (exclude it)`,
      );
    }
    dirs.push(s.name, ...tree.dirs);
    for (const f of tree.files) plan.push({ abs: join(root, f.slice(s.name.length + 1)), path: f });
  }
  return { plan, dirs };
}

/** Copy one file into the staging folder, hashed and synced; refused when it changes meanwhile. */
async function copyOne(abs: string, dst: string, path: string): Promise<ManifestFile> {
  const before = await lstat(abs);
  if (!before.isFile())
    throw new SnapshotError('SOURCE_CHANGED', `${abs} changed while saving (it is no longer a regular file)`);
  await copyFile(abs, dst, constants.COPYFILE_FICLONE);
  const fh = await open(dst, 'r');
  let got: { sha256: string; size: number };
  const mode = before.mode & 0o777;
  try {
    got = await hashHandle(fh, before.size);
    if ((await fh.stat()).mode % 0o10000 !== cacheMode(mode)) await fh.chmod(cacheMode(mode));
    await fh.sync();
  } finally {
    await fh.close();
  }
  const after = await lstat(abs);
  if (got.size !== before.size || after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
    throw new SnapshotError(
      'SOURCE_CHANGED',
      `${abs} changed while saving it (stop the programs that write to ${path.split('/')[0]} before saving a snapshot)`,
    );
  }
  return { path, size: got.size, sha256: got.sha256, mode };
}

/** Copy every regular file of each source into a new snapshot `<key>` (replacing an existing one atomically). */
export async function saveSnapshot(opts: SaveSnapshotOptions): Promise<Manifest> {
  assertKey(opts.key);
  const described = ManifestInputSchema.safeParse(opts.manifest);
  if (!described.success)
    throw new SnapshotError(
      'BAD_MANIFEST',
      `saveSnapshot ${opts.key}: the manifest fields do not fit: ${describeIssues(described.error)}`,
    );
  await checkSources(opts.sources);
  const dir = await ensureSnapshotsDir(opts.cacheDir);
  cleanStale(dir);
  const { plan, dirs } = await planCopy(opts);
  const tmp = join(dir, stagingName('tmp', opts.key));
  await mkdir(tmp, { mode: 0o700 });
  const stopHeartbeat = startHeartbeat(tmp);
  try {
    for (const d of dirs) await mkdir(join(tmp, d));
    let done = 0;
    const files = await mapLimit(plan, SAVE_CONCURRENCY, async ({ abs, path }) => {
      const f = await copyOne(abs, join(tmp, path), path);
      await opts.onFile?.({ path, size: f.size, done: ++done, total: plan.length });
      return f;
    });
    await mapLimit(dirs, SAVE_CONCURRENCY, (d) => fsyncDir(join(tmp, d)));
    const manifest = ManifestSchema.parse({
      ...described.data,
      formatVersion: MANIFEST_FORMAT_VERSION,
      key: opts.key,
      createdAt: new Date().toISOString(),
      files: files.sort((a, b) => byPath(a.path, b.path)),
    } satisfies Manifest);
    await writeDurably(join(tmp, 'manifest.json'), serializeManifest(manifest));
    await fsyncDir(tmp);
    stopHeartbeat();
    await publish(dir, tmp, opts.key);
    return manifest;
  } catch (e) {
    stopHeartbeat();
    await removeQuietly(dir, tmp);
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// load

interface Target {
  name: string;
  dir: string;
  /** Mode of the existing empty folder, undefined when it did not exist. */
  existingMode: number | undefined;
}

async function checkTargets(targets: Record<string, string>): Promise<Target[]> {
  const out: Target[] = [];
  for (const [name, d] of Object.entries(targets)) {
    if (!isValidSourceName(name))
      throw new SnapshotError('BAD_TARGET', `bad source name ${JSON.stringify(name)} in the load targets`);
    const dir = resolve(d);
    for (const t of out) {
      if (isWithin(t.dir, dir) || isWithin(dir, t.dir))
        throw new SnapshotError('BAD_TARGET', `load targets ${t.name} (${t.dir}) and ${name} (${dir}) overlap`);
    }
    const st = await lstatOrNull(dir);
    let existingMode: number | undefined;
    if (st) {
      if (!st.isDirectory())
        throw new SnapshotError(
          'TARGET_NOT_EMPTY',
          `cannot restore ${name} into ${dir}: it exists and is not a folder (a snapshot is only restored into a new or empty folder)`,
        );
      const entries = await readdir(dir);
      if (entries.length) {
        throw new SnapshotError(
          'TARGET_NOT_EMPTY',
          `cannot restore ${name} into ${dir}: the folder is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); a snapshot never overwrites existing files — remove it or choose an empty folder`,
        );
      }
      existingMode = st.mode & 0o7777;
    }
    out.push({ name, dir, existingMode });
  }
  return out;
}

/**
 * Restore a snapshot into the target folders. Every file is verified against the manifest before
 * anything is written; the files are then copied (reflinked where the file system can) into a
 * sibling staging folder that is renamed onto each target, so a target is never left half-filled.
 */
export async function loadSnapshot(opts: LoadSnapshotOptions): Promise<LoadSnapshotResult> {
  const t0 = performance.now();
  assertKey(opts.key);
  const dir = snapshotsDir(resolve(opts.cacheDir));
  const path = join(dir, opts.key);
  for (let attempt = 0; ; attempt++) {
    const before = await lstatOrNull(path);
    if (!before) return { missing: true };
    const targets = await checkTargets(opts.targets);
    const v = before.isDirectory() ? await verifySnapshotDir(path, opts.key) : { problem: `${path} is not a folder` };
    if ('problem' in v) {
      const now = await lstatOrNull(path);
      if (!now) return { missing: true };
      // Replaced by a concurrent save while we read it: look again rather than blame the new one.
      if ((now.ino !== before.ino || now.dev !== before.dev) && attempt < 3) continue;
      return { corrupt: v.problem, movedTo: await moveAside(dir, opts.key) };
    }
    for (const t of targets) {
      if (!v.sources.includes(t.name)) {
        throw new SnapshotError(
          'UNKNOWN_SOURCE',
          `snapshot ${opts.key} has no source ${t.name} (it has: ${v.sources.join(', ') || 'none'})`,
        );
      }
    }
    await restore(path, v.manifest, v.dirs, targets);
    return { manifest: v.manifest, ms: performance.now() - t0 };
  }
}

async function restore(path: string, manifest: Manifest, dirs: string[], targets: Target[]): Promise<void> {
  const staged: { t: Target; staging: string; placed: boolean }[] = [];
  try {
    for (const t of targets) {
      await mkdir(dirname(t.dir), { recursive: true });
      const staging = join(dirname(t.dir), `.${basename(t.dir)}.saltnet-restore-${process.pid}-${randomHex()}`);
      await mkdir(staging, t.existingMode === undefined ? {} : { mode: t.existingMode });
      staged.push({ t, staging, placed: false });
      const prefix = `${t.name}/`;
      for (const d of dirs) if (d.startsWith(prefix)) await mkdir(join(staging, d.slice(prefix.length)));
    }
    const jobs: { src: string; dst: string; mode: number; size: number }[] = [];
    for (const { t, staging } of staged) {
      const prefix = `${t.name}/`;
      for (const f of manifest.files) {
        if (f.path.startsWith(prefix))
          jobs.push({
            src: join(path, f.path),
            dst: join(staging, f.path.slice(prefix.length)),
            mode: f.mode,
            size: f.size,
          });
      }
    }
    // Small files are copied synchronously in batches (no thread-pool round trip each), large ones
    // in parallel; both reflink where the file system can (COPYFILE_FICLONE), else copy.
    const flags = constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL;
    const large = mapLimit(
      jobs.filter((j) => j.size >= SMALL_FILE),
      RESTORE_CONCURRENCY,
      async ({ src, dst, mode }) => {
        await copyFile(src, dst, flags);
        if (cacheMode(mode) !== mode) await chmod(dst, mode);
      },
    );
    try {
      await inBatches(
        jobs.filter((j) => j.size < SMALL_FILE),
        SMALL_BATCH,
        ({ src, dst, mode }) => {
          copyFileSync(src, dst, flags);
          if (cacheMode(mode) !== mode) chmodSync(dst, mode);
        },
      );
    } finally {
      await large.catch(() => {}); // never leave copies running behind a thrown error
    }
    await large;
    for (const s of staged) {
      if (s.t.existingMode !== undefined) await chmod(s.staging, s.t.existingMode);
      try {
        await rename(s.staging, s.t.dir);
      } catch (e) {
        const code = errnoCode(e);
        if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') {
          throw new SnapshotError(
            'TARGET_NOT_EMPTY',
            `cannot restore ${s.t.name} into ${s.t.dir}: something was written there during the restore`,
            { cause: e },
          );
        }
        if (code !== 'EBUSY' || s.t.existingMode === undefined) throw e;
        // An empty mount point cannot be renamed over: copy into it instead.
        s.placed = true;
        await cp(s.staging, s.t.dir, { recursive: true, force: false, errorOnExist: true });
        await rm(s.staging, { recursive: true, force: true });
      }
      s.placed = true;
    }
  } catch (e) {
    for (const s of staged) {
      await rm(s.staging, { recursive: true, force: true }).catch(() => {});
      if (!s.placed) continue;
      if (s.t.existingMode === undefined) await rm(s.t.dir, { recursive: true, force: true }).catch(() => {});
      else
        for (const name of await readdir(s.t.dir).catch(() => []))
          await rm(join(s.t.dir, name), { recursive: true, force: true }).catch(() => {});
    }
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// list, remove, clear

/**
 * Summaries of the valid-looking snapshots (by key); removes stale temporary folders. Unreadable ones are left out (a
 * load reports them).
 */
export function listSnapshots(cacheDir: string): SnapshotSummary[] {
  const dir = snapshotsDir(resolve(cacheDir));
  if (!existsSync(dir)) return [];
  cleanStale(dir);
  const out: SnapshotSummary[] = [];
  for (const name of readdirSync(dir).sort(byPath)) {
    if (!isValidKey(name)) continue;
    let text: string;
    try {
      text = readFileSync(join(dir, name, 'manifest.json'), 'utf8');
    } catch {
      continue;
    }
    const parsed = parseManifest(text);
    if ('manifest' in parsed && parsed.manifest.key === name) out.push(summarize(parsed.manifest));
  }
  return out;
}

/** Remove one snapshot; false when there was none. */
export function removeSnapshot(cacheDir: string, key: string): boolean {
  assertKey(key);
  const dir = snapshotsDir(resolve(cacheDir));
  if (!existsSync(dir)) return false;
  return removeNow(dir, join(dir, key));
}

/**
 * Remove every snapshot, every set-aside corrupt one and every abandoned temporary folder; returns how many entries
 * went. A save in progress is left alone.
 */
export function clearSnapshots(cacheDir: string): number {
  const dir = snapshotsDir(resolve(cacheDir));
  if (!existsSync(dir)) return 0;
  let n = 0;
  for (const name of readdirSync(dir)) {
    if (stagingPid(name) !== undefined && !isStale(dir, name)) continue;
    if (name.startsWith('.build-')) continue; // a build lock (lock.ts): its holder is building now
    try {
      if (removeNow(dir, join(dir, name))) n++;
    } catch {
      // left for the next clear
    }
  }
  return n;
}

export { exportSnapshot, importSnapshot } from './archive.js';
