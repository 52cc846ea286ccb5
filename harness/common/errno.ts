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
