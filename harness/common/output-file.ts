// A report written where `--output` says: checked before anything runs (a folder, a path that
// cannot be created, an input of the same run), written atomically (a temporary file renamed into
// place), and every failure named with its path.
import { realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** Write `text` to `path` atomically; an error names the path. */
export function writeOutputFile(option: string, path: string, text: string): void {
  const abs = resolve(path);
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
