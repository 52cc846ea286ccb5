// The one error type of `saltnet install`: a code a caller (and a test) can branch on, and a
// message a person can act on — it names the version, the URL or file concerned and the fix.

export type InstallErrorCode =
  | 'UNSUPPORTED_PLATFORM' // no Salvium build for this OS/CPU
  | 'UNKNOWN_VERSION' // not in the pinned table, and neither --sha256 nor --trust-on-first-use given
  | 'NO_ASSET' // the pinned release has no archive for this platform (or the --asset named)
  | 'BAD_OPTIONS' // options that contradict each other or are malformed
  | 'BAD_TABLE' // the pinned table (or a --releases file) does not fit its schema
  | 'DOWNLOAD_FAILED' // network down, connection refused, timeout, HTTP error, too large
  | 'HASH_MISMATCH' // the archive is not the one that was pinned (or recorded on first use, or given with --sha256)
  | 'HASHES_FILE_MISMATCH' // --check-hashes-file disagrees with the pinned hash
  | 'BAD_ARCHIVE' // unreadable archive, or an entry that would land outside the folder
  | 'MISSING_BINARIES' // the archive holds no folder with salviumd, salvium-wallet-cli and salvium-wallet-rpc
  | 'FOREIGN_PROGRAM' // a program is not an executable of the platform (a script, an ELF for another CPU, …)
  | 'MISSING_LIBRARIES' // the programs need shared libraries this machine does not have (ldd: not found)
  | 'PROGRAM_FAILED'; // a program does not run here (`--version` fails), or prints a version other than --version

export class InstallError extends Error {
  override readonly name = 'InstallError';
  readonly code: InstallErrorCode;

  constructor(code: InstallErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
