// A run's temporary workdir: created by the run (no --workdir given), removed with the run — on a
// clean stop by the run itself, and by whoever reaps the run when its saltnet died (the reaper,
// `saltnet down`, the next `saltnet up`). Removal is guarded three times: the run record must say
// the run created the folder, the folder must sit directly in os.tmpdir() with saltnet's own name
// pattern, and it must be a real folder (not a symlink). A folder a user named is never removed.
import { randomBytes } from 'node:crypto';
import { lstatSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { liveHolder } from './owner-lock.js';

/** The lock file in a workdir that names the one testnet using it (process/owner-lock.ts). */
export const WORKDIR_LOCK = '.saltnet-lock';

/** `saltnet-<time base 36>-<6 hex digits>`: the name of every temporary workdir. */
const TEMP_WORKDIR_NAME = /^saltnet-[0-9a-z]+-[0-9a-f]{6}$/;

/** A fresh temporary workdir path (not created): `<os.tmpdir()>/saltnet-<time>-<random>`. */
export function newTempWorkdir(): string {
  return join(tmpdir(), `saltnet-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`);
}

/**
 * Whether `dir` looks like one of ours: directly in os.tmpdir(), named by newTempWorkdir(), a folder and not a symlink.
 */
export function isTempWorkdirPath(dir: string): boolean {
  const abs = resolve(dir);
  if (dirname(abs) !== resolve(tmpdir()) || !TEMP_WORKDIR_NAME.test(basename(abs))) return false;
  try {
    return lstatSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** What a run record says about its workdir (see RunRecord). */
export interface WorkdirFacts {
  workdir: string;
  tempWorkdir?: boolean;
  keepWorkdir?: boolean;
}

/**
 * After a dead run was reaped: remove its workdir when the run created it as a temporary folder and
 * did not ask to keep it. Returns `removed`, `kept` (a temporary workdir the run asked to keep: a
 * program had crashed or the start failed, and its logs are the evidence), `user` (a folder the
 * user gave, or anything that is not provably ours) or `gone` (nothing there).
 */
export function settleWorkdir(r: WorkdirFacts): 'removed' | 'kept' | 'user' | 'gone' {
  if (r.tempWorkdir !== true) return 'user';
  if (!isTempWorkdirPath(r.workdir)) {
    try {
      lstatSync(r.workdir);
      return 'user';
    } catch {
      return 'gone';
    }
  }
  if (r.keepWorkdir === true) return 'kept';
  // A live testnet holds it (a record that names another run's folder): never removed under it.
  if (liveHolder(join(r.workdir, WORKDIR_LOCK))) return 'user';
  rmSync(resolve(r.workdir), { recursive: true, force: true });
  return 'removed';
}
