// Restoring a snapshot (see store.ts for the layout): every file is verified against the manifest
// before anything is written, then copied (reflinked where the file system can) into a staging
// folder beside each target, which is renamed onto the target, so a target is never left half-filled.
import { chmodSync, constants, copyFileSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { snapshotsDir } from '../common/cache-dir.js';
import { errnoCode } from '../common/errno.js';
import { SMALL_FILE, inBatches, mapLimit, randomHex } from '../common/files.js';
import { isWithin } from '../common/paths.js';
import { SnapshotError } from './errors.js';
import { isValidSourceName, type Manifest } from './manifest.js';
import { assertKey, cacheMode, lstatOrNull, moveAside } from './snapshot-dir.js';
import { verifySnapshotDir } from './verify.js';
import { makeDirsAsync } from '../common/mkdir.js';

const RESTORE_CONCURRENCY = 4;
const SMALL_BATCH = 200;

export interface LoadSnapshotOptions {
  cacheDir: string;
  key: string;
  /** Source name -> destination folder; each must not exist or be empty. Sources not named are not restored. */
  targets: Record<string, string>;
  /**
   * What must also hold of a verified snapshot (`dir` is its folder), e.g. that its manifest describes its content: a
   * problem in words makes it corrupt (set aside, never used), like a file that fails verification.
   */
  check?: (dir: string, manifest: Manifest) => Promise<string | undefined>;
}

export type LoadSnapshotResult =
  { manifest: Manifest; ms: number } | { missing: true } | { corrupt: string; movedTo: string | undefined };

interface Target {
  name: string;
  dir: string;
  /** Mode of the existing empty folder, undefined when it did not exist. */
  existingMode: number | undefined;
}

async function checkTargets(targets: Record<string, string>): Promise<Target[]> {
  const out: Target[] = [];
  for (const [name, d] of Object.entries(targets)) {
    if (!isValidSourceName(name))
      throw new SnapshotError('BAD_TARGET', `bad source name ${JSON.stringify(name)} in the load targets`);
    const dir = resolve(d);
    for (const t of out) {
      if (isWithin(t.dir, dir) || isWithin(dir, t.dir))
        throw new SnapshotError('BAD_TARGET', `load targets ${t.name} (${t.dir}) and ${name} (${dir}) overlap`);
    }
    const st = await lstatOrNull(dir);
    let existingMode: number | undefined;
    if (st) {
      if (!st.isDirectory())
        throw new SnapshotError(
          'TARGET_NOT_EMPTY',
          `cannot restore ${name} into ${dir}: it exists and is not a folder (a snapshot is only restored into a new or empty folder)`,
        );
      const entries = await readdir(dir);
      if (entries.length) {
        throw new SnapshotError(
          'TARGET_NOT_EMPTY',
          `cannot restore ${name} into ${dir}: the folder is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}); a snapshot never overwrites existing files — remove it or choose an empty folder`,
        );
      }
      existingMode = st.mode & 0o7777;
    }
    out.push({ name, dir, existingMode });
  }
  return out;
}

/**
 * Restore a snapshot into the target folders. Every file is verified against the manifest before
 * anything is written; the files are then copied (reflinked where the file system can) into a
 * sibling staging folder that is renamed onto each target, so a target is never left half-filled.
 */
export async function loadSnapshot(opts: LoadSnapshotOptions): Promise<LoadSnapshotResult> {
  const t0 = performance.now();
  assertKey(opts.key);
  const dir = snapshotsDir(resolve(opts.cacheDir));
  const path = join(dir, opts.key);
  for (let attempt = 0; ; attempt++) {
    const before = await lstatOrNull(path);
    if (!before) return { missing: true };
    const targets = await checkTargets(opts.targets);
    const v = before.isDirectory() ? await verified(path, opts) : { problem: `${path} is not a folder` };
    if ('problem' in v) {
      const now = await lstatOrNull(path);
      if (!now) return { missing: true };
      // Replaced by a concurrent save while we read it: look again rather than blame the new one.
      if ((now.ino !== before.ino || now.dev !== before.dev) && attempt < 3) continue;
      return { corrupt: v.problem, movedTo: await moveAside(dir, opts.key) };
    }
    for (const t of targets) {
      if (!v.sources.includes(t.name)) {
        throw new SnapshotError(
          'UNKNOWN_SOURCE',
          `snapshot ${opts.key} has no source ${t.name} (it has: ${v.sources.join(', ') || 'none'})`,
        );
      }
    }
    await restore(path, v.manifest, v.dirs, targets);
    return { manifest: v.manifest, ms: performance.now() - t0 };
  }
}

/** The snapshot verified against its manifest, and the caller's check of it. */
async function verified(path: string, opts: LoadSnapshotOptions): ReturnType<typeof verifySnapshotDir> {
  const v = await verifySnapshotDir(path, opts.key);
  if ('problem' in v || !opts.check) return v;
  const problem = await opts.check(path, v.manifest);
  return problem ? { problem } : v;
}

interface Staged {
  t: Target;
  /** A folder beside the target, renamed onto it once every file is in. */
  staging: string;
  /** Whether the target holds the restored files (so a failure must empty it again). */
  placed: boolean;
}

/** A staging folder beside each target, holding the snapshot's folders of that source; each goes into `staged`. */
async function stage(targets: Target[], dirs: string[], staged: Staged[]): Promise<void> {
  for (const t of targets) {
    await makeDirsAsync(dirname(t.dir));
    const staging = join(dirname(t.dir), `.${basename(t.dir)}.saltnet-restore-${process.pid}-${randomHex()}`);
    await mkdir(staging, t.existingMode === undefined ? {} : { mode: t.existingMode });
    staged.push({ t, staging, placed: false });
    const prefix = `${t.name}/`;
    for (const d of dirs) if (d.startsWith(prefix)) await mkdir(join(staging, d.slice(prefix.length)));
  }
}

interface CopyJob {
  src: string;
  dst: string;
  mode: number;
  size: number;
}

/** Every file of the restored sources, from the snapshot into its staging folder. */
function copyJobs(path: string, manifest: Manifest, staged: Staged[]): CopyJob[] {
  const jobs: CopyJob[] = [];
  for (const { t, staging } of staged) {
    const prefix = `${t.name}/`;
    for (const f of manifest.files) {
      if (f.path.startsWith(prefix))
        jobs.push({
          src: join(path, f.path),
          dst: join(staging, f.path.slice(prefix.length)),
          mode: f.mode,
          size: f.size,
        });
    }
  }
  return jobs;
}

/**
 * Small files are copied synchronously in batches (no thread-pool round trip each), large ones in parallel; both
 * reflink where the file system can (COPYFILE_FICLONE), else copy.
 */
async function copyAll(jobs: CopyJob[]): Promise<void> {
  const flags = constants.COPYFILE_FICLONE | constants.COPYFILE_EXCL;
  const large = mapLimit(
    jobs.filter((j) => j.size >= SMALL_FILE),
    RESTORE_CONCURRENCY,
    async ({ src, dst, mode }) => {
      await copyFile(src, dst, flags);
      if (cacheMode(mode) !== mode) await chmod(dst, mode);
    },
  );
  try {
    await inBatches(
      jobs.filter((j) => j.size < SMALL_FILE),
      SMALL_BATCH,
      ({ src, dst, mode }) => {
        copyFileSync(src, dst, flags);
        if (cacheMode(mode) !== mode) chmodSync(dst, mode);
      },
    );
  } finally {
    await large.catch(() => {}); // never leave copies running behind a thrown error
  }
  await large;
}

/** Each staging folder renamed onto its target (an empty mount point, which cannot be renamed over, copied into). */
async function place(staged: Staged[]): Promise<void> {
  for (const s of staged) {
    if (s.t.existingMode !== undefined) await chmod(s.staging, s.t.existingMode);
    try {
      await rename(s.staging, s.t.dir);
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR') {
        throw new SnapshotError(
          'TARGET_NOT_EMPTY',
          `cannot restore ${s.t.name} into ${s.t.dir}: something was written there during the restore`,
          { cause: e },
        );
      }
      if (code !== 'EBUSY' || s.t.existingMode === undefined) throw e;
      s.placed = true;
      await cp(s.staging, s.t.dir, { recursive: true, force: false, errorOnExist: true });
      await rm(s.staging, { recursive: true, force: true });
    }
    s.placed = true;
  }
}

/** After a failed restore: the staging folders removed, and every target as it was (gone, or empty). */
async function unwind(staged: Staged[]): Promise<void> {
  for (const s of staged) {
    await rm(s.staging, { recursive: true, force: true }).catch(() => {});
    if (!s.placed) continue;
    if (s.t.existingMode === undefined) await rm(s.t.dir, { recursive: true, force: true }).catch(() => {});
    else
      for (const name of await readdir(s.t.dir).catch(() => []))
        await rm(join(s.t.dir, name), { recursive: true, force: true }).catch(() => {});
  }
}

async function restore(path: string, manifest: Manifest, dirs: string[], targets: Target[]): Promise<void> {
  const staged: Staged[] = [];
  try {
    await stage(targets, dirs, staged);
    await copyAll(copyJobs(path, manifest, staged));
    await place(staged);
  } catch (e) {
    await unwind(staged);
    throw e;
  }
}
