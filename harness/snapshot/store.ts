// The snapshot store: chain states saved once under <cacheDir>/snapshots/<key>/ and restored in
// well under a second.
//
//   <key>/manifest.json         what the snapshot is and every file's size, sha256 and mode
//   <key>/<source>/<path…>      the files of each source folder (daemon data dir, wallets, …)
//
// A save writes a temporary folder and renames it to <key> only once every file and the manifest
// are written and fsynced, so a crash or kill leaves no snapshot or a complete one, never half of
// one. A load verifies every file before it writes anything, and writes only into empty or new
// folders. A snapshot that fails verification is renamed to <key>.corrupt-<time> and never used: it
// is kept for a look (`saltnet cache ls` lists it) until `saltnet cache prune` or `clear` removes it,
// or a save finds it older than a week.
// loadSnapshot lives in load.ts, exportSnapshot / importArchive in archive.ts; all are re-exported here.
import { constants, existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, lstat, mkdir, open, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { snapshotsDir } from '../common/cache-dir.js';
import { errnoCode } from '../common/errno.js';
import { SnapshotError } from './errors.js';
import { byPath, fsyncDir, hashHandle, mapLimit, walk } from '../common/files.js';
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
import { SAVE_CONCURRENCY, assertKey, cacheMode, ensureSnapshotsDir, writeDurably } from './snapshot-dir.js';
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
  pruneIn(dir, { olderThanMs: CORRUPT_KEPT_MS });
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

/** How long a save leaves a snapshot set aside as corrupt, for a look, before it removes it. */
export const CORRUPT_KEPT_MS = 7 * 24 * 3600_000;

/** `<key>.corrupt-<time>[-<hex>]` (snapshot-dir.ts moveAside): the key and when it was set aside. */
const CORRUPT_RE = /^(.+)\.corrupt-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z(?:-[0-9a-f]+)?$/;

export interface CorruptSnapshot {
  /** Its folder's name in the snapshots folder. */
  name: string;
  /** The key it was saved under. */
  key: string;
  /** When it was set aside (ISO time). */
  setAsideAt: string;
  /** Bytes of the files it holds. */
  size: number;
}

function sizeOf(path: string): number {
  try {
    const entries = readdirSync(path, { recursive: true, withFileTypes: true });
    return entries.reduce((n, e) => n + (e.isFile() ? lstatSync(join(e.parentPath, e.name)).size : 0), 0);
  } catch {
    return 0;
  }
}

function corruptIn(dir: string, withSize: boolean): CorruptSnapshot[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: CorruptSnapshot[] = [];
  for (const name of names) {
    const m = CORRUPT_RE.exec(name);
    if (!m) continue;
    const [, key, y, mo, d, h, mi, sec, ms] = m;
    out.push({
      name,
      key: key!,
      setAsideAt: `${y}-${mo}-${d}T${h}:${mi}:${sec}.${ms}Z`,
      size: withSize ? sizeOf(join(dir, name)) : 0,
    });
  }
  return out.sort((a, b) => a.setAsideAt.localeCompare(b.setAsideAt) || byPath(a.name, b.name));
}

/** The snapshots set aside as corrupt (never used; kept for a look), oldest first. */
export function listCorrupt(cacheDir: string): CorruptSnapshot[] {
  return corruptIn(snapshotsDir(resolve(cacheDir)), true);
}

function pruneIn(dir: string, o: { olderThanMs?: number; now?: number } = {}): string[] {
  const now = o.now ?? Date.now();
  const removed = cleanStale(dir, now);
  for (const c of corruptIn(dir, false)) {
    if (o.olderThanMs !== undefined && now - Date.parse(c.setAsideAt) < o.olderThanMs) continue;
    try {
      if (removeNow(dir, join(dir, c.name))) removed.push(c.name);
    } catch {
      // left for the next prune
    }
  }
  return removed;
}

/**
 * Remove the snapshots set aside as corrupt (with `olderThanMs`, only those set aside longer ago) and the abandoned
 * temporary folders, never a snapshot in use; returns the names removed.
 */
export function pruneSnapshots(cacheDir: string, o: { olderThanMs?: number; now?: number } = {}): string[] {
  const dir = snapshotsDir(resolve(cacheDir));
  return existsSync(dir) ? pruneIn(dir, o) : [];
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

export { exportSnapshot, importArchive, type ImportOptions } from './archive.js';
export { loadSnapshot, type LoadSnapshotOptions, type LoadSnapshotResult } from './load.js';
