// The run's workdir made ready (its logs/ and wallets/ folders), with an error that says what is in
// the way — a file where the folder should be, a folder saltnet may not write — instead of a raw
// ENOTDIR or EACCES; and the wallet programs' ring database kept in it.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeDirs } from '../common/mkdir.js';

/** The first of `dir` and its parents that exists and is not a folder, if any. */
function fileInTheWay(dir: string): string | undefined {
  for (let p = dir; ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) return p;
      return undefined; // an existing folder: nothing above it can be in the way
    } catch {
      /* missing: look at its parent */
    }
    if (dirname(p) === p) return undefined;
  }
}

/** One line for a failure to create `sub` in the workdir `dir`; `given`: the user named it (--workdir). */
export function workdirProblem(err: NodeJS.ErrnoException, dir: string, given: boolean): string {
  const label = given ? `--workdir ${dir}` : `the temporary workdir ${dir}`;
  const fix = given ? 'give another --workdir' : 'set TMPDIR to a folder you can write, or give --workdir';
  const file = err.code === 'ENOTDIR' || err.code === 'EEXIST' ? fileInTheWay(dir) : undefined;
  if (file === dir) return `${label} is a file, not a folder: ${fix}`;
  if (file) return `${label} cannot be created: ${file} is a file, not a folder: ${fix}`;
  if (err.code === 'EACCES' || err.code === 'EPERM')
    return `${label} cannot be created or written: permission denied${err.path ? ` on ${err.path}` : ''}: ${fix}`;
  if (err.code === 'EROFS') return `${label} is on a read-only file system: ${fix}`;
  if (err.code === 'ENOENT' && err.path)
    return `${label} cannot be created: ${err.path} cannot be made in ${dirname(err.path)} (ENOENT: a file system such as /proc takes no new folders): ${fix}`;
  if (err.code === 'ENOSPC') return `${label}: no space left on the device: free some space or ${fix}`;
  return `${label} cannot be created: ${err.message}`;
}

/** Create `dir` with the given subfolders (missing parents too), or throw an Error with workdirProblem's message. */
export function makeWorkdir(dir: string, given: boolean, subfolders: readonly string[]): void {
  try {
    for (const d of subfolders) makeDirs(`${dir}/${d}`);
  } catch (err) {
    throw new Error(workdirProblem(err as NodeJS.ErrnoException, dir, given), { cause: err });
  }
}

/**
 * The wallet programs' ring database in the testnet's workdir (`--shared-ringdb-dir`): by default they keep it in
 * ~/.shared-ringdb, outside the throwaway testnet, under the user's home. Not part of a snapshot.
 */
export function ringdbArgs(workdir: string): string[] {
  return ['--shared-ringdb-dir', join(workdir, 'ringdb')];
}
