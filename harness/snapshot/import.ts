// importArchive: an archive written by exportSnapshot (format in README.md) into the cache. Nothing
// is written before the manifest has been checked against the import limits, the free space and the
// snapshot the cache may hold under the same key; every file is then checked against the manifest
// while it is written to a temporary folder, which replaces <key> atomically once the caller's check
// of the content (the chain's height, say) holds too. A refused archive leaves the cache as it was.
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, open, rmdir, stat, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Parser } from 'tar';
import { snapshotsDir } from '../common/cache-dir.js';
import { errnoCode, errnoWords, notUtf8Hint } from '../common/errno.js';
import { fsyncDir, mapLimit } from '../common/files.js';
import { cleanStale, publish, removeQuietly, stagingName, startHeartbeat } from '../common/staging.js';
import { MAX_IMPORT_BYTES, MAX_IMPORT_FILE_BYTES } from '../limits.js';
import { importError, SnapshotError } from './errors.js';
import {
  collisionProblem,
  formatSize,
  freeBytesOf,
  sizeProblem,
  spaceProblem,
  streamAllowance,
  type ImportLimits,
} from './import-checks.js';
import {
  isSafeRelativePath,
  isValidSourceName,
  parseManifest,
  serializeManifest,
  type Manifest,
  type ManifestFile,
} from './manifest.js';
import { SAVE_CONCURRENCY, cacheMode, ensureSnapshotsDir, writeDurably } from './snapshot-dir.js';
import { FILE_TYPES, isTarError, TarEntries } from './tar-entries.js';

export interface ImportOptions {
  /** The most the archive's files may add up to, uncompressed (default MAX_IMPORT_BYTES). */
  maxBytes?: number;
  /** The largest file the archive may hold (default MAX_IMPORT_FILE_BYTES). */
  maxFileBytes?: number;
  /** What must also hold of the manifest, before anything is written: a problem in words, or undefined. */
  checkManifest?: (m: Manifest) => string | undefined;
  /**
   * What must hold of the content once every file is written and verified (`dir` is the temporary folder, laid out
   * like the snapshot): a problem in words, or undefined. Nothing is published when it answers a problem.
   */
  checkContent?: (dir: string, m: Manifest) => Promise<string | undefined>;
  /** Free bytes in a folder (default: statfs); for tests. */
  freeBytes?: (dir: string) => Promise<number>;
}

/** The manifest entry may be this large; before it is read, the stream may not expand beyond this and a margin. */
const MAX_MANIFEST_BYTES = 64 << 20;
const EARLY_ALLOWANCE = MAX_MANIFEST_BYTES + (8 << 20);

/** The archive's first file must be <key>/manifest.json (folders may come before it). */
async function readManifestEntry(
  reader: TarEntries,
  archive: string,
): Promise<{ manifest: Manifest; early: string[]; bytes: number }> {
  const early: string[] = [];
  for (;;) {
    const e = await reader.next();
    if (!e) throw importError('BAD_ARCHIVE', archive, 'the archive holds no manifest.json (it is empty)');
    const p = e.path.replace(/\/+$/, '');
    const slash = p.indexOf('/');
    if (e.type === 'Directory' && slash === -1) {
      early.push(p);
      continue;
    }
    if (!FILE_TYPES.has(e.type) || slash === -1 || p.slice(slash + 1) !== 'manifest.json') {
      throw importError(
        'BAD_ARCHIVE',
        archive,
        `the first file must be <key>/manifest.json, found ${e.type} ${p} (is this an archive from saltnet's snapshot export?)`,
      );
    }
    if (e.size > MAX_MANIFEST_BYTES)
      throw importError('TOO_LARGE', archive, `manifest.json is ${formatSize(e.size)}, more than 64 MiB`);
    const parts: Buffer[] = [];
    for await (const c of reader.body(e)) parts.push(c);
    const parsed = parseManifest(Buffer.concat(parts).toString('utf8'));
    if ('problem' in parsed) throw importError('BAD_ARCHIVE', archive, parsed.problem);
    const top = p.slice(0, slash);
    if (top !== parsed.manifest.key)
      throw importError('BAD_ARCHIVE', archive, `manifest.json is for key ${parsed.manifest.key} but lies in ${top}/`);
    return { manifest: parsed.manifest, early, bytes: e.size };
  }
}

