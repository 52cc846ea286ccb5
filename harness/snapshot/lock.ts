// One builder per snapshot key: when two runs (runner workers, CI shards on one machine) miss the
// same key, the first builds while the others wait and then restore what it saved. The lock is
// proper-lockfile's (a folder created atomically and touched while held, so a lock whose holder
// died goes stale after a few seconds and is taken over).
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { snapshotsDir } from '../common/cache-dir.js';
import { assertKey } from './snapshot-dir.js';
import { makeDirs } from '../common/mkdir.js';

export interface KeyLockOptions {
  /** Called once if another process holds the lock, before waiting. */
  onWait?: () => void;
  signal?: AbortSignal;
}

/** Take the build lock of `key` in this cache, waiting while another process holds it; returns the release function. */
export async function acquireKeyLock(
  cacheDir: string,
  key: string,
  o: KeyLockOptions = {},
): Promise<() => Promise<void>> {
  assertKey(key);
  const dir = snapshotsDir(cacheDir);
  makeDirs(dir, 0o700);
  return acquireFileLock(join(dir, `.build-${key}`), o);
}

/**
 * Take the lock of `target` (a path that need not exist; the lock is `${target}.lock`), waiting
 * while another process holds it; returns the release function. Also used outside the cache
 * (harness/vitest: one funding at a time per testnet, across vitest workers).
 */
export async function acquireFileLock(target: string, o: KeyLockOptions = {}): Promise<() => Promise<void>> {
  let told = false;
  for (;;) {
    o.signal?.throwIfAborted();
    try {
      // realpath: false: the lock target need not exist; stale after 10 s without a touch (the holder touches it every
      // 2 s).
      // A lock found compromised (its folder touched late, e.g. a stalled event loop) would by default
      // throw from a timer and kill the run; at worst two builders save the same key, and saves are atomic.
      const release = await lockfile.lock(target, {
        realpath: false,
        stale: 10_000,
        update: 2_000,
        lockfilePath: `${target}.lock`,
        onCompromised: () => undefined,
      });
      return async () => release().catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
      if (!told) o.onWait?.();
      told = true;
      await sleep(250);
    }
  }
}
