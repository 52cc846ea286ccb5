// exportSnapshot / importSnapshot: one gzip-compressed tar per snapshot, to attach to a bug report
// (format in README.md). Import verifies everything and publishes atomically, like a save.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { Header, Pack, Parser, ReadEntry } from 'tar';
import { snapshotsDir } from '../common/cache-dir.js';
import { errnoCode } from '../common/errno.js';
import { SnapshotError } from './errors.js';
import { fsyncDir, mapLimit, randomHex } from '../common/files.js';
import {
  isSafeRelativePath,
  isValidSourceName,
  parseManifest,
  serializeManifest,
  type Manifest,
  type ManifestFile,
} from './manifest.js';
import {
  SAVE_CONCURRENCY,
  assertKey,
  cacheMode,
  ensureSnapshotsDir,
  lstatOrNull,
  moveAside,
  writeDurably,
} from './snapshot-dir.js';
import { cleanStale, publish, removeQuietly, stagingName, startHeartbeat } from '../common/staging.js';
import { verifySnapshotDir } from './verify.js';

/**
 * Write a snapshot to one gzip-compressed tar file (`tar -xzf` gives the <key>/ folder, which can be
 * dropped into any cache's snapshots/ folder). The snapshot is verified first; a corrupt one is
 * moved aside and not exported.
 */
export async function exportSnapshot(cacheDir: string, key: string, file: string): Promise<Manifest> {
  assertKey(key);
  const dir = snapshotsDir(resolve(cacheDir));
  const path = join(dir, key);
  if (!(await lstatOrNull(path))) throw new SnapshotError('NOT_FOUND', `no snapshot ${key} in ${dir}`);
  const v = await verifySnapshotDir(path, key);
  if ('problem' in v) {
    const movedTo = await moveAside(dir, key);
    throw new SnapshotError(
      'CORRUPT',
      `snapshot ${key} is corrupt: ${v.problem}${movedTo ? ` (moved aside to ${movedTo})` : ''}`,
    );
  }
  const { manifest, dirs } = v;
  // Whole seconds, uid/gid 0, modes from the manifest: the same snapshot always gives the same bytes.
  const mtime = new Date(Math.floor(Date.parse(manifest.createdAt) / 1000) * 1000);
  const manifestBytes = Buffer.from(serializeManifest(manifest), 'utf8');

  // node-tar writes the headers (pax records where a path or size needs them), padding and end
  // blocks; each entry's content is fed by hand so that it is hashed again on its way in.
  const out = resolve(file);
  const tmp = `${out}.tmp-${process.pid}-${randomHex()}`;
  // Pack counts every added entry as a running job until it is written out, and starts writing the
  // next one only while fewer than `jobs` are counted: folder entries are added here without waiting,
  // so any limit could stall the export. (Contents are fed one entry at a time, with backpressure.)
  const pack = new Pack({ strict: true, jobs: Infinity });
  const abort = new AbortController();
  let failure: { error: unknown } | undefined;
  const written = pipeline(pack, createGzip(), createWriteStream(tmp, { flags: 'wx', mode: 0o600 }), {
    signal: abort.signal,
  }).catch((e: unknown) => {
    failure ??= { error: e };
    abort.abort();
  });
  const add = (entryPath: string, type: 'File' | 'Directory', size: number, mode: number): ReadEntry => {
    abort.signal.throwIfAborted();
    const entry = new ReadEntry(new Header({ path: entryPath, type, size, mode, uid: 0, gid: 0, mtime }));
    pack.add(entry);
    return entry;
  };
  const put = async (entry: ReadEntry, chunk: Buffer): Promise<void> => {
    if (!entry.write(chunk)) await once(entry, 'drain', { signal: abort.signal });
  };

  try {
    add(`${key}/`, 'Directory', 0, 0o755).end();
    const m = add(`${key}/manifest.json`, 'File', manifestBytes.length, 0o644);
    await put(m, manifestBytes);
    m.end();
    for (const d of dirs) add(`${key}/${d}/`, 'Directory', 0, 0o755).end();
    for (const f of manifest.files) {
      const entry = add(`${key}/${f.path}`, 'File', f.size, f.mode);
      // Hash again while reading, so that what is written is exactly what was verified.
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of createReadStream(join(path, f.path), { highWaterMark: 1 << 20 })) {
        const b = chunk as Buffer;
        size += b.length;
        if (size > f.size) break;
        hash.update(b);
        await put(entry, b);
      }
      if (size !== f.size || hash.digest('hex') !== f.sha256)
        throw new SnapshotError('CORRUPT', `snapshot ${key}: ${f.path} changed during the export`);
      entry.end();
    }
    pack.end();
    await written;
    if (failure) throw failure.error;
    await rename(tmp, out);
  } catch (e) {
    failure ??= { error: e };
    abort.abort();
    await written;
    await rm(tmp, { force: true }).catch(() => {});
    throw failure.error;
  }
  return manifest;
}