/** A write into the cache that failed, with the path and the system's reason: never a bare ENOSPC. */
function writeFailed(archive: string, path: string, e: unknown): SnapshotError {
  if (e instanceof SnapshotError) return e;
  return importError('WRITE_FAILED', archive, `writing ${path} failed: ${errnoWords(e)}`, e);
}

/** The staging folder an import writes: archive paths checked and mapped into it, folders made once. */
class ImportTarget {
  readonly made = new Set<string>();
  readonly seen = new Set<string>();
  private readonly expected: Map<string, ManifestFile>;
  constructor(
    readonly tmp: string,
    private readonly archive: string,
    readonly manifest: Manifest,
  ) {
    this.expected = new Map(manifest.files.map((f) => [f.path, f]));
  }

  private bad(what: string): SnapshotError {
    return importError('BAD_ARCHIVE', this.archive, what);
  }

  /** Path inside the snapshot of an archive path, or a thrown error. */
  inner(p: string): string {
    const key = this.manifest.key;
    if (p === key) return '';
    if (!p.startsWith(`${key}/`)) throw this.bad(`${p} lies outside the ${key}/ folder`);
    const rel = p.slice(key.length + 1);
    if (!isSafeRelativePath(rel) || !isValidSourceName(rel.split('/')[0] ?? ''))
      throw this.bad(`unsafe or unexpected path ${JSON.stringify(p)}`);
    return rel;
  }

  async mkdirs(rel: string): Promise<void> {
    if (!rel || this.made.has(rel)) return;
    if (this.expected.has(rel)) throw this.bad(`${rel} is a file in the manifest and a folder in the archive`);
    await this.mkdirs(rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
    const path = join(this.tmp, rel);
    await mkdir(path).catch((err: unknown) => {
      if (errnoCode(err) !== 'EEXIST') throw writeFailed(this.archive, path, err);
    });
    this.made.add(rel);
  }

  /** The manifest's entry for a file entry, checked: listed, once, of the listed size. */
  expect(rel: string, size: number): ManifestFile {
    const want = this.expected.get(rel);
    if (!want) throw this.bad(`extra file ${rel} (not in the manifest)`);
    if (this.seen.has(rel)) throw this.bad(`${rel} appears twice`);
    this.seen.add(rel);
    if (size !== want.size) throw this.bad(`${rel} has ${size} bytes, the manifest says ${want.size}`);
    return want;
  }

  /** Write one file's body, checked against its size and sha256 (a write that fails names the file). */
  async write(rel: string, want: ManifestFile, body: AsyncIterable<Buffer>): Promise<void> {
    await this.mkdirs(rel.slice(0, rel.lastIndexOf('/')));
    const path = join(this.tmp, rel);
    const fs = async <T>(op: () => Promise<T>): Promise<T> => {
      try {
        return await op();
      } catch (e) {
        throw writeFailed(this.archive, path, e);
      }
    };
    const fh: FileHandle = await fs(() => open(path, 'wx', 0o600));
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const c of body) {
        hash.update(c);
        size += c.length;
        if (size > want.size) break;
        await fs(() => fh.write(c));
      }
      await fs(() => fh.chmod(cacheMode(want.mode)));
      await fs(() => fh.sync());
    } finally {
      await fh.close().catch(() => {});
    }
    if (size !== want.size) throw this.bad(`${rel} ends early (${size} of ${want.size} bytes)`);
    if (hash.digest('hex') !== want.sha256) throw this.bad(`${rel} differs from the manifest (sha256 mismatch)`);
  }
}

