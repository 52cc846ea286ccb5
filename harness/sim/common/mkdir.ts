// `mkdir -p` without Node's `recursive: true`, which loops forever at 100% CPU where mkdir answers
// ENOENT under a parent that exists (`/proc/nope`). Each missing folder is made once, top down.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const isDir = (p: string): boolean | undefined => {
  try {
    return statSync(p).isDirectory();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR')
      return undefined;
    throw err;
  }
};

export function makeDirs(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let p = resolve(dir); isDir(p) !== true; p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p, mode === undefined ? undefined : { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || isDir(p) !== true) throw err;
    }
  }
}
