// Files a scenario is, or names: read with the cap enforced while reading (open without blocking,
// fstat, then at most cap + 1 bytes), so that /dev/zero, a FIFO, a folder or a file that keeps
// growing can neither fill memory nor hang the harness. A metadata `file:` must also be a regular
// file inside the scenario file's folder or the working directory (the folder saltnet runs in),
// after symbolic links are followed, unless the run allows files outside them
// (`saltnet run --allow-files-outside`, RunnerOptions.allowFilesOutside).
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readSync,
  realpathSync,
  statSync,
  type Stats,
} from 'node:fs';
import { resolve } from 'node:path';
import { notUtf8Hint } from '../common/errno.js';
import { isBelow } from '../common/paths.js';
import { formatBytes, MAX_METADATA_FILE_BYTES } from './bounds.js';
import type { SourcePos } from '../common/locator.js';
import { ScenarioError, type ScenarioProblem } from './types.js';

/** A file that is not read, and why (the message names no path: the caller says which file). */
export class FileRefused extends Error {}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** Whether resolving `path` runs into a loop of symbolic links (a → b → a, or a link to itself). */
function isLinkLoop(path: string): boolean {
  try {
    realpathSync(path);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ELOOP';
  }
}

/** Why `path` could not be opened (with O_NOFOLLOW when `noFollow`), in words. */
function errnoText(e: unknown, path: string, noFollow: boolean): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'ENOENT') return `no such file${notUtf8Hint(path)}`;
  if (err.code === 'EACCES' || err.code === 'EPERM') return 'permission denied';
  // ELOOP: a loop of links; with O_NOFOLLOW also a link that is not followed.
  if (err.code === 'ELOOP')
    return !noFollow || isLinkLoop(path)
      ? 'it is a loop of symbolic links (following them leads back where they started)'
      : 'it is a symbolic link';
  return err.message;
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them (`what` names the limit in
 * the message, e.g. "a scenario file"). With `noFollow` a symbolic link is refused.
 * Throws FileRefused: no such file, not a regular file, larger than the cap (also when it grows
 * past the cap while being read).
 */
export function readBounded(path: string, maxBytes: number, what: string, noFollow = false): Buffer {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    fd = openSync(
      path,
      constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (noFollow ? (constants.O_NOFOLLOW ?? 0) : 0),
    );
  } catch (e) {
    throw new FileRefused(errnoText(e, path, noFollow));
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new FileRefused(`it is ${kindOf(st)}, not a regular file`);
    const tooBig = (size: string): FileRefused =>
      new FileRefused(`it is ${size}; ${what} is at most ${formatBytes(maxBytes)}`);
    if (st.size > maxBytes) throw tooBig(`${st.size} bytes`);
    const buf = Buffer.alloc(maxBytes + 1);
    let got = 0;
    for (;;) {
      const n = readSync(fd, buf, got, buf.length - got, null);
      if (n === 0) break;
      got += n;
      if (got > maxBytes) throw tooBig('larger than that (it grew while being read)');
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

export interface FileAccess {
  /** The scenario file's folder. */
  baseDir: string;
  /** The working directory (default process.cwd()). */
  cwd?: string;
  /** Serve files outside baseDir and cwd too (`--allow-files-outside`). */
  allowOutside?: boolean;
}

const realOr = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/**
 * The real path of a metadata `file:` (relative to the scenario's folder if it is there, else to the
 * working directory), checked: it exists, is a regular file of at most MAX_METADATA_FILE_BYTES, and
 * (unless allowOutside) is inside the scenario's folder or the working directory once symbolic links
 * are followed. Throws FileRefused saying why.
 */
export function resolveMetadataFile(file: string, o: FileAccess): string {
  const cwd = o.cwd ?? process.cwd();
  const near = resolve(o.baseDir, file);
  const path = existsSync(near) ? near : resolve(cwd, file);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (e) {
    throw new FileRefused(`${errnoText(e, path, false)} (looked for ${near}${path !== near ? ` and ${path}` : ''})`);
  }
  if (!o.allowOutside && !isBelow(realOr(o.baseDir), real) && !isBelow(realOr(cwd), real)) {
    const via = real !== path ? ` (${path} leads to ${real})` : '';
    throw new FileRefused(
      `it is outside the scenario's folder (${o.baseDir}) and the working directory (${cwd})${via}; a scenario serves only files from those (saltnet run --allow-files-outside, or the runner option allowFilesOutside, lifts this)`,
    );
  }
  const st = statSync(real);
  if (!st.isFile()) throw new FileRefused(`it is ${kindOf(st)}, not a regular file`);
  if (st.size > MAX_METADATA_FILE_BYTES)
    throw new FileRefused(`it is ${st.size} bytes; a metadata file is at most ${formatBytes(MAX_METADATA_FILE_BYTES)}`);
  return real;
}

/**
 * A metadata file's bytes, checked as resolveMetadataFile says and read with the cap (a file swapped for a link or a
 * device since is refused too).
 */
export function readMetadataFile(file: string, o: FileAccess): Buffer {
  return readBounded(resolveMetadataFile(file, o), MAX_METADATA_FILE_BYTES, 'a metadata file', true);
}

/** The problem with a metadata step's file, worded for a scenario problem or a step failure. */
export function metadataFileProblem(file: string, why: string): string {
  return `cannot serve the metadata file ${JSON.stringify(file)}: ${why}`;
}

/**
 * A scenario's steps as checkScenarioFiles reads them: each step's place, and a metadata step's `file:` (the metadata
 * step kind imports this module, so it is not named here).
 */
interface StepsNamingFiles {
  steps: readonly { index: number; pos: SourcePos; action: { kind: string; file?: string; filePos?: SourcePos } }[];
}

/**
 * Check every metadata `file:` of a scenario before anything runs; throws a ScenarioError (file, line, field, path,
 * why).
 */
export function checkScenarioFiles(s: StepsNamingFiles, o: FileAccess): void {
  const problems: ScenarioProblem[] = [];
  for (const st of s.steps) {
    const a = st.action;
    if (a.kind !== 'metadata' || a.file === undefined) continue;
    try {
      resolveMetadataFile(a.file, o);
    } catch (e) {
      if (!(e instanceof FileRefused)) throw e;
      problems.push({
        pos: a.filePos ?? st.pos,
        path: `steps[${st.index}].metadata.file`,
        message: metadataFileProblem(a.file, e.message),
        expected: `a regular file of at most ${formatBytes(MAX_METADATA_FILE_BYTES).split(' (')[0]} inside the scenario's folder or the working directory`,
      });
    }
  }
  if (problems.length) throw new ScenarioError(problems);
}