/** Every entry after the manifest into the target; then nothing may be missing. */
async function importEntries(reader: TarEntries, target: ImportTarget, archive: string): Promise<void> {
  for (;;) {
    const e = await reader.next();
    if (!e) break;
    const p = e.path.replace(/\/+$/, '');
    const rel = target.inner(p);
    if (e.type === 'Directory') {
      await target.mkdirs(rel);
      continue;
    }
    if (!FILE_TYPES.has(e.type))
      throw importError(
        'BAD_ARCHIVE',
        archive,
        `${p} is a ${e.type} entry; a snapshot holds only regular files and folders`,
      );
    await target.write(rel, target.expect(rel, e.size), reader.body(e));
  }
  const missing = target.manifest.files.filter((f) => !target.seen.has(f.path));
  if (missing.length)
    throw importError(
      'BAD_ARCHIVE',
      archive,
      `missing file${missing.length > 1 ? 's' : ''} ${missing
        .slice(0, 5)
        .map((f) => f.path)
        .join(', ')}${missing.length > 5 ? ', …' : ''}`,
    );
}

/** The archive file, checked before anything else: it exists and is a regular file. */
async function checkArchiveFile(archive: string): Promise<void> {
  try {
    const st = await stat(archive);
    if (!st.isFile()) throw importError('BAD_ARCHIVE', archive, 'it is not a file');
  } catch (e) {
    if (e instanceof SnapshotError) throw e;
    const code = errnoCode(e);
    throw importError(
      code === 'ENOENT' ? 'NOT_FOUND' : 'BAD_ARCHIVE',
      archive,
      code === 'ENOENT' ? `no such file${notUtf8Hint(archive)}` : errnoWords(e),
      e,
    );
  }
}

/**
 * The gunzipped archive into the parser, counted: beyond `limit()` bytes it is refused without being read on. What
 * follows the end of the archive (tar's two zero blocks) is counted but not parsed: node-tar buffers it all, which
 * makes a long tail cost time that grows with its square.
 */
function feed(archive: string, parser: Parser, reader: TarEntries, limit: () => number, signal: AbortSignal) {
  let bytes = 0;
  let ended = false;
  parser.on('eof', () => (ended = true));
  return pipeline(
    createReadStream(archive),
    createGunzip(),
    async (chunks: AsyncIterable<Buffer>) => {
      for await (const c of chunks) {
        bytes += c.length;
        if (bytes > limit()) {
          // Told to the reader first: pipeline() reports an error thrown here as an AbortError.
          const e = importError(
            'TOO_LARGE',
            archive,
            `it expands to more than its manifest lists (over ${formatSize(limit())} uncompressed): a damaged archive, or a gzip bomb`,
          );
          reader.fail(e);
          throw e;
        }
        if (!ended && !parser.write(c)) await once(parser, 'drain', { signal });
      }
      parser.end();
    },
    { signal },
  ).catch((e: unknown) => reader.fail(e));
}

/** Every check that needs only the manifest: limits, the caller's, free space, another snapshot under the key. */
async function checkBeforeWriting(dir: string, archive: string, m: Manifest, o: ImportOptions): Promise<void> {
  const limits: ImportLimits = {
    maxBytes: o.maxBytes ?? MAX_IMPORT_BYTES,
    maxFileBytes: o.maxFileBytes ?? MAX_IMPORT_FILE_BYTES,
  };
  const tooBig = sizeProblem(m, limits);
  if (tooBig) throw importError('TOO_LARGE', archive, tooBig);
  const claim = o.checkManifest?.(m);
  if (claim) throw importError('BAD_ARCHIVE', archive, claim);
  const taken = await collisionProblem(dir, m);
  if (taken) throw importError('KEY_TAKEN', archive, taken);
  const space = spaceProblem(m, dir, await (o.freeBytes ?? freeBytesOf)(dir));
  if (space) throw importError('NO_SPACE', archive, space);
}

