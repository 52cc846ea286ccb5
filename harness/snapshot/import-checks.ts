// What an import checks before it writes a byte: the archive's size against the import limits, the
// free space of the cache, and whether the cache holds another snapshot under the same key. Each
// check answers a problem in words (naming the field and both values) or nothing.
import { readFile, statfs } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoCode } from '../common/errno.js';
import { canonicalJson } from './key.js';
import { parseManifest, type Manifest } from './manifest.js';

/** 1.5 MiB, 768 MiB, 12 bytes: a size for messages. */
export function formatSize(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(1).replace(/\.0$/, '')} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1).replace(/\.0$/, '')} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(1).replace(/\.0$/, '')} KiB`;
  return `${n} bytes`;
}

export interface ImportLimits {
  /** The most the archive's files may add up to. */
  maxBytes: number;
  /** The largest file. */
  maxFileBytes: number;
}

/** The manifest's files against the limits: the first file over the per-file limit, or the total over its own. */
export function sizeProblem(m: Manifest, limits: ImportLimits): string | undefined {
  const big = m.files.find((f) => f.size > limits.maxFileBytes);
  if (big)
    return `${big.path} is ${formatSize(big.size)} (${big.size} bytes), more than an imported file may be (${formatSize(limits.maxFileBytes)})`;
  const total = manifestBytes(m);
  if (total > limits.maxBytes)
    return `its files add up to ${formatSize(total)} (${total} bytes), more than an import may hold (${formatSize(limits.maxBytes)}; saltnet snapshot load --max-size raises it)`;
  return undefined;
}

export function manifestBytes(m: Manifest): number {
  return m.files.reduce((n, f) => n + f.size, 0);
}

/**
 * The most the decompressed tar stream may hold once the manifest is known: the files, the manifest entry, and
 * for every entry (files, and folders up to a generous number) a header, a pax record with a long path and padding.
 * Anything beyond is not part of the snapshot (a gzip bomb's padding, say) and is refused before it is read.
 */
export function streamAllowance(m: Manifest, manifestEntryBytes: number): number {
  const entries = m.files.length * 2 + 4096;
  return manifestBytes(m) + manifestEntryBytes + entries * 6144 + (4 << 20);
}

/** What the import needs on disk: the files, rounded up to 4 KiB blocks, and a margin. */
export function spaceNeeded(m: Manifest): number {
  return m.files.reduce((n, f) => n + Math.ceil(f.size / 4096) * 4096 + 4096, 0) + (1 << 20);
}

/** Free bytes for an unprivileged writer in the file system of `dir` (or of its nearest folder that exists). */
export async function freeBytesOf(dir: string): Promise<number> {
  for (let d = dir; ; d = dirname(d)) {
    try {
      const s = await statfs(d);
      return Number(s.bavail) * Number(s.bsize);
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT' || dirname(d) === d) throw e;
    }
  }
}

/** The space problem of writing `m` into `dir`, if there is one. */
export function spaceProblem(m: Manifest, dir: string, free: number): string | undefined {
  const need = spaceNeeded(m);
  if (need <= free) return undefined;
  return `its files need ${formatSize(need)} in ${dir}, and only ${formatSize(free)} is free there (free some space, or import into another --cache-dir)`;
}

/** The manifest as compared between two snapshots: everything but when it was made. */
function identity(m: Manifest): string {
  const { createdAt: _c, ...rest } = m;
  return canonicalJson(rest);
}

/** Where two manifests of one key differ first, as `field: <cached> in the cache, <archive> in the archive`. */
export function firstDifference(cached: Manifest, incoming: Manifest): string {
  const show = (v: unknown): string => (typeof v === 'string' ? v : canonicalJson(v));
  for (const f of ['backend', 'binaries', 'difficulty', 'height', 'wallets', 'extra'] as const) {
    if (canonicalJson(cached[f] ?? null) !== canonicalJson(incoming[f] ?? null))
      return `${f}: ${show(cached[f] ?? 'none')} in the cache, ${show(incoming[f] ?? 'none')} in the archive`;
  }
  const theirs = new Map(incoming.files.map((f) => [f.path, f]));
  for (const f of cached.files) {
    const o = theirs.get(f.path);
    if (!o) return `files: ${f.path} is in the cached snapshot, not in the archive`;
    if (o.size !== f.size) return `${f.path}: ${f.size} bytes in the cache, ${o.size} in the archive`;
    if (o.sha256 !== f.sha256)
      return `${f.path}: sha256 ${f.sha256.slice(0, 12)}… in the cache, ${o.sha256.slice(0, 12)}… in the archive`;
    if (o.mode !== f.mode)
      return `${f.path}: mode ${f.mode.toString(8)} in the cache, ${o.mode.toString(8)} in the archive`;
  }
  const mine = new Set(cached.files.map((f) => f.path));
  const extra = incoming.files.find((f) => !mine.has(f.path));
  return extra ? `files: ${extra.path} is in the archive, not in the cached snapshot` : 'the manifests differ';
}

/**
 * A snapshot under the same key in `dir` that is not the archive's (a key names one chain state: replacing it with
 * another would poison the cache). A cached snapshot whose manifest cannot be read is no obstacle: a load would set
 * it aside as corrupt anyway.
 */
export async function collisionProblem(dir: string, m: Manifest): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, m.key, 'manifest.json'), 'utf8');
  } catch (e) {
    if (['ENOENT', 'ENOTDIR'].includes(errnoCode(e) ?? '')) return undefined;
    throw e;
  }
  const parsed = parseManifest(text);
  if ('problem' in parsed || parsed.manifest.key !== m.key) return undefined;
  if (identity(parsed.manifest) === identity(m)) return undefined;
  return `the cache already holds a different snapshot under its key ${m.key} (${firstDifference(parsed.manifest, m)}); a key names one chain state, so it is not replaced: remove the cached one first (saltnet cache clear --key ${m.key}) if the archive's is the one to keep`;
}
