// A report written where `--output` says: checked before anything runs (a folder, a path that
// cannot be created, an input of the same run), written atomically (a temporary file renamed into
// place), and every failure named with its path. A path that is not a regular file — a device such
// as /dev/stdout or /dev/null, a named pipe — is written into, never replaced by a file.
import { closeSync, constants, openSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { errnoWords } from './errno.js';
import { randomHex } from './files.js';
import { makeDirs } from './mkdir.js';

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/**
 * Refuse an output path before the run: a folder, a path whose folder cannot be made, or one of the run's `inputs`
 * (a scenario file, a recording): a report never replaces what it reports on.
 */
export function checkOutputPath(option: string, path: string, inputs: readonly string[]): void {
  const abs = resolve(path);
  try {
    if (statSync(abs).isDirectory())
      throw new Error(
        `${option} ${path} is a folder; give a file path, e.g. ${option} ${path.replace(/\/$/, '')}/report.xml`,
      );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const target = real(abs);
  const clash = inputs.find((i) => real(i) === target);
  if (clash)
    throw new Error(
      `${option} ${path} is an input of this run (${clash}): the report would replace it; write it elsewhere`,
    );
  try {
    makeDirs(dirname(abs));
  } catch (err) {
    throw new Error(`${option} ${path}: cannot create its folder ${dirname(abs)} (${errnoWords(err)})`, { cause: err });
  }
}

/**
 * Refuse a folder option (`--artifacts`) before the run, without making it (it is made when something is written):
 * the path, or the nearest part of it that exists, must be a folder.
 */
export function checkOutputFolder(option: string, path: string): void {
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      if (statSync(at).isDirectory()) return;
      throw new Error(
        at === resolve(path)
          ? `${option} ${path} is not a folder; give a folder path`
          : `${option} ${path}: ${at} is not a folder, so the folder cannot be made there`,
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && dirname(at) !== at) continue;
      if (code !== undefined) throw new Error(`${option} ${path}: ${errnoWords(err)}`, { cause: err });
      throw err;
    }
  }
}

/** What `abs` is when it is neither a regular file nor a folder (its links followed): a device, a pipe, a socket. */
function special(abs: string): 'pipe' | 'other' | undefined {
  try {
    const st = statSync(abs);
    if (st.isFile() || st.isDirectory()) return undefined;
    return st.isFIFO() ? 'pipe' : 'other';
  } catch {
    return undefined;
  }
}

/** Write `text` into a device or a pipe; a pipe nothing reads is refused at once (a write to it would wait forever). */
function writeInto(abs: string, kind: 'pipe' | 'other', text: string): void {
  if (kind === 'pipe') {
    let fd: number;
    try {
      fd = openSync(abs, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENXIO')
        throw new Error('it is a named pipe that nothing reads', { cause: err });
      throw err;
    }
    closeSync(fd);
  }
  writeFileSync(abs, text);
}

/** Write `text` to `path` atomically (a device or a pipe: into it); an error names the path. */
export function writeOutputFile(option: string, path: string, text: string): void {
  const abs = resolve(path);
  const kind = special(abs);
  if (kind) {
    try {
      writeInto(abs, kind, text);
    } catch (err) {
      throw new Error(`${option} ${path}: cannot write the report (${errnoWords(err)})`, { cause: err });
    }
    return;
  }
  const tmp = `${abs}.tmp-${process.pid}-${randomHex()}`;
  try {
    makeDirs(dirname(abs));
    writeFileSync(tmp, text);
    renameSync(tmp, abs);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw new Error(`${option} ${path}: cannot write the report (${errnoWords(err)})`, { cause: err });
  }
}
