// The pieces every store operation shares: key checks, the snapshots folder, durable writes and
// moving a failed snapshot aside.
import type { Stats } from 'node:fs';
import { lstat, open, rename } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { snapshotsDir } from '../common/cache-dir.js';
import { errnoCode } from '../common/errno.js';
import { SnapshotError } from './errors.js';
import { randomHex } from '../common/files.js';
import { isValidKey } from './key.js';
import { makeDirsAsync } from '../common/mkdir.js';

export const SAVE_CONCURRENCY = 8;

export function assertKey(key: string): void {
  if (typeof key !== 'string' || !isValidKey(key)) {
    throw new SnapshotError(
      'BAD_KEY',
      `not a snapshot key: ${JSON.stringify(key)} (letters, digits, - and _, at most 128, starting with a letter or digit)`,
    );
  }
}

export async function ensureSnapshotsDir(cacheDir: string): Promise<string> {
  const dir = snapshotsDir(resolve(cacheDir));
  await makeDirsAsync(dir, 0o700);
  return dir;
}

export async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return null;
    throw e;
  }
}

/** The cache keeps every file owner-readable so that it can always be verified. */
export function cacheMode(mode: number): number {
  return mode | 0o400;
}

function compactTime(d = new Date()): string {
  return d.toISOString().replace(/[-:.]/g, '');
}

/** Rename a failed snapshot to <key>.corrupt-<time> (kept for inspection, never used); returns where it went. */
export async function moveAside(dir: string, key: string): Promise<string | undefined> {
  const from = join(dir, key);
  for (let i = 0; i < 5; i++) {
    const to = join(dir, `${key}.corrupt-${compactTime()}${i ? `-${randomHex()}` : ''}`);
    try {
      await rename(from, to);
      return to;
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'ENOENT') return undefined;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw e;
    }
  }
  return undefined;
}

/** Write a new file and fsync it. */
export async function writeDurably(path: string, text: string): Promise<void> {
  const fh = await open(path, 'wx', 0o644);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
}
