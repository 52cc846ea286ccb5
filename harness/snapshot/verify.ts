// Checking a snapshot folder against its manifest: every listed file present with its size and
// sha256, nothing else there. Read-only; the caller decides what to do with a problem.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode } from '../common/errno.js';
import { SMALL_FILE, hashPath, hashSmallFileSync, inBatches, mapLimit, walk } from '../common/files.js';
import { parseManifest, type Manifest, type ManifestFile } from './manifest.js';

export interface VerifiedSnapshot {
  manifest: Manifest;
  /** Top-level folders: the sources the snapshot was saved from. */
  sources: string[];
  /** Every folder of the snapshot (relative POSIX paths), empty ones included. */
  dirs: string[];
}

const HASH_CONCURRENCY = 4;
const SMALL_BATCH = 200;
const MAX_LISTED = 5;

function joinProblems(problems: string[]): string {
  const shown = problems.slice(0, MAX_LISTED).join('; ');
  return problems.length > MAX_LISTED ? `${shown}; and ${problems.length - MAX_LISTED} more` : shown;
}

export async function verifySnapshotDir(dir: string, key: string): Promise<VerifiedSnapshot | { problem: string }> {
  let text: string;
  try {
    text = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT') return { problem: 'manifest.json is missing' };
    if (code === 'ENOTDIR') return { problem: `${dir} is not a folder` };
    return { problem: `manifest.json cannot be read (${(e as Error).message})` };
  }
  const parsed = parseManifest(text);
  if ('problem' in parsed) return parsed;
  const { manifest } = parsed;
  if (manifest.key !== key) return { problem: `manifest.json is for key ${manifest.key}, not ${key}` };

  const tree = await walk(dir);
  const problems: string[] = tree.others.map((o) => `unexpected ${o.kind} ${o.path}`);
  const present = new Set(tree.files);
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const f of manifest.files) if (!present.has(f.path)) problems.push(`missing file ${f.path}`);
  for (const p of tree.files)
    if (p !== 'manifest.json' && !listed.has(p)) problems.push(`extra file ${p} (not in the manifest)`);
  if (problems.length) return { problem: joinProblems(problems) };

  const check = (f: ManifestFile, got: { sha256: string; size: number }): void => {
    if (got.size !== f.size) problems.push(`${f.path} has ${got.size} bytes, the manifest says ${f.size}`);
    else if (got.sha256 !== f.sha256)
      problems.push(
        `${f.path} differs from the manifest (sha256 ${got.sha256.slice(0, 12)}…, expected ${f.sha256.slice(0, 12)}…)`,
      );
  };
  const unreadable = (f: ManifestFile, e: unknown): void => {
    problems.push(`${f.path} cannot be read (${errnoCode(e) ?? (e as Error).message})`);
  };
  // Large files stream through the thread pool while the small ones are read synchronously in batches.
  const small = manifest.files.filter((f) => f.size < SMALL_FILE);
  const large = mapLimit(
    manifest.files.filter((f) => f.size >= SMALL_FILE),
    HASH_CONCURRENCY,
    async (f) => {
      try {
        check(f, await hashPath(join(dir, f.path), f.size));
      } catch (e) {
        unreadable(f, e);
      }
    },
  );
  const buf = Buffer.allocUnsafe(SMALL_FILE);
  await inBatches(small, SMALL_BATCH, (f) => {
    try {
      check(f, hashSmallFileSync(join(dir, f.path), f.size, buf));
    } catch (e) {
      unreadable(f, e);
    }
  });
  await large;
  if (problems.length) return { problem: joinProblems(problems.sort()) };
  return { manifest, sources: tree.dirs.filter((d) => !d.includes('/')), dirs: tree.dirs };
}
