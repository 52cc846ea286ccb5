// The checks that decide whether an archive may be unpacked at all.
import { InstallError } from './errors.js';
import { hashFor, parseHashesFile, readHashesFile } from './hashes-file.js';
import { SHA256_RE } from './releases.js';

export interface VerifyContext {
  version: string;
  asset: string;
  /** The URL or path the archive came from. */
  from: string;
  /** Where the expected hash came from, for the message ("the pinned table …", "--sha256"). */
  expectedFrom: string;
}

/** Throw HASH_MISMATCH unless `actual` is `expected`; the message names both, the source and the version. */
export function checkSha256(actual: string, expected: string, ctx: VerifyContext): void {
  if (actual.toLowerCase() === expected.toLowerCase()) return;
  throw new InstallError(
    'HASH_MISMATCH',
    `refusing ${ctx.asset} of Salvium ${ctx.version} from ${ctx.from}: its sha256 is ${actual}, but ${ctx.expectedFrom} expects ${expected}. ` +
      'The download was deleted and nothing was installed. A mirror serving another file, a re-published release or a tampered download all look like this: ' +
      'check the release page before pinning a new hash',
  );
}

/**
 * --check-hashes-file: a second opinion from the release's own hashes file. It is fetched from
 * the same place as the archive, so it can only catch a pinned-table mistake or a re-published
 * release, not a compromised host; the pinned table stays the trust anchor. The asset must be
 * listed, with the same hash.
 */
export async function checkAgainstHashesFile(
  source: string,
  asset: string,
  expected: string,
  version: string,
): Promise<void> {
  const { lines } = parseHashesFile(await readHashesFile(source));
  const listed = hashFor(lines, asset, source);
  if (listed === undefined) {
    throw new InstallError(
      'HASHES_FILE_MISMATCH',
      `the hashes file ${source} does not list ${asset} (Salvium ${version}); it lists ${lines.map((l) => l.name).join(', ') || 'nothing'}`,
    );
  }
  if (listed !== expected) {
    throw new InstallError(
      'HASHES_FILE_MISMATCH',
      `the hashes file ${source} gives ${asset} (Salvium ${version}) the sha256 ${listed}, but the expected one is ${expected}: nothing was downloaded; find out which is right before installing`,
    );
  }
}

/** The --sha256 option, lower-cased; BAD_OPTIONS unless it is 64 hex digits. */
export function sha256Option(value: string | undefined): string | undefined {
  const sha = value?.trim().toLowerCase();
  if (sha !== undefined && !SHA256_RE.test(sha))
    throw new InstallError('BAD_OPTIONS', `--sha256 must be 64 hex digits, got ${JSON.stringify(value)}`);
  return sha;
}
