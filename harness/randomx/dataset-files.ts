// The RandomX dataset of a seed, kept on disk: <cacheDir>/randomx/<seed>.dataset (2080 MiB) beside <seed>.json,
// which says what the build cost. The dataset depends only on the seed hash, and every saltnet chain stays below
// the first seed change (height 2048 + 64: the seed is the genesis block's id), so one file serves every block
// saltnet mines on a machine. A build in progress writes <seed>.partial and records, in <seed>.partial.json, how many
// items it holds: a build that is stopped (Ctrl-C, the end of a command) goes on from there next time. The final file
// appears only complete and synced (rename). One process builds at a time (a lock on the seed); another waits for
// the file and mines in light mode meanwhile.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { makeDirs } from '../common/mkdir.js';

/** What a finished build cost, kept beside its dataset. */
export interface DatasetMeta {
  seed: string;
  items: number;
  buildMs: number;
  threads: number;
  builtAt: string;
  library: string;
}

/** A dataset on disk: finished (with its meta) or partly built. */
export interface DatasetOnDisk {
  seed: string;
  state: 'ready' | 'partial';
  bytes: number;
  /** Items built so far (a finished one: all). */
  items: number;
  meta?: DatasetMeta;
}

export const ITEM_BYTES = 64;

/** <cacheDir>/randomx */
export function randomxDir(cacheDir: string): string {
  return join(cacheDir, 'randomx');
}

export function datasetPaths(dir: string, seed: string) {
  return {
    file: join(dir, `${seed}.dataset`),
    meta: join(dir, `${seed}.json`),
    partial: join(dir, `${seed}.partial`),
    progress: join(dir, `${seed}.partial.json`),
    lock: join(dir, `${seed}.dataset`),
  };
}

const SEED = /^[0-9a-f]{64}$/;

export function checkSeed(seed: string): string {
  if (!SEED.test(seed)) throw new Error(`a RandomX seed hash is 64 hex digits, got ${JSON.stringify(seed)}`);
  return seed;
}

/** The finished dataset of `seed` when its size is right (a wrong size: not there). */
export function finishedDataset(dir: string, seed: string, items: number): string | undefined {
  const { file } = datasetPaths(dir, seed);
  try {
    return statSync(file).size === items * ITEM_BYTES ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Items a partial build of `seed` holds (0: none, or its record does not match its file). */
export function partialItems(dir: string, seed: string, items: number): number {
  const p = datasetPaths(dir, seed);
  try {
    const done = (JSON.parse(readFileSync(p.progress, 'utf8')) as { items?: unknown }).items;
    if (typeof done !== 'number' || !Number.isInteger(done) || done < 0 || done > items) return 0;
    return statSync(p.partial).size >= done * ITEM_BYTES ? done : 0;
  } catch {
    return 0;
  }
}

/** Record that the partial file holds its first `done` items (written whole: a reader never sees half a record). */
export function recordPartial(dir: string, seed: string, done: number): void {
  const p = datasetPaths(dir, seed);
  writeFileSync(`${p.progress}.tmp`, JSON.stringify({ items: done }));
  renameSync(`${p.progress}.tmp`, p.progress);
}

/** The partial file becomes the dataset, with its meta; the progress record goes. */
export function finishDataset(dir: string, meta: DatasetMeta): void {
  const p = datasetPaths(dir, meta.seed);
  writeFileSync(p.meta, `${JSON.stringify(meta, null, 2)}\n`);
  renameSync(p.partial, p.file);
  rmSync(p.progress, { force: true });
}

/** Remove the dataset of `seed` (a file the daemon proved wrong, or `saltnet cache clear`). */
export function removeDataset(dir: string, seed: string): void {
  const p = datasetPaths(dir, seed);
  for (const f of [p.file, p.meta, p.partial, p.progress]) rmSync(f, { force: true });
}

export function readMeta(dir: string, seed: string): DatasetMeta | undefined {
  try {
    return JSON.parse(readFileSync(datasetPaths(dir, seed).meta, 'utf8')) as DatasetMeta;
  } catch {
    return undefined;
  }
}

/** Every dataset in the folder, finished or partial (for doctor and the cache commands). */
export function listDatasets(dir: string): DatasetOnDisk[] {
  if (!existsSync(dir)) return [];
  const out: DatasetOnDisk[] = [];
  for (const name of readdirSync(dir).sort()) {
    const m = /^([0-9a-f]{64})\.(dataset|partial)$/.exec(name);
    if (!m) continue;
    const seed = m[1]!;
    const bytes = statSync(join(dir, name)).size;
    if (m[2] === 'dataset') {
      const meta = readMeta(dir, seed);
      out.push({ seed, state: 'ready', bytes, items: bytes / ITEM_BYTES, ...(meta ? { meta } : {}) });
    } else {
      out.push({ seed, state: 'partial', bytes, items: partialItems(dir, seed, Number.MAX_SAFE_INTEGER) });
    }
  }
  return out;
}

/** A build lock not refreshed for this long is taken to be a dead process's. */
const LOCK_STALE_MS = 30_000;

/**
 * Take the build lock of `seed`, or undefined when another process holds it (it is building). The lock is a folder
 * proper-lockfile keeps fresh while held: one whose holder died goes stale and is taken over.
 */
export async function lockBuild(dir: string, seed: string): Promise<(() => Promise<void>) | undefined> {
  makeDirs(dir, 0o700);
  const { lock } = datasetPaths(dir, seed);
  try {
    return await lockfile.lock(lock, { realpath: false, stale: LOCK_STALE_MS, update: 5_000 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw err;
  }
}

/** Whether a live process holds the build lock of `seed` (it is building that dataset now). */
export function isBuilding(dir: string, seed: string): Promise<boolean> {
  return lockfile.check(datasetPaths(dir, seed).lock, { realpath: false, stale: LOCK_STALE_MS });
}
