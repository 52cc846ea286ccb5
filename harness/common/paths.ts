// Path containment, after the paths are resolved (symbolic links are the caller's business), and
// where the package is.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Whether `child` is `parent` itself or somewhere below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Whether `child` is strictly below `parent` (not `parent` itself). */
export function isBelow(parent: string, child: string): boolean {
  return relative(parent, child) !== '' && isWithin(parent, child);
}

/** The package root (the folder with package.json), from the source tree or from dist/. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find saltnet's package.json above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
}

/** saltnet's version, from its own package.json (not the one nearest the working directory). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
