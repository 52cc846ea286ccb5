// The two glob languages of an accept file: file and name globs (`scenarios/*.yaml`, `**`, `?`, `{a,b}`:
// picomatch's), and answer-path globs (`result.balances[*].blocks_to_unlock`, `result.**`).
//
// Answer-path globs stay our own: their separators are `.` and `[n]`, not `/`, and `[*]` means any index, where in a
// file glob it is a character class holding `*`. picomatch would take them only through a rewrite of both the
// pattern and every path, which is longer than the few lines below and harder to read.
import picomatch from 'picomatch';
import { parsePath } from '../common/path.js';

const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether a string holds glob characters (as picomatch reads it). */
export function isGlob(s: string): boolean {
  return picomatch.scan(s).isGlob;
}

/**
 * A file glob as a regular expression over `/`-separated paths: `*` and `?` stay within a folder, `**` crosses
 * folders; names starting with a dot match too.
 */
export function fileGlob(pattern: string): RegExp {
  return picomatch.makeRe(pattern, { dot: true });
}

/** The special paths of divergences that are not about one value of an answer. */
export const SPECIAL_PATHS = ['(status)', '(answer)'] as const;

/**
 * An answer-path glob as a regular expression over formatted paths (`result.balances[0].balance`):
 * `[*]` is any index, `*` any one key (or part of one), `**` any number of keys and indexes.
 */
export function pathGlob(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern.startsWith('[*]', i)) {
      re += '\\[\\d+\\]';
      i += 2;
    } else if (pattern.startsWith('**.', i)) {
      re += '(?:.*\\.)?';
      i += 2;
    } else if (pattern.startsWith('**', i)) {
      re += '.*';
      i += 1;
    } else if (pattern[i] === '*') re += '[^.[\\]]*';
    else re += escape(pattern[i]!);
  }
  return new RegExp(`^${re}$`);
}

/** Why an answer-path glob is not one (undefined when it is fine). */
export function pathGlobProblem(pattern: string): string | undefined {
  if ((SPECIAL_PATHS as readonly string[]).includes(pattern)) return undefined;
  const plain = pattern
    .replace(/\[\*\]/g, '[0]')
    .replace(/\*\*/g, 'x')
    .replace(/\*/g, 'x');
  try {
    parsePath(plain);
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(JSON.stringify(plain), JSON.stringify(pattern));
  }
}
