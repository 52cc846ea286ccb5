// Unpacking a release archive (.tar.gz/.tgz/.tar with `tar`, .zip with `yauzl`) into an empty
// folder. Every entry is checked BEFORE anything is written: an absolute path, a `..` segment, a
// symlink whose target leaves the folder, a path that runs through a symlink, a device or FIFO,
// or more content than `maxBytes` refuses the whole archive. (`tar` alone would drop or rewrite
// such entries with a warning and carry on; an archive built like that is not one to run.)
//
// Both passes stream with backpressure, so memory stays flat whatever the archive unpacks to: the
// file is read in 64 KiB pieces and gunzipped by Node's zlib stream (16 KiB out at a time) into
// tar's parser, which stops taking input while a file it writes is behind. (`tar.t`/`tar.x` given
// a `file` read one under 16 MiB whole and inflate it in one synchronous call, so a 4 MB .tar.gz
// of 1 GiB of zeros would hold all of it in memory at once.) The listing pass refuses the
// archive at the first entry whose declared size takes the total past `maxBytes`, before reading
// that entry's content.
import { closeSync, createReadStream, createWriteStream, openSync, readSync } from 'node:fs';
import { rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import * as tar from 'tar';
import yauzl from 'yauzl';
import { InstallError } from './errors.js';
import { makeDirsAsync } from '../common/mkdir.js';

export type ArchiveFormat = 'tar.gz' | 'tar' | 'zip';

/** The format of an archive by its file name, or undefined for formats we cannot unpack (.tar.bz2, .7z, .dmg, …). */
export function archiveFormat(name: string): ArchiveFormat | undefined {
  const n = name.toLowerCase();
  if (n.endsWith('.tar.gz') || n.endsWith('.tgz')) return 'tar.gz';
  if (n.endsWith('.tar')) return 'tar';
  if (n.endsWith('.zip')) return 'zip';
  return undefined;
}

export const SUPPORTED_FORMATS = '.tar.gz, .tgz, .tar, .zip';

/** 4 GiB of content: a release is a few hundred MiB unpacked; more is a decompression bomb. */
export const DEFAULT_MAX_UNPACKED_BYTES = 4 * 2 ** 30;

export interface ArchiveEntry {
  /** As stored in the archive. */
  path: string;
  kind: 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';
  /** The archive's own name for the type (tar: 'CharacterDevice', …), for messages. */
  typeName: string;
  /** Symlink target, or the path a hardlink points at. */
  linkpath?: string;
  size: number;
}

const MiB = 2 ** 20;

/** Bytes as MiB or GiB with the exact count, for messages: `4 GiB (4294967296 bytes)`. */
function bytesText(n: number): string {
  if (n < MiB) return `${n} bytes`;
  const unit = n >= 2 ** 30 ? `${+(n / 2 ** 30).toFixed(2)} GiB` : `${+(n / MiB).toFixed(2)} MiB`;
  return `${unit} (${n} bytes)`;
}

/**
 * Adds up the sizes the entries declare, and refuses the archive at the entry that takes the total past `maxBytes`:
 * called as each entry's header is read, before its content is.
 */
export function contentCap(label: string, maxBytes: number): (e: ArchiveEntry) => void {
  let total = 0;
  return (e) => {
    if (e.kind !== 'file') return;
    total += e.size;
    if (total > maxBytes)
      throw new InstallError(
        'BAD_ARCHIVE',
        `refusing ${label}: its entries declare more content than the cap of ${bytesText(maxBytes)}, ` +
          `passed at entry ${JSON.stringify(e.path)} (${e.size} bytes, ${total} bytes so far): ` +
          'a Salvium release unpacks to a few hundred MiB, so this is not one (or a decompression bomb); nothing was unpacked',
      );
  };
}

/**
 * A relative path inside the folder as normalised segments, or a reason it is unsafe. Both '/' and
 * '\\' count as separators, so a Windows-made entry cannot sneak a `..` past the check.
 */
function segmentsOf(path: string): { segs: string[] } | { unsafe: string } {
  if (/^[\\/]/.test(path) || /^[A-Za-z]:/.test(path)) return { unsafe: 'absolute path' };
  const segs = path.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segs.includes('..')) return { unsafe: "path with '..'" };
  return { segs };
}

/**
 * Refuse the archive unless every entry stays inside the folder. Symlinks are allowed when their
 * target, resolved from the link's folder, stays inside and passes through no other symlink of the
 * archive; no entry may have a symlink of the archive as a parent (that is how a link pointing at
 * `.` plus a later `link/../x` would escape a purely textual check).
 */
