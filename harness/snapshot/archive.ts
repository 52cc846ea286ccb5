// exportSnapshot: one gzip-compressed tar per snapshot, to attach to a bug report (format in
// README.md). Its counterpart, importArchive, is in import.ts.
import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Pack, ReadEntry } from 'tar';
import { snapshotsDir } from '../common/cache-dir.js';
import { SnapshotError } from './errors.js';
import { randomHex } from '../common/files.js';
import { serializeManifest, type Manifest } from './manifest.js';
import { assertKey, lstatOrNull, moveAside } from './snapshot-dir.js';
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

export { importArchive, type ImportOptions } from './import.js';
