// The errno code of a Node fs error.

/** The errno code of a Node fs error (`ENOENT`, `EACCES`, …), if any. */
export function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

const WORDS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  EEXIST: 'something is in the way',
  ENOSPC: 'no space left on the disk',
  EROFS: 'read-only file system',
  ELOOP: 'a loop of symbolic links',
  ENAMETOOLONG: 'the name is too long',
};

/** A Node fs error in words: "permission denied (EACCES)", else its message. */
export function errnoWords(e: unknown): string {
  const code = errnoCode(e);
  if (code && WORDS[code]) return `${WORDS[code]} (${code})`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * `; its name is not valid UTF-8 …` for a path that holds U+FFFD, the character Node puts in place of bytes that are
 * not UTF-8 (in a command line, say): such a file exists under a name saltnet cannot write, so "no such file" alone
 * would mislead. Else ''.
 */
export function notUtf8Hint(path: string): string {
  return path.includes('\uFFFD')
    ? '; its name is not valid UTF-8 (the "\uFFFD" stands for bytes that are not), and saltnet reads names as UTF-8: rename the file'
    : '';
}
