// RandomX datasets as saltnet's own miner leaves them in a cache folder, for the tests of doctor and `saltnet cache`:
// sparse files of the real sizes (no disk used), with the meta of a finished build and the record of a partial one.
import { closeSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetMeta } from '../../harness/randomx/dataset-files.js';

/** A finished dataset's seed (its files: <seed>.dataset and <seed>.json). */
export const READY_SEED = 'a1'.repeat(32);
/** A partial build's seed: half of it built (<seed>.partial and <seed>.partial.json). */
export const PARTIAL_SEED = 'b2'.repeat(32);
export const DATASET_BYTES = 34_078_719 * 64;
export const HALF_ITEMS = 17_039_360;
export const READY_META: DatasetMeta = {
  seed: READY_SEED,
  items: 34_078_719,
  buildMs: 31_200,
  threads: 2,
  builtAt: '2026-11-30T01:00:00.000Z',
  library: 'librandomx.so.0',
};

function sparse(file: string, bytes: number): void {
  const fd = openSync(file, 'w');
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

/** The two datasets in <cacheDir>/randomx; returns that folder. */
export function writeDatasets(cacheDir: string): string {
  const dir = join(cacheDir, 'randomx');
  mkdirSync(dir, { recursive: true });
  sparse(join(dir, `${READY_SEED}.dataset`), DATASET_BYTES);
  writeFileSync(join(dir, `${READY_SEED}.json`), JSON.stringify(READY_META));
  sparse(join(dir, `${PARTIAL_SEED}.partial`), HALF_ITEMS * 64);
  writeFileSync(join(dir, `${PARTIAL_SEED}.partial.json`), JSON.stringify({ items: HALF_ITEMS }));
  return dir;
}
