// File-system helpers of the snapshot store: walking a folder, hashing, fsync, bounded parallelism.
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import pMap from 'p-map';
import { errnoCode } from './errno.js';

/** Files of a folder tree, as relative POSIX paths (prefix + '/' + path inside the root). */
export interface Tree {
  files: string[];
  /** Every folder below the root (not the root itself). */
  dirs: string[];
  /** Anything else: symlinks, sockets, FIFOs, devices. */
  others: { path: string; kind: string }[];
}

function kindOf(d: import('node:fs').Dirent): string {
  if (d.isSymbolicLink()) return 'symlink';
  if (d.isSocket()) return 'socket';
  if (d.isFIFO()) return 'FIFO';
  if (d.isBlockDevice() || d.isCharacterDevice()) return 'device';
  return 'special file';
}

/**
 * Walk `root`. Paths are reported as `prefix/rel` (or `rel` without a prefix). `exclude` sees the
 * same paths, for files and folders alike; an excluded folder is not entered.
 */
export async function walk(
  root: string,
  opts: { prefix?: string; exclude?: (path: string) => boolean } = {},
): Promise<Tree> {
  const tree: Tree = { files: [], dirs: [], others: [] };
  const visit = async (abs: string, rel: string): Promise<void> => {
    const entries = await readdir(abs, { withFileTypes: true });
    const subdirs: Promise<void>[] = [];
    for (const d of entries) {
      const path = rel ? `${rel}/${d.name}` : d.name;
      if (opts.exclude?.(path)) continue;
      if (d.isDirectory()) {
        tree.dirs.push(path);
        subdirs.push(visit(join(abs, d.name), path));
      } else if (d.isFile()) tree.files.push(path);
      else tree.others.push({ path, kind: kindOf(d) });
    }
    await Promise.all(subdirs);
  };
  await visit(root, opts.prefix ?? '');
  tree.files.sort(byPath);
  tree.dirs.sort(byPath);
  return tree;
}

/** Code-point order (not locale order): the same everywhere. */
export function byPath(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const MAX_CHUNK = 1 << 20;

/** sha256 and length of what an open file holds, read from offset 0 to EOF. */
export async function hashHandle(fh: FileHandle, sizeHint?: number): Promise<{ sha256: string; size: number }> {
  const hint = sizeHint ?? (await fh.stat()).size;
  const buf = Buffer.allocUnsafe(Math.min(MAX_CHUNK, Math.max(hint + 1, 4096)));
  const hash = createHash('sha256');
  let size = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, size);
    if (bytesRead === 0) break;
    hash.update(buf.subarray(0, bytesRead));
    size += bytesRead;
  }
  return { sha256: hash.digest('hex'), size };
}

/** sha256 and length of a file. */
export async function hashPath(path: string, sizeHint?: number): Promise<{ sha256: string; size: number }> {
  const fh = await open(path, 'r');
  try {
    return await hashHandle(fh, sizeHint);
  } finally {
    await fh.close();
  }
}

/**
 * Files up to this size are read synchronously when verifying or restoring (in batches, see inBatches): far fewer
 * thread-pool round trips.
 */
export const SMALL_FILE = 1 << 20;

/**
 * sha256 of a small file read synchronously into `buf` (at least `expected` + 1 bytes long). Reads at
 * most expected + 1 bytes: a file that grew is reported with its real size, never read to the end.
 */
export function hashSmallFileSync(path: string, expected: number, buf: Buffer): { sha256: string; size: number } {
  const fd = openSync(path, 'r');
  try {
    const want = Math.min(buf.length, expected + 1);
    let size = 0;
    for (;;) {
      const n = readSync(fd, buf, size, want - size, size);
      if (n === 0) break;
      size += n;
      if (size === want) break;
    }
    if (size > expected) return { sha256: '', size: fstatSync(fd).size };
    return { sha256: createHash('sha256').update(buf.subarray(0, size)).digest('hex'), size };
  } finally {
    closeSync(fd);
  }
}

/** Run a synchronous fn over items, letting the event loop run between batches (timers, I/O callbacks). */
export async function inBatches<T>(items: readonly T[], batch: number, fn: (item: T) => void): Promise<void> {
  for (let i = 0; i < items.length; i += batch) {
    if (i) await new Promise<void>((r) => setImmediate(r));
    for (const item of items.slice(i, i + batch)) fn(item);
  }
}

/** fsync a folder so that the names in it survive a power loss; a no-op where folders cannot be opened. */
export async function fsyncDir(path: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(path, 'r');
    await fh.sync();
  } catch (e) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF'].includes(errnoCode(e) ?? '')) throw e;
  } finally {
    await fh?.close();
  }
}

/**
 * Run fn over items with at most `limit` at a time (p-map). On the first failure no new item is
 * started, the running ones are awaited, and the first error is thrown: nothing keeps writing after
 * the caller has been told it failed (p-map alone rejects while the others still run).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  let failure: { error: unknown } | undefined;
  const out = await pMap(
    items,
    async (item, i) => {
      if (failure) return undefined as R;
      try {
        return await fn(item, i);
      } catch (error) {
        failure ??= { error };
        return undefined as R;
      }
    },
    { concurrency: Math.max(1, limit) },
  );
  if (failure) throw failure.error;
  return out;
}

/** 8 random hex digits. */
export function randomHex(): string {
  return randomBytes(4).toString('hex');
}

/** Whether a process exists (a zombie counts as gone: it will never write again). */
export function pidExists(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return errnoCode(e) === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch (e) {
    // Gone between the two checks, or no /proc at all (macOS): then kill(0) is all we know.
    return errnoCode(e) !== 'ENOENT' || !existsSync('/proc/self/stat');
  }
}
