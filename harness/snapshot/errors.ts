// The one error type of the snapshot store: a code a caller can branch on and a message a person
// can act on (it names the folder, key or archive concerned).

export type SnapshotErrorCode =
  | 'BAD_KEY' // not a usable snapshot key
  | 'BAD_SOURCE' // a save source that is missing, not a folder, misnamed or holds something unsupported
  | 'BAD_MANIFEST' // manifest fields given to saveSnapshot do not fit the schema
  | 'SOURCE_CHANGED' // a file changed while it was being saved
  | 'TARGET_NOT_EMPTY' // loadSnapshot never writes into a folder that holds anything
  | 'BAD_TARGET' // load targets that are misnamed, the same folder twice or nested in each other
  | 'UNKNOWN_SOURCE' // a load target names a source the snapshot does not have
  | 'NOT_FOUND' // no snapshot under that key (export), or no archive to import
  | 'CORRUPT' // the snapshot failed verification (export); it has been moved aside
  | 'BAD_ARCHIVE' // an import archive that is malformed, fails verification or whose manifest does not match it
  | 'TOO_LARGE' // an import archive larger than the import limits
  | 'NO_SPACE' // not enough free space in the cache for an import
  | 'KEY_TAKEN' // the cache holds a different snapshot under the key an import archive claims
  | 'WRITE_FAILED'; // writing an import into the cache failed (the path and the system's reason are named)

export class SnapshotError extends Error {
  override readonly name = 'SnapshotError';
  readonly code: SnapshotErrorCode;

  constructor(code: SnapshotErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** `cannot import <archive>: <what>`: an import refused, with nothing of it left in the cache. */
export function importError(code: SnapshotErrorCode, archive: string, what: string, cause?: unknown): SnapshotError {
  return new SnapshotError(code, `cannot import ${archive}: ${what}`, cause === undefined ? undefined : { cause });
}
