// A folder and its missing parents, created without Node's `recursive: true`. That option loops
// forever where mkdir answers ENOENT under a parent that exists (`/proc/nope`: the parent is there,
// the child can never be made), at 100% CPU; the synchronous form then blocks the event loop, so
// neither Ctrl-C nor SIGTERM is heard (seen with `up --workdir /proc/nope`, Node 20). Here each
// missing folder is made once, top down, and the first one that cannot be made fails with its path.
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errnoCode } from './errno.js';

/** An fs error for `path` with `code`, shaped as Node's own (code, path, syscall). */
function fsError(code: string, path: string, what: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`${code}: ${what}, mkdir '${path}'`);
  e.code = code;
  e.path = path;
  e.syscall = 'mkdir';
  return e;
}

/** `abs` and the parents that do not exist, deepest first; throws ENOTDIR naming a file in the way. */
function missingFrom(abs: string, isDir: (p: string) => boolean | undefined): string[] {
  const missing: string[] = [];
  for (let p = abs; ; p = dirname(p)) {
    const dir = isDir(p);
    if (dir === true) return missing;
    if (dir === false) throw fsError('ENOTDIR', p, 'not a directory');
    missing.push(p);
    if (dirname(p) === p) return missing;
  }
}

/** true: a folder; false: something else; undefined: nothing there. Other errors (EACCES) are thrown. */
function isDirSync(p: string): boolean | undefined {
  try {
    return statSync(p).isDirectory();
  } catch (err) {
    // ENOTDIR: a file further up is in the way; the walk up finds and names it.
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined;
    throw err;
  }
}

/** `mkdir -p dir` (the folders it creates get `mode`); an error names the folder that could not be made. */
export function makeDirs(dir: string, mode?: number): void {
  const abs = resolve(dir);
  for (const p of missingFrom(abs, isDirSync).reverse()) {
    try {
      mkdirSync(p, mode === undefined ? undefined : { mode });
    } catch (err) {
      // Made meanwhile by someone else: fine, when it is a folder.
      if (errnoCode(err) === 'EEXIST' && isDirSync(p) === true) continue;
      throw err;
    }
  }
}

/** makeDirs, asynchronously. */
export async function makeDirsAsync(dir: string, mode?: number): Promise<void> {
  const abs = resolve(dir);
  // The walk up is synchronous (a few stat calls); the creation is not.
  for (const p of missingFrom(abs, isDirSync).reverse()) {
    try {
      await mkdir(p, mode === undefined ? undefined : { mode });
    } catch (err) {
      if (errnoCode(err) === 'EEXIST' && (await stat(p).catch(() => undefined))?.isDirectory()) continue;
      throw err;
    }
  }
}
