// Temporary and set-aside folders next to the snapshots, and how a finished one is published.
//
//   .tmp-<key>-<pid>-<rand>    a save or import being written (the writer touches it every 10 s)
//   .old-<key>-<pid>-<rand>    the snapshot a publish replaced, being removed
//   .trash-<pid>-<rand>        anything claimed for removal
//
// Names start with a dot, so they are never taken for a key. One is stale when the pid in its name
// is dead, or when it has not been touched for a minute (a reused pid never touches it); stale ones
// are removed by the next save, import or list.
import { lstatSync, readdirSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { rename, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from './errno.js';
import { fsyncDir, pidExists, randomHex } from './files.js';

export const STALE_AFTER_MS = 60_000;
export const HEARTBEAT_MS = 10_000;

const STAGING_RE = /^\.(tmp|old|trash)-(?:.+-)?(\d+)-[0-9a-f]{8}$/;

export type StagingKind = 'tmp' | 'old' | 'trash';

export function stagingName(kind: StagingKind, key?: string): string {
  return `.${kind}-${key ? `${key}-` : ''}${process.pid}-${randomHex()}`;
}

/** The writer pid of a staging folder name, or undefined for any other name. */
export function stagingPid(name: string): number | undefined {
  const m = STAGING_RE.exec(name);
  return m ? Number(m[2]) : undefined;
}

/** Whether a staging folder (by name, in `dir`) is abandoned. */
export function isStale(dir: string, name: string, now = Date.now()): boolean {
  const pid = stagingPid(name);
  if (pid === undefined) return false;
  if (!pidExists(pid)) return true;
  try {
    return now - lstatSync(join(dir, name)).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false; // already gone
  }
}

/**
 * Rename `path` to a fresh trash name in `dir` (so no one else removes it too) and remove it. False when it was gone.
 */
export function removeNow(dir: string, path: string): boolean {
  const trash = join(dir, stagingName('trash'));
  try {
    renameSync(path, trash);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return false;
    throw e;
  }
  try {
    utimesSync(trash, new Date(), new Date());
  } catch {
    // only delays a concurrent cleaner
  }
  rmSync(trash, { recursive: true, force: true });
  return true;
}

/** Remove every stale staging folder of a snapshots folder; returns their names. Never throws. */
export function cleanStale(dir: string, now = Date.now()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (stagingPid(name) === undefined || !isStale(dir, name, now)) continue;
    try {
      if (removeNow(dir, join(dir, name))) removed.push(name);
    } catch {
      // someone else's, or unremovable: the next clean tries again
    }
  }
  return removed;
}

/** Remove `path` (claimed under a trash name first); errors are swallowed: it is out of the way already. */
export async function removeQuietly(dir: string, path: string): Promise<void> {
  const trash = join(dir, stagingName('trash'));
  try {
    await rename(path, trash);
    await utimes(trash, new Date(), new Date()).catch(() => {});
    await rm(trash, { recursive: true, force: true });
  } catch {
    // gone already, or left for cleanStale
  }
}

/** Touch `path` every HEARTBEAT_MS until the returned function is called. */
export function startHeartbeat(path: string): () => void {
  const timer = setInterval(() => {
    utimes(path, new Date(), new Date()).catch(() => {});
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Make the finished folder `tmpPath` the snapshot `<dir>/<key>` by renaming it. An existing
 * snapshot is first renamed aside (.old-…), then removed: at every moment `<key>` is either the
 * old complete snapshot, absent, or the new complete one. When two publishers race, the last wins.
 */
export async function publish(dir: string, tmpPath: string, key: string): Promise<void> {
  const dest = join(dir, key);
  for (let attempt = 0; ; attempt++) {
    let aside: string | undefined = join(dir, stagingName('old', key));
    try {
      await rename(dest, aside);
      await utimes(aside, new Date(), new Date()).catch(() => {});
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') throw e;
      aside = undefined;
    }
    try {
      await rename(tmpPath, dest);
    } catch (e) {
      const code = errnoCode(e);
      if ((code === 'ENOTEMPTY' || code === 'EEXIST') && attempt < 10) {
        // another publisher put its snapshot there in between: set that one aside on the next turn
        if (aside) await removeQuietly(dir, aside);
        continue;
      }
      if (aside) await rename(aside, dest).catch(() => {}); // put the old one back
      throw e;
    }
    await fsyncDir(dir);
    if (aside) await removeQuietly(dir, aside);
    return;
  }
}
