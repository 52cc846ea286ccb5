// manifest.json: what a snapshot holds (every file with its size, sha256 and mode) and what chain
// state it is (backend, binaries, difficulty, height, wallets). Written last by a save; a snapshot
// folder without a valid one is never used.
import { z } from 'zod';
import { KEY_PATTERN } from './key.js';

export const MANIFEST_FORMAT_VERSION = 1;

/** A source (top-level folder of a snapshot) name: one path segment, never "manifest.json". */
export const SOURCE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function isValidSourceName(name: string): boolean {
  return SOURCE_NAME_PATTERN.test(name) && name !== 'manifest.json';
}

/**
 * A relative POSIX path that cannot leave its folder: no leading slash, no '.', '..' or empty segments, no backslash or
 * NUL.
 */
export function isSafeRelativePath(path: string): boolean {
  if (path === '' || path.length > 4096 || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'expected a lowercase hex sha256');

export const ManifestFileSchema = z.object({
  /** Relative POSIX path inside the snapshot: <source name>/<path inside the source>. */
  path: z
    .string()
    .refine(isSafeRelativePath, 'expected a relative POSIX path without ".", ".." or empty segments')
    .refine((p) => p.includes('/') && isValidSourceName(p.slice(0, p.indexOf('/'))), 'expected <source name>/<path>'),
  size: z.number().int().nonnegative(),
  sha256: sha256Hex,
  /** Permission bits (0o000-0o777). */
  mode: z.number().int().min(0).max(0o777),
});

export const ManifestWalletSchema = z.object({
  name: z.string().min(1),
  addresses: z.object({ cn: z.string(), carrot: z.string().optional() }),
});

export const ManifestSchema = z.object({
  formatVersion: z.literal(MANIFEST_FORMAT_VERSION),
  key: z.string().regex(KEY_PATTERN, 'expected a snapshot key (letters, digits, - and _)'),
  createdAt: z.iso.datetime(),
  backend: z.string().min(1),
  binaryVersion: z.string().optional(),
  /** Binary name -> sha256. */
  binaries: z.record(z.string(), sha256Hex),
  difficulty: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  wallets: z.array(ManifestWalletSchema),
  files: z.array(ManifestFileSchema).superRefine((files, ctx) => {
    const seen = new Set<string>();
    files.forEach((f, i) => {
      if (seen.has(f.path)) ctx.addIssue({ code: 'custom', message: `duplicate path ${f.path}`, path: [i, 'path'] });
      seen.add(f.path);
    });
  }),
  extra: z.record(z.string(), z.unknown()).optional(),
});

export type Manifest = z.infer<typeof ManifestSchema>;
export type ManifestFile = z.infer<typeof ManifestFileSchema>;
export type ManifestWallet = z.infer<typeof ManifestWalletSchema>;

/** What a caller of saveSnapshot describes; the store fills in the rest. */
export type ManifestInput = Omit<Manifest, 'files' | 'formatVersion' | 'key' | 'createdAt'>;
export const ManifestInputSchema = ManifestSchema.omit({
  files: true,
  formatVersion: true,
  key: true,
  createdAt: true,
});

/** One line of `saltnet cache ls`. */
export interface SnapshotSummary {
  key: string;
  backend: string;
  difficulty: number;
  height: number;
  /** Total bytes of the snapshot's files. */
  size: number;
  files: number;
  createdAt: string;
}

export function summarize(m: Manifest): SnapshotSummary {
  return {
    key: m.key,
    backend: m.backend,
    difficulty: m.difficulty,
    height: m.height,
    size: m.files.reduce((n, f) => n + f.size, 0),
    files: m.files.length,
    createdAt: m.createdAt,
  };
}

/** zod issues as one line: "files.3.sha256: expected a lowercase hex sha256; height: ..." */
export function describeIssues(error: z.ZodError, max = 5): string {
  const lines = error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  return lines.slice(0, max).join('; ') + (lines.length > max ? `; and ${lines.length - max} more` : '');
}

/** Parse manifest.json text; a problem is described in words, never thrown. */
export function parseManifest(text: string): { manifest: Manifest } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { problem: `manifest.json is not valid JSON (${(e as Error).message})` };
  }
  const r = ManifestSchema.safeParse(json);
  return r.success
    ? { manifest: r.data }
    : { problem: `manifest.json does not fit the manifest schema: ${describeIssues(r.error)}` };
}

/** manifest.json text as the store writes it. */
export function serializeManifest(m: Manifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}