export function checkEntries(
  entries: readonly ArchiveEntry[],
  label: string,
  maxBytes: number = DEFAULT_MAX_UNPACKED_BYTES,
): void {
  const refuse = (e: ArchiveEntry, why: string): never => {
    throw new InstallError(
      'BAD_ARCHIVE',
      `refusing ${label}: entry ${JSON.stringify(e.path)} is unsafe (${why}); nothing was unpacked`,
    );
  };
  const symlinks = new Set<string>();
  const norm = new Map<ArchiveEntry, string[]>();
  for (const e of entries) {
    const r = segmentsOf(e.path);
    if ('unsafe' in r) return refuse(e, r.unsafe);
    if (r.segs.length === 0 && e.kind !== 'dir') return refuse(e, 'empty path');
    norm.set(e, r.segs);
    if (e.kind === 'symlink') symlinks.add(r.segs.join('/'));
  }
  const cap = contentCap(label, maxBytes);
  for (const e of entries) {
    const segs = norm.get(e) ?? [];
    for (let i = 1; i < segs.length; i++)
      if (symlinks.has(segs.slice(0, i).join('/'))) refuse(e, `its parent ${segs.slice(0, i).join('/')} is a symlink`);
    if (e.kind === 'other') refuse(e, `a ${e.typeName} entry`);
    if (e.kind === 'symlink') {
      const target = e.linkpath ?? '';
      if (!target || /^[\\/]/.test(target) || /^[A-Za-z]:/.test(target))
        refuse(e, `symlink to the absolute path ${JSON.stringify(target)}`);
      const stack = segs.slice(0, -1);
      const parts = target.split(/[\\/]+/);
      parts.forEach((p, i) => {
        if (p === '' || p === '.') return;
        if (p === '..') {
          if (!stack.length) refuse(e, `symlink to ${JSON.stringify(target)}, outside the folder`);
          stack.pop();
          return;
        }
        stack.push(p);
        if (i < parts.length - 1 && symlinks.has(stack.join('/')))
          refuse(e, `symlink to ${JSON.stringify(target)} through another symlink`);
      });
    }
    if (e.kind === 'hardlink') {
      const r = segmentsOf(e.linkpath ?? '');
      if ('unsafe' in r || r.segs.length === 0) refuse(e, `hard link to ${JSON.stringify(e.linkpath)}`);
      else
        for (let i = 1; i <= r.segs.length; i++)
          if (symlinks.has(r.segs.slice(0, i).join('/')))
            refuse(e, `hard link through the symlink ${r.segs.slice(0, i).join('/')}`);
    }
    cap(e);
  }
}

function badArchive(label: string, err: unknown): InstallError {
  if (err instanceof InstallError) return err;
  return new InstallError(
    'BAD_ARCHIVE',
    `cannot unpack ${label}: ${err instanceof Error ? err.message : String(err)} (a damaged or unsafe archive); nothing was installed`,
    { cause: err },
  );
}

// ---- tar ----

const TAR_KINDS: Record<string, ArchiveEntry['kind']> = {
  File: 'file',
  OldFile: 'file',
  ContiguousFile: 'file',
  Directory: 'dir',
  SymbolicLink: 'symlink',
  Link: 'hardlink',
};

/**
 * Stream `file` (gunzipped on the way when `gzip`) into tar's parser `sink` with backpressure; settles when the sink
 * emits `doneEvent`, or on the first error — from the file, zlib, the parser, `signal`, or `fail` (which `setup` gets
 * to refuse the archive from the parser's events).
 */
function feedTar(
  file: string,
  gzip: boolean,
  sink: tar.Parser,
  doneEvent: 'end' | 'close',
  signal: AbortSignal | undefined,
  setup: (fail: (err: unknown) => void) => void = () => undefined,
): Promise<void> {
  return new Promise<void>((resolvePromise, reject) => {
    const src = createReadStream(file, { highWaterMark: 64 * 1024 });
    const gunzip = gzip ? createGunzip() : undefined;
    let settled = false;
    const onAbort = (): void => fail(signal?.reason);
    function fail(err: unknown): void {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      src.unpipe();
      gunzip?.unpipe();
      src.destroy();
      gunzip?.destroy();
      sink.abort(err instanceof Error ? err : new Error(String(err)));
      reject(err);
    }
    if (signal?.aborted) return fail(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    setup(fail);
    sink.on('error', fail);
    sink.on(doneEvent, () => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      resolvePromise();
    });
    src.on('error', fail);
    gunzip?.on('error', fail);
    (gunzip ? src.pipe(gunzip) : src).pipe(sink);
  });
}

/**
 * Whether a file starts as gzip does (1f 8b): a tar archive is gunzipped by its content, not its name, so a `.tar`
 * that is gzipped is inflated by the stream too (tar's parser would inflate it itself, a whole read at a time).
 */
