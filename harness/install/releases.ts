// The pinned release table: for each Salvium version, the archive file names and their SHA-256.
// It is the trust anchor of `saltnet install` — an archive is installed only when its hash is in
// this file (or was given explicitly with --sha256). Entries are written by
// scripts/pin-release.ts from a release's published hashes file, never by hand-copying hashes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InstallError } from './errors.js';
import { PLATFORMS } from './platform.js';

/** fixtures/releases/salvium.json, from the sources (vitest) and from dist/ alike. */
export const DEFAULT_TABLE_FILE = fileURLToPath(
  new URL(
    import.meta.url.includes('/dist/')
      ? '../../../fixtures/releases/salvium.json'
      : '../../fixtures/releases/salvium.json',
    import.meta.url,
  ),
);

/**
 * Tags and file names end up in URLs and folder names (`<cacheDir>/bin/salvium-<version>`), so
 * both are limited to characters that cannot climb out of a folder or break a URL path.
 */
export const VERSION_RE = /^[0-9A-Za-z][0-9A-Za-z._+-]{0,63}$/;
export const ASSET_NAME_RE = /^[0-9A-Za-z][0-9A-Za-z._+-]{0,199}$/;
export const SHA256_RE = /^[0-9a-f]{64}$/;

const Asset = z.object({
  name: z.string().regex(ASSET_NAME_RE, 'a plain file name'),
  sha256: z.string().regex(SHA256_RE, '64 lowercase hex digits'),
  /** Absent for archives that are pinned but are not the default for any platform. */
  platform: z.enum(PLATFORMS).optional(),
});

const Release = z
  .object({
    version: z.string().regex(VERSION_RE, 'a release tag such as v1.1.3c'),
    /** The hashes file the entry was made from (URL or file name), for whoever checks it later. */
    pinnedFrom: z.string().min(1),
    /** ISO date the entry was written. */
    pinnedAt: z.string().min(1),
    assets: z.array(Asset).min(1),
  })
  .superRefine((r, ctx) => {
    const seen = new Set<string>();
    for (const a of r.assets) {
      if (seen.has(a.name)) ctx.addIssue({ code: 'custom', message: `${r.version}: asset ${a.name} is listed twice` });
      seen.add(a.name);
    }
    for (const p of PLATFORMS) {
      if (r.assets.filter((a) => a.platform === p).length > 1)
        ctx.addIssue({ code: 'custom', message: `${r.version}: more than one asset for ${p}` });
    }
  });

export const ReleaseTableSchema = z
  .object({
    $comment: z.string().optional(),
    /** Newest first: the first entry is what `saltnet install` without --version installs. */
    releases: z.array(Release),
  })
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    for (const r of t.releases) {
      if (seen.has(r.version)) ctx.addIssue({ code: 'custom', message: `version ${r.version} is listed twice` });
      seen.add(r.version);
    }
  });

export type ReleaseTable = z.infer<typeof ReleaseTableSchema>;
export type PinnedRelease = ReleaseTable['releases'][number];
export type PinnedAsset = PinnedRelease['assets'][number];

export const PIN_HINT =
  'install a release you have with `saltnet install --from <archive or folder>`, or download one with `saltnet install --version V --sha256 <hex>` (a hash you checked) or `--trust-on-first-use`; maintainers pin a release with `npm run build && node dist/scripts/pin-release.js <version> <hashes file URL or path>` (see harness/install/README.md)';

/** Read and validate a table file; a broken table is an error, never an empty one. */
export function loadReleaseTable(file: string = DEFAULT_TABLE_FILE): ReleaseTable {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new InstallError(
      'BAD_TABLE',
      `cannot read the release table ${file}: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  const parsed = ReleaseTableSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new InstallError('BAD_TABLE', `the release table ${file} is malformed: ${issues}`);
  }
  return parsed.data;
}

/** Tags are `v`-prefixed; accept `1.1.3c` for `v1.1.3c`. */
export function normalizeVersion(version: string): string {
  const v = version.trim();
  const tag = /^[0-9]/.test(v) ? `v${v}` : v;
  if (!VERSION_RE.test(tag))
    throw new InstallError(
      'BAD_OPTIONS',
      `--version ${JSON.stringify(version)} is not a release tag (letters, digits, '.', '_', '+', '-'; e.g. v1.1.3c)`,
    );
  return tag;
}

/** Newest first, comparing digit runs as numbers (v1.10.0 after v1.9.0). */
export function compareVersionsDesc(a: string, b: string): number {
  return b.localeCompare(a, 'en', { numeric: true });
}
