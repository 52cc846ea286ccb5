// The errno code of a Node fs error.

/** The errno code of a Node fs error (`ENOENT`, `EACCES`, …), if any. */
export function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}
