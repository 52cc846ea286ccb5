// Trust on first use: the SHA-256 of each archive this cache installed for a version the pinned
// table does not list, in `<cacheDir>/bin/trusted-sha256.json`. The first install of a version +
// asset name (with --trust-on-first-use, --sha256 or --from <archive>) records its hash; every
// later install of that version + asset must have the same one, or is refused naming both — as
// ssh's known_hosts does. To accept a re-published archive on purpose, delete its entry.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { z } from 'zod';
import { InstallError } from './errors.js';
import { SHA256_RE } from './releases.js';

export const TRUST_FILE = 'trusted-sha256.json';

const Entry = z.object({
  version: z.string(),
  asset: z.string(),
  sha256: z.string().regex(SHA256_RE),
  /** How the hash was first accepted. */
  how: z.enum(['trust-on-first-use', 'sha256-option', 'local']),
  /** Where that archive came from (URL or path). */
  from: z.string(),
  recordedAt: z.string(),
});
export type TrustedHash = z.infer<typeof Entry>;

const TrustFileSchema = z.object({ $comment: z.string().optional(), entries: z.array(Entry) });

const COMMENT =
  'Hashes saltnet install accepted on first use for versions the pinned table does not list; a later install of the same version and asset must match. Delete an entry to accept another archive. See harness/install/README.md.';

export function trustFilePath(binRoot: string): string {
  return join(binRoot, TRUST_FILE);
}

function readEntries(file: string): TrustedHash[] {
  if (!existsSync(file)) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InstallError(
      'BAD_TABLE',
      `cannot read the trust-on-first-use record ${file}: ${err instanceof Error ? err.message : String(err)}; fix it or delete it`,
      { cause: err },
    );
  }
  const parsed = TrustFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new InstallError(
      'BAD_TABLE',
      `the trust-on-first-use record ${file} is malformed (${issues}); fix it or delete it`,
    );
  }
  return parsed.data.entries;
}

/** The hash recorded for `version` + `asset`, if any. */
export function lookupTrusted(binRoot: string, version: string, asset: string): TrustedHash | undefined {
  return readEntries(trustFilePath(binRoot)).find((e) => e.version === version && e.asset === asset);
}

/** How a recorded hash is named in messages. */
export function describeTrusted(binRoot: string, e: TrustedHash): string {
  return `the hash recorded on first use in ${trustFilePath(binRoot)} (${e.recordedAt}, from ${e.from})`;
}

/** The refusal of an archive whose hash differs from the one on record. */
export function trustMismatch(binRoot: string, e: TrustedHash, actual: string, what: string): InstallError {
  return new InstallError(
    'HASH_MISMATCH',
    `refusing ${what}: its sha256 is ${actual}, but ${describeTrusted(binRoot, e)} is ${e.sha256}. Nothing was installed. ` +
      `If ${e.asset} of ${e.version} was re-published on purpose, delete its entry from ${trustFilePath(binRoot)} and install again`,
  );
}

/**
 * Record the hash of `version` + `asset` (under a lock, so two installs cannot both be "first"). The same hash again
 * is a no-op; another one is refused with HASH_MISMATCH.
 */
export async function recordTrusted(binRoot: string, entry: TrustedHash): Promise<void> {
  const file = trustFilePath(binRoot);
  const release = await lockfile.lock(file, {
    realpath: false,
    lockfilePath: `${file}.lock`,
    retries: { retries: 20, minTimeout: 50, maxTimeout: 500 },
  });
  try {
    const entries = readEntries(file);
    const known = entries.find((e) => e.version === entry.version && e.asset === entry.asset);
    if (known) {
      if (known.sha256 === entry.sha256) return;
      throw trustMismatch(binRoot, known, entry.sha256, `${entry.asset} of Salvium ${entry.version}`);
    }
    const tmp = `${file}.tmp-${process.pid}`;
    writeFileSync(tmp, `${JSON.stringify({ $comment: COMMENT, entries: [...entries, entry] }, null, 2)}\n`, {
      mode: 0o644,
    });
    renameSync(tmp, file);
  } finally {
    await release();
  }
}
