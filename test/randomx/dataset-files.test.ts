// The RandomX dataset's files in the cache folder: the seed checked, a finished file told by its size, a partial
// build's record trusted only as far as its file goes, the final rename, removal, the listing doctor and `saltnet
// cache` show, and the build lock (held, free again, taken over when its holder died).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkSeed,
  datasetPaths,
  finishDataset,
  finishedDataset,
  isBuilding,
  listDatasets,
  lockBuild,
  partialItems,
  readMeta,
  recordPartial,
  removeDataset,
  type DatasetMeta,
} from '../../harness/randomx/dataset-files.js';

const A = 'a1'.repeat(32);
const B = 'b2'.repeat(32);
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'saltnet-rxfiles-'));
  dirs.push(d);
  return d;
}

const meta = (seed: string, items: number): DatasetMeta => ({
  seed,
  items,
  buildMs: 31_200,
  threads: 2,
  builtAt: '2026-11-30T01:00:00.000Z',
  library: 'librandomx.so.0',
});

describe('dataset files', () => {
  it('checkSeed: 64 lowercase hex digits, else an error that shows what it got', () => {
    expect(checkSeed(A)).toBe(A);
    expect(() => checkSeed(A.toUpperCase())).toThrow(`a RandomX seed hash is 64 hex digits, got "${A.toUpperCase()}"`);
    expect(() => checkSeed('../x')).toThrow('got "../x"');
    expect(() => checkSeed(`${A}0`)).toThrow('64 hex digits');
  });

  it('finishedDataset: the file only when its size is the items asked for', () => {
    const dir = tmp();
    expect(finishedDataset(dir, A, 10)).toBeUndefined();
    writeFileSync(datasetPaths(dir, A).file, Buffer.alloc(640));
    expect(finishedDataset(dir, A, 10)).toBe(join(dir, `${A}.dataset`));
    expect(finishedDataset(dir, A, 11)).toBeUndefined();
  });

  it('partialItems: the record, as far as the file holds it; a bad record counts as nothing', () => {
    const dir = tmp();
    const p = datasetPaths(dir, A);
    expect(partialItems(dir, A, 100)).toBe(0);
    writeFileSync(p.partial, Buffer.alloc(20 * 64));
    recordPartial(dir, A, 20);
    expect(partialItems(dir, A, 100)).toBe(20);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    recordPartial(dir, A, 21); // more than the file holds
    expect(partialItems(dir, A, 100)).toBe(0);
    recordPartial(dir, A, 20);
    expect(partialItems(dir, A, 19)).toBe(0); // more than the dataset has
    for (const bad of ['{"items": 2.5}', '{"items": -1}', '{"items": "20"}', 'not json', '{}']) {
      writeFileSync(p.progress, bad);
      expect(partialItems(dir, A, 100), bad).toBe(0);
    }
  });

  it('finishDataset: the partial file becomes the dataset, its meta beside it, the record gone', () => {
    const dir = tmp();
    const p = datasetPaths(dir, A);
    writeFileSync(p.partial, Buffer.alloc(640, 7));
    recordPartial(dir, A, 10);
    finishDataset(dir, meta(A, 10));
    expect(finishedDataset(dir, A, 10)).toBe(p.file);
    expect(existsSync(p.partial) || existsSync(p.progress)).toBe(false);
    expect(readMeta(dir, A)).toEqual(meta(A, 10));
  });

  it("removeDataset: the seed's four files, nothing of another seed", () => {
    const dir = tmp();
    for (const seed of [A, B]) {
      const p = datasetPaths(dir, seed);
      for (const f of [p.file, p.meta, p.partial, p.progress]) writeFileSync(f, '1');
    }
    removeDataset(dir, A);
    expect(readdirSync(dir).sort()).toEqual([`${B}.dataset`, `${B}.json`, `${B}.partial`, `${B}.partial.json`]);
    removeDataset(dir, A); // nothing there: no error
  });

  it('listDatasets: finished (with its meta when there is one) and partial ones; other files ignored', () => {
    const dir = tmp();
    expect(listDatasets(join(dir, 'none'))).toEqual([]);
    writeFileSync(datasetPaths(dir, A).file, Buffer.alloc(640));
    writeFileSync(datasetPaths(dir, A).meta, JSON.stringify(meta(A, 10)));
    writeFileSync(datasetPaths(dir, B).partial, Buffer.alloc(5 * 64));
    recordPartial(dir, B, 5);
    const C = 'c3'.repeat(32);
    writeFileSync(datasetPaths(dir, C).file, Buffer.alloc(128));
    writeFileSync(join(dir, 'notes.txt'), 'x');
    mkdirSync(join(dir, `${A}.dataset.lock`));
    expect(listDatasets(dir)).toEqual([
      { seed: A, state: 'ready', bytes: 640, items: 10, meta: meta(A, 10) },
      { seed: B, state: 'partial', bytes: 320, items: 5 },
      { seed: C, state: 'ready', bytes: 128, items: 2 },
    ]);
  });
});

describe('the build lock', () => {
  it('one holder at a time; isBuilding while held; free and gone once released', async () => {
    const dir = join(tmp(), 'randomx'); // made by the first lock
    expect(await isBuilding(dir, A)).toBe(false);
    const unlock = await lockBuild(dir, A);
    expect(unlock).toBeTypeOf('function');
    expect(await lockBuild(dir, A)).toBeUndefined();
    expect(await isBuilding(dir, A)).toBe(true);
    expect(await isBuilding(dir, B)).toBe(false);
    await unlock!();
    expect(existsSync(`${datasetPaths(dir, A).lock}.lock`)).toBe(false);
    expect(await isBuilding(dir, A)).toBe(false);
    const again = await lockBuild(dir, A);
    expect(again).toBeTypeOf('function');
    await again!();
  });

  it('a lock its holder stopped refreshing long ago (a dead process) is not a build, and is taken over', async () => {
    const dir = tmp();
    const lock = `${datasetPaths(dir, A).lock}.lock`;
    mkdirSync(lock);
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    expect(await isBuilding(dir, A)).toBe(false);
    const unlock = await lockBuild(dir, A);
    expect(unlock).toBeTypeOf('function');
    expect(await isBuilding(dir, A)).toBe(true);
    await unlock!();
  });
});
