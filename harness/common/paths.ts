// Path containment, after the paths are resolved (symbolic links are the caller's business).
import { isAbsolute, relative, sep } from 'node:path';

/** Whether `child` is `parent` itself or somewhere below it. */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Whether `child` is strictly below `parent` (not `parent` itself). */
export function isBelow(parent: string, child: string): boolean {
  return relative(parent, child) !== '' && isWithin(parent, child);
}
