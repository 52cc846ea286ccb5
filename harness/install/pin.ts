// Making a pinned-table entry from a release's hashes file (scripts/pin-release.ts is the command).
// The maintainer who runs it is the one who decides the hashes file is genuine (downloaded from
// the release page, signature checked where there is one); this code only transcribes it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { InstallError } from './errors.js';
import { hashFor, parseHashesFile, readHashesFile } from './hashes-file.js';
import { classifyAssetName, isPlatformId, PLATFORMS, type PlatformId } from './platform.js';
import {
  compareVersionsDesc,
  normalizeVersion,
  ReleaseTableSchema,
  type PinnedAsset,
  type PinnedRelease,
  type ReleaseTable,
} from './releases.js';
import { archiveFormat } from './unpack.js';

export interface PinOptions {
  version: string;
  /** URL or path of the hashes file. */
  hashesFile: string;
  /** The table to update. */
  table: string;
  /** `<platform>=<asset name>` choices, for names the classifier cannot place or places twice. */
  assets?: string[];
  /** Today, as an ISO date (tests pass a fixed one). */
  today?: string;
}

export interface PinOutcome {
  entry: PinnedRelease;
  /** Whether an entry for that version was replaced. */
  replaced: boolean;
  /** Things a maintainer should read before committing. */
  warnings: string[];
}

function parseChoices(choices: string[]): Map<string, PlatformId> {
  const byName = new Map<string, PlatformId>();
  for (const c of choices) {
    const m = /^([^=]+)=(.+)$/.exec(c);
    if (!m || !isPlatformId(m[1] ?? ''))
      throw new InstallError(
        'BAD_OPTIONS',
        `--asset ${c}: write <platform>=<asset name>, platform one of ${PLATFORMS.join(', ')}`,
      );
    byName.set(m[2] as string, m[1] as PlatformId);
  }
  return byName;
}

/** The table entry for `version` made from the hashes file's text. */
export function entryFromHashes(
  text: string,
  opts: { version: string; pinnedFrom: string; assets?: string[]; today: string },
): { entry: PinnedRelease; warnings: string[] } {
  const version = normalizeVersion(opts.version);
  const { lines, skipped } = parseHashesFile(text);
  const warnings: string[] = [];
  if (skipped.length)
    warnings.push(
      `skipped ${skipped.length} line(s) that are not hash lines (headers, signature armour): a PGP signature, if any, was NOT checked`,
    );
  const chosen = parseChoices(opts.assets ?? []);
  for (const name of chosen.keys())
    if (!lines.some((l) => l.name === name))
      throw new InstallError('BAD_OPTIONS', `--asset …=${name}: the hashes file does not list ${name}`);
  const names = [...new Set(lines.map((l) => l.name))];
  const archives = names.filter((n) => archiveFormat(n) !== undefined);
  const unsupported = names.filter((n) => archiveFormat(n) === undefined);
  if (unsupported.length)
    warnings.push(`not pinned (not a .tar.gz/.tgz/.tar/.zip archive saltnet can unpack): ${unsupported.join(', ')}`);
  if (!archives.length)
    throw new InstallError(
      'BAD_OPTIONS',
      `${opts.pinnedFrom} lists no archive saltnet can unpack (${names.join(', ') || 'no hash lines at all'})`,
    );
  const foreign = archives.filter((n) => !n.includes(version) && !n.includes(version.replace(/^v/, '')));
  if (foreign.length)
    warnings.push(
      `these names do not contain ${version}; is this the hashes file of that release? ${foreign.join(', ')}`,
    );

  const byPlatform = new Map<PlatformId, string[]>();
  const chosenPlatforms = new Set(chosen.values());
  for (const n of archives) {
    // A platform chosen with --asset takes that archive; the others that look like it stay unassigned.
    const guessed = classifyAssetName(n);
    const p = chosen.get(n) ?? (guessed && !chosenPlatforms.has(guessed) ? guessed : undefined);
    if (p) byPlatform.set(p, [...(byPlatform.get(p) ?? []), n]);
  }
  const platformOf = new Map<string, PlatformId>();
  for (const [p, list] of byPlatform) {
    if (list.length > 1)
      throw new InstallError(
        'BAD_OPTIONS',
        `more than one archive looks like ${p}: ${list.join(', ')}; choose with --asset ${p}=<name>`,
      );
    platformOf.set(list[0] as string, p);
  }
  const assets: PinnedAsset[] = archives.map((name) => {
    const sha256 = hashFor(lines, name, opts.pinnedFrom) as string;
    const platform = platformOf.get(name);
    return platform ? { name, sha256, platform } : { name, sha256 };
  });
  const missing = PLATFORMS.filter((p) => !byPlatform.has(p));
  if (missing.length === PLATFORMS.length)
    throw new InstallError(
      'BAD_OPTIONS',
      `no archive in ${opts.pinnedFrom} could be matched to a platform (${archives.join(', ')}); choose with --asset <platform>=<name>`,
    );
  if (missing.length) warnings.push(`no archive for ${missing.join(', ')}: \`saltnet install\` on those says so`);
  return { entry: { version, pinnedFrom: opts.pinnedFrom, pinnedAt: opts.today, assets }, warnings };
}

/**
 * Read the hashes file, make the entry, and write it into the table (newest first; an entry of the same version is
 * replaced).
 */
export async function pinRelease(opts: PinOptions): Promise<PinOutcome> {
  const text = await readHashesFile(opts.hashesFile);
  // A URL is worth keeping as it is; a local path only says something on the machine that ran this.
  const pinnedFrom = /^https?:\/\//i.test(opts.hashesFile)
    ? opts.hashesFile
    : `local file ${basename(opts.hashesFile)}`;
  const { entry, warnings } = entryFromHashes(text, {
    version: opts.version,
    pinnedFrom,
    assets: opts.assets,
    today: opts.today ?? new Date().toISOString().slice(0, 10),
  });
  const current: ReleaseTable = existsSync(opts.table)
    ? ReleaseTableSchema.parse(JSON.parse(readFileSync(opts.table, 'utf8')))
    : { releases: [] };
  const replaced = current.releases.some((r) => r.version === entry.version);
  const releases = [...current.releases.filter((r) => r.version !== entry.version), entry].sort((a, b) =>
    compareVersionsDesc(a.version, b.version),
  );
  const next = ReleaseTableSchema.parse({ ...current, releases });
  const tmp = `${opts.table}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
  renameSync(tmp, opts.table);
  return { entry, replaced, warnings };
}
