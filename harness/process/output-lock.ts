// One writer per output path (a report, a recording, an archive): the lock of process/owner-lock.ts,
// kept in the run registry's folder (`locks/<sha256 of the path>.lock`), not next to the user's file.
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { makeDirs } from '../common/mkdir.js';
import { takeOwnerLock, type OwnerLock } from './owner-lock.js';
import { stateDir } from './registry.js';

/** Take the lock of `path` (`label`: the option that named it); a LockedError names the live holder. */
export async function lockOutput(path: string, label: string, what: string): Promise<OwnerLock> {
  const abs = resolve(path);
  const dir = join(stateDir(), 'locks');
  makeDirs(dir, 0o700);
  const name = createHash('sha256').update(abs).digest('hex').slice(0, 32);
  return takeOwnerLock(join(dir, `${name}.lock`), `${label} ${path}`, { what });
}
