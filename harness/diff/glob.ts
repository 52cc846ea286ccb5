// The two small glob languages of an accept file: file globs (`scenarios/*.yaml`, `**`, `?`,
// `{a,b}`) and answer-path globs (`result.balances[*].blocks_to_unlock`, `result.**`).
import { parsePath } from '../common/path.js';

const escape = (c: string): string => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Whether a string holds glob characters. */
export function isGlob(s: string): boolean {
  return /[*?{]/.test(s);
}

/**
 * A file glob as a regular expression over `/`-separated paths: `*` and `?` stay within a folder, `**` crosses folders.
 */
export function fileGlob(pattern: string): RegExp {
  let re = '';
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      const slash = pattern[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === ',' && braces > 0) re += '|';
    else re += escape(c);
  }
  return new RegExp(`^${re}${')'.repeat(braces)}$`);
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