function badArchive(file: string, what: string, cause?: unknown): SnapshotError {
  return new SnapshotError(
    'BAD_ARCHIVE',
    `cannot import ${file}: ${what}`,
    cause === undefined ? undefined : { cause },
  );
}

/** A node-tar parse error: strict mode turns every warning into one, with the warning's code. */
function isTarError(e: unknown): e is Error & { tarCode: string } {
  return e instanceof Error && typeof (e as { tarCode?: unknown }).tarCode === 'string';
}

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * The entries of a node-tar Parser, one at a time (the parser emits the next entry only when the
 * current one has been read). A parse or input error is thrown by the next call that waits on the
 * parser, and an entry node-tar skips (an unknown type, an oversized pax record) is an error too.
 */
class TarEntries {
  private readonly ready: ReadEntry[] = [];
  private current: ReadEntry | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(parser: Parser, archive: string) {
    parser.on('entry', (e: ReadEntry) => {
      this.ready.push(e);
      this.notify();
    });
    parser.on('ignoredEntry', (e: ReadEntry) => {
      const what = e.meta
        ? `an oversized ${e.type} entry (${e.size} bytes, the limit is ${parser.maxMetaEntrySize})`
        : `${e.path} has an unsupported entry type (${e.header.typeKey})`;
      this.fail(badArchive(archive, what));
    });
    parser.on('error', (e: unknown) => this.fail(e));
    parser.on('end', () => {
      this.ended = true;
      this.notify();
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Stop: the error is thrown to the reader, and an entry being read ends at once. */
  fail(error: unknown): void {
    this.failure ??= { error };
    this.current?.destroy();
    this.notify();
  }

  /** Throw the error that stopped the reading, if any. */
  check(): void {
    if (this.failure) throw this.failure.error;
  }

  /** The next entry (what the caller did not read of the previous one is skipped), or null at the end. */
  async next(): Promise<ReadEntry | null> {
    if (this.current && !this.current.emittedEnd) this.current.resume();
    this.current = undefined;
    for (;;) {
      this.check();
      const e = this.ready.shift();
      if (e) return (this.current = e);
      if (this.ended) return null;
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  /** The content of the current entry, in chunks. */
  async *body(e: ReadEntry): AsyncGenerator<Buffer> {
    this.check();
    try {
      for await (const c of e) {
        yield c;
        this.check();
      }
    } catch (err) {
      this.check();
      throw err;
    }
    this.check();
  }
}

/** The archive's first file must be <key>/manifest.json (folders may come before it). */
async function readManifestEntry(
  reader: TarEntries,
  archive: string,
): Promise<{ manifest: Manifest; early: string[] }> {
  const early: string[] = [];
  for (;;) {
    const e = await reader.next();
    if (!e) throw badArchive(archive, 'it holds no manifest.json');
    const p = e.path.replace(/\/+$/, '');
    const slash = p.indexOf('/');
    if (e.type === 'Directory') {
      early.push(p);
      continue;
    }
    if (!FILE_TYPES.has(e.type) || slash === -1 || p.slice(slash + 1) !== 'manifest.json') {
      throw badArchive(
        archive,
        `the first file must be <key>/manifest.json, found ${e.type} ${p} (is this an archive from saltnet's snapshot export?)`,
      );
    }
    if (e.size > 64 << 20) throw badArchive(archive, 'manifest.json is too large');
    const parts: Buffer[] = [];
    for await (const c of reader.body(e)) parts.push(c);
    const parsed = parseManifest(Buffer.concat(parts).toString('utf8'));
    if ('problem' in parsed) throw badArchive(archive, parsed.problem);
    const top = p.slice(0, slash);
    if (top !== parsed.manifest.key)
      throw badArchive(archive, `manifest.json is for key ${parsed.manifest.key} but lies in ${top}/`);
    return { manifest: parsed.manifest, early };
  }
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

  /** Path inside the snapshot of an archive path, or a thrown error. */
  inner(p: string): string {
    const key = this.manifest.key;
    if (p === key) return '';
    if (!p.startsWith(`${key}/`)) throw badArchive(this.archive, `${p} lies outside the ${key}/ folder`);
    const rel = p.slice(key.length + 1);
    if (!isSafeRelativePath(rel) || !isValidSourceName(rel.split('/')[0] ?? ''))
      throw badArchive(this.archive, `unsafe or unexpected path ${p}`);
    return rel;
  }

  async mkdirs(rel: string): Promise<void> {
    if (!rel || this.made.has(rel)) return;
    await this.mkdirs(rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
    await mkdir(join(this.tmp, rel)).catch((err: unknown) => {
      if (errnoCode(err) !== 'EEXIST') throw err;
    });
    this.made.add(rel);
  }

  /** The manifest's entry for a file entry, checked: listed, once, of the listed size. */
  expect(rel: string, size: number): ManifestFile {
    const want = this.expected.get(rel);
    if (!want) throw badArchive(this.archive, `extra file ${rel} (not in the manifest)`);
    if (this.seen.has(rel)) throw badArchive(this.archive, `${rel} appears twice`);
    this.seen.add(rel);
    if (size !== want.size) throw badArchive(this.archive, `${rel} has ${size} bytes, the manifest says ${want.size}`);
    return want;
  }

  /** Write one file's body, checked against its size and sha256. */
  async write(rel: string, want: ManifestFile, body: AsyncIterable<Buffer>): Promise<void> {
    await this.mkdirs(rel.slice(0, rel.lastIndexOf('/')));
    const fh: FileHandle = await open(join(this.tmp, rel), 'wx', 0o600);
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const c of body) {
        hash.update(c);
        size += c.length;
        await fh.write(c);
      }
      await fh.chmod(cacheMode(want.mode));
      await fh.sync();
    } finally {
      await fh.close();
    }
    if (size !== want.size) throw badArchive(this.archive, `${rel} ends early (${size} of ${want.size} bytes)`);
    if (hash.digest('hex') !== want.sha256)
      throw badArchive(this.archive, `${rel} differs from the manifest (sha256 mismatch)`);
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
      throw badArchive(archive, `${p} is a ${e.type} entry; a snapshot holds only regular files and folders`);
    await target.write(rel, target.expect(rel, e.size), reader.body(e));
  }
  const missing = target.manifest.files.filter((f) => !target.seen.has(f.path));
  if (missing.length)
    throw badArchive(
      archive,
      `missing file${missing.length > 1 ? 's' : ''} ${missing
        .slice(0, 5)
        .map((f) => f.path)
        .join(', ')}${missing.length > 5 ? ', …' : ''}`,
    );
}

/**
 * Import an archive written by exportSnapshot: every file is checked against the manifest
 * (size and sha256, nothing missing or extra, no links or special files, no path leaving the
 * snapshot) while it is written to a temporary folder, which then replaces <key> atomically.
 */
export async function importSnapshot(cacheDir: string, file: string): Promise<Manifest> {
  const archive = resolve(file);
  const dir = await ensureSnapshotsDir(cacheDir);
  cleanStale(dir);
  // node-tar parses (headers, checksums, pax and GNU long names; strict: every warning is an
  // error); the entries are only ever written here, as checked regular files and folders.
  const parser = new Parser({ strict: true });
  const reader = new TarEntries(parser, archive);
  const abort = new AbortController();
  const fed = pipeline(
    createReadStream(archive),
    createGunzip(),
    async (chunks: AsyncIterable<Buffer>) => {
      for await (const c of chunks) if (!parser.write(c)) await once(parser, 'drain', { signal: abort.signal });
      parser.end();
    },
    { signal: abort.signal },
  ).catch((e: unknown) => reader.fail(e));
  let tmp: string | undefined;
  let stopHeartbeat = (): void => {};
  try {
    const { manifest, early } = await readManifestEntry(reader, archive);
    tmp = join(dir, stagingName('tmp', manifest.key));
    await mkdir(tmp, { mode: 0o700 });
    stopHeartbeat = startHeartbeat(tmp);
    const target = new ImportTarget(tmp, archive, manifest);
    for (const d of early) await target.mkdirs(target.inner(d));
    await importEntries(reader, target, archive);
    await writeDurably(join(tmp, 'manifest.json'), serializeManifest(manifest));
    await mapLimit([...target.made], SAVE_CONCURRENCY, (d) => fsyncDir(join(tmp as string, d)));
    await fsyncDir(tmp);
    stopHeartbeat();
    await fed;
    reader.check();
    await publish(dir, tmp, manifest.key);
    return manifest;
  } catch (e) {
    stopHeartbeat();
    abort.abort();
    reader.fail(e);
    await fed;
    if (tmp) await removeQuietly(dir, tmp);
    if (e instanceof SnapshotError) throw e;
    if (isTarError(e))
      throw badArchive(archive, `not a valid tar archive, or a damaged or truncated one (${e.message})`, e);
    if ((errnoCode(e) ?? '').startsWith('Z_'))
      throw badArchive(archive, `not a valid gzip file (${(e as Error).message})`, e);
    throw e;
  }
}
