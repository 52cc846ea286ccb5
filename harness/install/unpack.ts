// Unpacking a release archive (.tar.gz/.tgz/.tar with `tar`, .zip with `yauzl`) into an empty
// folder. Every entry is checked BEFORE anything is written: an absolute path, a `..` segment, a
// symlink whose target leaves the folder, a path that runs through a symlink, a device or FIFO,
// or more content than `maxBytes` refuses the whole archive. (`tar` alone would drop or rewrite
// such entries with a warning and carry on; an archive built like that is not one to run.)
import { createWriteStream } from 'node:fs';
import { rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
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
  let total = 0;
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
    total += e.kind === 'file' ? e.size : 0;
    if (total > maxBytes) refuse(e, `the archive unpacks to more than ${maxBytes} bytes`);
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

async function listTar(file: string): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  await tar.t({
    file,
    strict: true,
    onReadEntry: (e) => {
      entries.push({
        path: e.path,
        kind: TAR_KINDS[e.type] ?? 'other',
        typeName: e.type,
        linkpath: e.linkpath,
        size: e.size,
      });
    },
  });
  return entries;
}

async function extractTar(file: string, dest: string): Promise<void> {
  // strict: a warning (a stripped path, a refused symlink walk) is an error, not a skipped file.
  await tar.x({ file, cwd: dest, strict: true, preserveOwner: false });
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

async function listZip(file: string): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [];
  await eachZipEntry(file, async (zip, e) => {
    if (e.isEncrypted()) throw new Error(`entry ${e.fileName} is encrypted`);
    if (!e.canDecodeFileData())
      throw new Error(`entry ${e.fileName} uses an unsupported compression method (${e.compressionMethod})`);
    const kind = zipKind(e);
    entries.push({
      path: e.fileName,
      kind,
      typeName: kind,
      size: e.uncompressedSize,
      linkpath: kind === 'symlink' ? await readAll(zip, e, 4096) : undefined,
    });
  });
  return entries;
}

async function extractZip(file: string, dest: string): Promise<void> {
  await eachZipEntry(file, async (zip, e) => {
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
    await pipeline(await zip.openReadStreamPromise(e), createWriteStream(target, { flags: 'wx', mode: mode || 0o644 }));
  });
}

/**
 * Unpack `archive` into `dest` (an existing, empty folder) after checking every entry; `label`
 * names the archive in messages. Throws InstallError BAD_ARCHIVE.
 */
export async function unpack(
  archive: string,
  format: ArchiveFormat,
  dest: string,
  label: string,
  maxBytes: number = DEFAULT_MAX_UNPACKED_BYTES,
): Promise<{ entries: number }> {
  let entries: ArchiveEntry[];
  try {
    entries = format === 'zip' ? await listZip(archive) : await listTar(archive);
  } catch (err) {
    throw badArchive(label, err);
  }
  checkEntries(entries, label, maxBytes);
  try {
    if (format === 'zip') await extractZip(archive, dest);
    else await extractTar(archive, dest);
  } catch (err) {
    throw badArchive(label, err);
  }
  return { entries: entries.length };
}