function isGzip(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(2);
    return readSync(fd, b, 0, 2, 0) === 2 && b[0] === 0x1f && b[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

async function listTar(
  file: string,
  gzip: boolean,
  cap: (e: ArchiveEntry) => void,
  signal?: AbortSignal,
): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  const parser = new tar.Parser({ strict: true });
  await feedTar(file, gzip, parser, 'end', signal, (fail) =>
    parser.on('entry', (e: tar.ReadEntry) => {
      const entry: ArchiveEntry = {
        path: e.path,
        kind: TAR_KINDS[e.type] ?? 'other',
        typeName: e.type,
        linkpath: e.linkpath,
        size: e.size,
      };
      entries.push(entry);
      try {
        cap(entry);
      } catch (err) {
        return fail(err);
      }
      e.resume(); // read past its content: only the headers are listed
    }),
  );
  return entries;
}

async function extractTar(file: string, gzip: boolean, dest: string, signal?: AbortSignal): Promise<void> {
  // strict: a warning (a stripped path, a refused symlink walk) is an error, not a skipped file.
  const unpacker = new tar.Unpack({ cwd: dest, strict: true, preserveOwner: false });
  await feedTar(file, gzip, unpacker, 'close', signal);
}

// ---- zip ----

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The Unix mode a zip entry carries, when it was made on Unix (or macOS). */
function unixMode(e: yauzl.Entry): number | undefined {
  return e.versionMadeBy >> 8 === 3 ? (e.externalFileAttributes >>> 16) & 0xffff : undefined;
}

function zipKind(e: yauzl.Entry): ArchiveEntry['kind'] {
  if (e.fileName.endsWith('/')) return 'dir';
  const mode = unixMode(e);
  if (mode === undefined || (mode & S_IFMT) === 0) return 'file';
  const fmt = mode & S_IFMT;
  return fmt === S_IFLNK ? 'symlink' : fmt === 0o100000 ? 'file' : fmt === 0o040000 ? 'dir' : 'other';
}

async function readAll(zip: yauzl.ZipFile, e: yauzl.Entry, max: number): Promise<string> {
  if (e.uncompressedSize > max) throw new Error(`symlink entry ${e.fileName} is ${e.uncompressedSize} bytes long`);
  const chunks: Buffer[] = [];
  for await (const c of await zip.openReadStreamPromise(e)) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function eachZipEntry(file: string, fn: (zip: yauzl.ZipFile, e: yauzl.Entry) => Promise<void>): Promise<void> {
  // yauzl itself refuses absolute and `..` names (and reads '\\' as '/'); validateEntrySizes makes a
  // stream fail when an entry holds more than its header declares (the size limit relies on that).
  const zip = await yauzl.openPromise(file, {
    lazyEntries: true,
    decodeStrings: true,
    validateEntrySizes: true,
    strictFileNames: false,
  });
  try {
    for await (const e of zip.eachEntry()) await fn(zip, e);
  } finally {
    zip.close();
  }
}

async function listZip(file: string, cap: (e: ArchiveEntry) => void): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  await eachZipEntry(file, async (zip, e) => {
    if (e.isEncrypted()) throw new Error(`entry ${e.fileName} is encrypted`);
    if (!e.canDecodeFileData())
      throw new Error(`entry ${e.fileName} uses an unsupported compression method (${e.compressionMethod})`);
    const kind = zipKind(e);
    const entry: ArchiveEntry = { path: e.fileName, kind, typeName: kind, size: e.uncompressedSize };
    cap(entry); // sizes from the central directory: refused before any content is read
    if (kind === 'symlink') entry.linkpath = await readAll(zip, e, 4096);
    entries.push(entry);
  });
  return entries;
}

async function extractZip(file: string, dest: string, signal?: AbortSignal): Promise<void> {
  await eachZipEntry(file, async (zip, e) => {
    signal?.throwIfAborted();
    const target = join(dest, ...e.fileName.split('/').filter((s) => s !== '' && s !== '.'));
    const kind = zipKind(e);
    if (kind === 'dir') {
      await makeDirsAsync(target);
      return;
    }
    await makeDirsAsync(dirname(target));
    await rm(target, { force: true }); // a repeated name replaces the file, never writes through a link
    if (kind === 'symlink') {
      await symlink(await readAll(zip, e, 4096), target);
      return;
    }
    const mode = (unixMode(e) ?? 0o644) & 0o777;
    await pipeline(
      await zip.openReadStreamPromise(e),
      createWriteStream(target, { flags: 'wx', mode: mode || 0o644 }),
      signal ? { signal } : {},
    );
  });
}

/**
 * Unpack `archive` into `dest` (an existing, empty folder) after checking every entry; `label` names the archive in
 * messages. Throws InstallError BAD_ARCHIVE; when `signal` aborts, stops and throws its reason.
 */
export async function unpack(
  archive: string,
  format: ArchiveFormat,
  dest: string,
  label: string,
  maxBytes: number = DEFAULT_MAX_UNPACKED_BYTES,
  signal?: AbortSignal,
): Promise<{ entries: number }> {
  const stopped = (err: unknown): unknown => (signal?.aborted ? signal.reason : badArchive(label, err));
  const cap = contentCap(label, maxBytes);
  let entries: ArchiveEntry[];
  try {
    entries = format === 'zip' ? await listZip(archive, cap) : await listTar(archive, isGzip(archive), cap, signal);
  } catch (err) {
    throw stopped(err);
  }
  checkEntries(entries, label, maxBytes);
  try {
    if (format === 'zip') await extractZip(archive, dest, signal);
    else await extractTar(archive, isGzip(archive), dest, signal);
  } catch (err) {
    throw stopped(err);
  }
  return { entries: entries.length };
}
