// exportSnapshot / importSnapshot: one gzip-compressed tar per snapshot, to attach to a bug report
// (format in README.md). Import verifies everything and publishes atomically, like a save.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { snapshotsDir } from './cache-dir.js';
import { SnapshotError, errnoCode } from './errors.js';
import { fsyncDir, mapLimit, randomHex } from './files.js';
import { isSafeRelativePath, isValidSourceName, parseManifest, serializeManifest, type Manifest } from './manifest.js';
import { SAVE_CONCURRENCY, assertKey, cacheMode, ensureSnapshotsDir, lstatOrNull, moveAside, writeDurably } from './snapshot-dir.js';
import { cleanStale, publish, removeQuietly, stagingName, startHeartbeat } from './staging.js';
import { END_OF_ARCHIVE, TarFormatError, TarReader, padding, tarHeader } from './tar.js';
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
    throw new SnapshotError('CORRUPT', `snapshot ${key} is corrupt: ${v.problem}${movedTo ? ` (moved aside to ${movedTo})` : ''}`);
  }
  const { manifest, dirs } = v;
  const mtime = Math.floor(Date.parse(manifest.createdAt) / 1000);
  const manifestBytes = Buffer.from(serializeManifest(manifest), 'utf8');

  async function* entries(): AsyncGenerator<Buffer> {
    yield tarHeader({ path: key, type: 'dir', size: 0, mode: 0o755, mtime });
    yield tarHeader({ path: `${key}/manifest.json`, type: 'file', size: manifestBytes.length, mode: 0o644, mtime });
    yield manifestBytes;
    yield padding(manifestBytes.length);
    for (const d of dirs) yield tarHeader({ path: `${key}/${d}`, type: 'dir', size: 0, mode: 0o755, mtime });
    for (const f of manifest.files) {
      yield tarHeader({ path: `${key}/${f.path}`, type: 'file', size: f.size, mode: f.mode, mtime });
      // Hash again while reading, so that what is written is exactly what was verified.
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of createReadStream(join(path, f.path), { highWaterMark: 1 << 20 })) {
        const b = chunk as Buffer;
        size += b.length;
        if (size > f.size) break;
        hash.update(b);
        yield b;
      }
      if (size !== f.size || hash.digest('hex') !== f.sha256) throw new SnapshotError('CORRUPT', `snapshot ${key}: ${f.path} changed during the export`);
      yield padding(f.size);
    }
    yield END_OF_ARCHIVE;
  }

  const out = resolve(file);
  const tmp = `${out}.tmp-${process.pid}-${randomHex()}`;
  try {
    await pipeline(Readable.from(entries()), createGzip(), createWriteStream(tmp, { flags: 'wx', mode: 0o644 }));
    await rename(tmp, out);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
  return manifest;
}