/** An error of the import as the caller sees it: a SnapshotError that names the archive, never a bare errno. */
function importFailure(archive: string, e: unknown): SnapshotError {
  if (e instanceof SnapshotError) return e;
  if (isTarError(e))
    return importError(
      'BAD_ARCHIVE',
      archive,
      `not a valid tar archive, or a damaged or truncated one (${e.message})`,
      e,
    );
  if ((errnoCode(e) ?? '').startsWith('Z_'))
    return importError('BAD_ARCHIVE', archive, `not a valid gzip file (${(e as Error).message})`, e);
  const path = (e as { path?: unknown }).path;
  if (typeof path === 'string' && path !== archive) return writeFailed(archive, path, e);
  return importError('BAD_ARCHIVE', archive, `reading it failed: ${errnoWords(e)}`, e);
}

/**
 * Import an archive written by exportSnapshot into the cache. Refused (a SnapshotError naming the archive, and the
 * cache as it was) when: its files exceed the import limits or the free space; the cache holds a different snapshot
 * under its key; a file differs from the manifest (size, sha256, missing, extra, twice), is a link or special file or
 * has a path leaving the snapshot; or a caller's check of the manifest or the content answers a problem.
 */
export async function importArchive(cacheDir: string, file: string, o: ImportOptions = {}): Promise<Manifest> {
  const archive = resolve(file);
  await checkArchiveFile(archive);
  // Made only once the archive has passed the checks of its manifest: a refused one leaves the cache as it was.
  const dir = snapshotsDir(resolve(cacheDir));
  if (existsSync(dir)) cleanStale(dir);
  // node-tar parses (headers, checksums, pax and GNU long names; strict: every warning is an
  // error); the entries are only ever written here, as checked regular files and folders.
  const parser = new Parser({ strict: true });
  const reader = new TarEntries(parser, archive);
  const abort = new AbortController();
  let allowance = EARLY_ALLOWANCE;
  const fed = feed(archive, parser, reader, () => allowance, abort.signal);
  let tmp: string | undefined;
  let madeDir = false;
  let stopHeartbeat = (): void => {};
  try {
    const { manifest, early, bytes } = await readManifestEntry(reader, archive);
    await checkBeforeWriting(dir, archive, manifest, o);
    allowance = streamAllowance(manifest, bytes);
    madeDir = !existsSync(dir);
    await ensureSnapshotsDir(cacheDir);
    tmp = join(dir, stagingName('tmp', manifest.key));
    await mkdir(tmp, { mode: 0o700 }).catch((e: unknown) => {
      throw writeFailed(archive, tmp!, e);
    });
    stopHeartbeat = startHeartbeat(tmp);
    const target = new ImportTarget(tmp, archive, manifest);
    for (const d of early) await target.mkdirs(target.inner(d));
    await importEntries(reader, target, archive);
    const staged = tmp;
    await writeDurably(join(staged, 'manifest.json'), serializeManifest(manifest));
    await mapLimit([...target.made], SAVE_CONCURRENCY, (d) => fsyncDir(join(staged, d)));
    await fsyncDir(staged);
    await fed;
    reader.check();
    const content = await o.checkContent?.(staged, manifest);
    if (content) throw importError('BAD_ARCHIVE', archive, content);
    // Another import or build may have put a snapshot under the key meanwhile.
    const taken = await collisionProblem(dir, manifest);
    if (taken) throw importError('KEY_TAKEN', archive, taken);
    stopHeartbeat();
    await publish(dir, staged, manifest.key);
    return manifest;
  } catch (e) {
    stopHeartbeat();
    abort.abort();
    reader.fail(e);
    await fed;
    if (tmp) await removeQuietly(dir, tmp);
    if (madeDir) await rmdir(dir).catch(() => {}); // unless another writer has put something there meanwhile
    throw importFailure(archive, e);
  }
}