function badArchive(file: string, what: string, cause?: unknown): SnapshotError {
  return new SnapshotError('BAD_ARCHIVE', `cannot import ${file}: ${what}`, cause === undefined ? undefined : { cause });
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
  const source = createReadStream(archive);
  const gunzip = createGunzip();
  source.on('error', (e) => gunzip.destroy(e));
  source.pipe(gunzip);
  const reader = new TarReader(gunzip);
  let tmp: string | undefined;
  let stopHeartbeat = (): void => {};
  try {
    // Folders may come before the manifest; no file may.
    const early: string[] = [];
    let manifest: Manifest | undefined;
    let top = '';
    for (;;) {
      const e = await reader.next();
      if (!e) throw badArchive(archive, 'it holds no manifest.json');
      const slash = e.path.indexOf('/');
      if (e.type === 'dir') {
        early.push(e.path);
        continue;
      }
      if (e.type !== 'file' || slash === -1 || e.path.slice(slash + 1) !== 'manifest.json') {
        throw badArchive(archive, `the first file must be <key>/manifest.json, found ${e.type} ${e.path} (is this an archive from saltnet's snapshot export?)`);
      }
      if (e.size > 64 << 20) throw badArchive(archive, 'manifest.json is too large');
      const parts: Buffer[] = [];
      for await (const c of reader.body()) parts.push(c);
      const parsed = parseManifest(Buffer.concat(parts).toString('utf8'));
      if ('problem' in parsed) throw badArchive(archive, parsed.problem);
      manifest = parsed.manifest;
      top = e.path.slice(0, slash);
      if (top !== manifest.key) throw badArchive(archive, `manifest.json is for key ${manifest.key} but lies in ${top}/`);
      break;
    }
    const key = manifest.key;
    const expected = new Map(manifest.files.map((f) => [f.path, f]));
    const seen = new Set<string>();
    /** Path inside the snapshot of an archive path, or a thrown error. */
    const inner = (p: string): string => {
      if (p === key) return '';
      if (!p.startsWith(`${key}/`)) throw badArchive(archive, `${p} lies outside the ${key}/ folder`);
      const rel = p.slice(key.length + 1);
      if (!isSafeRelativePath(rel) || !isValidSourceName(rel.split('/')[0] ?? '')) throw badArchive(archive, `unsafe or unexpected path ${p}`);
      return rel;
    };

    tmp = join(dir, stagingName('tmp', key));
    await mkdir(tmp, { mode: 0o700 });
    stopHeartbeat = startHeartbeat(tmp);
    const made = new Set<string>();
    const mkdirs = async (rel: string): Promise<void> => {
      if (!rel || made.has(rel)) return;
      await mkdirs(rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '');
      await mkdir(join(tmp as string, rel)).catch((err: unknown) => {
        if (errnoCode(err) !== 'EEXIST') throw err;
      });
      made.add(rel);
    };
    for (const d of early) await mkdirs(inner(d));

    for (;;) {
      const e = await reader.next();
      if (!e) break;
      const rel = inner(e.path);
      if (e.type === 'dir') {
        await mkdirs(rel);
        continue;
      }
      if (e.type !== 'file') throw badArchive(archive, `${e.path} is a ${e.type} (typeflag ${e.typeflag}); a snapshot holds regular files only`);
      const want = expected.get(rel);
      if (!want) throw badArchive(archive, `extra file ${rel} (not in the manifest)`);
      if (seen.has(rel)) throw badArchive(archive, `${rel} appears twice`);
      seen.add(rel);
      if (e.size !== want.size) throw badArchive(archive, `${rel} has ${e.size} bytes, the manifest says ${want.size}`);
      await mkdirs(rel.slice(0, rel.lastIndexOf('/')));
      const fh: FileHandle = await open(join(tmp, rel), 'wx', 0o600);
      const hash = createHash('sha256');
      try {
        for await (const c of reader.body()) {
          hash.update(c);
          await fh.write(c);
        }
        await fh.chmod(cacheMode(want.mode));
        await fh.sync();
      } finally {
        await fh.close();
      }
      if (hash.digest('hex') !== want.sha256) throw badArchive(archive, `${rel} differs from the manifest (sha256 mismatch)`);
    }
    const missing = manifest.files.filter((f) => !seen.has(f.path));
    if (missing.length) throw badArchive(archive, `missing file${missing.length > 1 ? 's' : ''} ${missing.slice(0, 5).map((f) => f.path).join(', ')}${missing.length > 5 ? ', …' : ''}`);

    await writeDurably(join(tmp, 'manifest.json'), serializeManifest(manifest));
    await mapLimit([...made], SAVE_CONCURRENCY, (d) => fsyncDir(join(tmp as string, d)));
    await fsyncDir(tmp);
    stopHeartbeat();
    await publish(dir, tmp, key);
    return manifest;
  } catch (e) {
    stopHeartbeat();
    source.destroy();
    gunzip.destroy();
    if (tmp) await removeQuietly(dir, tmp);
    if (e instanceof SnapshotError) throw e;
    if (e instanceof TarFormatError) throw badArchive(archive, e.message, e);
    if ((errnoCode(e) ?? '').startsWith('Z_')) throw badArchive(archive, `not a valid gzip file (${(e as Error).message})`, e);
    throw e;
  }
}
