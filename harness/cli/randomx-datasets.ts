// The RandomX datasets of saltnet's own miner in the cache folder (<cacheDir>/randomx, randomx/dataset-files.ts), as
// `saltnet doctor` and `saltnet cache ls` show them, and removed by `saltnet cache clear`: never one that a live
// process is building (its build lock is taken first, so none can start while its files go).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  isBuilding,
  listDatasets,
  lockBuild,
  randomxDir,
  removeDataset,
  type DatasetMeta,
} from '../randomx/dataset-files.js';

/** Items of RandomX's dataset (2080 MiB), as librandomx's randomx_dataset_item_count() says. */
const RANDOMX_ITEMS = 34_078_719;
const DATASET_BYTES = RANDOMX_ITEMS * 64;

/** What a user is told where there is none yet. */
export const NO_DATASET =
  'none yet: the first testnet on real Salvium at difficulty > 1 builds one (~30-40 s of both cores, once per machine)';

export interface DatasetRow {
  seed: string;
  state: 'ready' | 'partial';
  bytes: number;
  /** How much of it is built, in percent (a finished one: 100). */
  percent: number;
  /** A live saltnet holds its build lock: it is building it now. */
  building: boolean;
  /** A finished file whose size is not RandomX's: the miner builds it again when it needs it. */
  wrongSize?: true;
  meta?: DatasetMeta;
}

/** The datasets in the cache folder `cacheDir`, finished or partly built. */
export async function datasetRows(cacheDir: string): Promise<DatasetRow[]> {
  const dir = randomxDir(cacheDir);
  const rows: DatasetRow[] = [];
  for (const d of listDatasets(dir)) {
    const wrongSize = d.state === 'ready' && d.bytes !== DATASET_BYTES;
    rows.push({
      seed: d.seed,
      state: d.state,
      bytes: d.bytes,
      percent: d.state === 'ready' ? 100 : Math.floor((d.items / RANDOMX_ITEMS) * 1000) / 10,
      building: await isBuilding(dir, d.seed),
      ...(wrongSize ? { wrongSize: true as const } : {}),
      ...(d.meta ? { meta: d.meta } : {}),
    });
  }
  return rows;
}

const mib = (n: number): string => `${(n / 2 ** 20).toFixed(1)} MiB`;

/** `5e5e5e5e5e5e  ready  2080.0 MiB  built 2026-11-30T01:00:00.000Z in 31.2 s on 2 threads` */
export function describeDataset(r: DatasetRow): string {
  const head = `${r.seed.slice(0, 12)}  `;
  if (r.wrongSize)
    return `${head}wrong size (${r.bytes} bytes, not ${DATASET_BYTES}): built again when a testnet needs it  ${mib(r.bytes)}`;
  if (r.state === 'partial')
    return `${head}partial: ${r.percent}% built  ${mib(r.bytes)}  (${
      r.building ? 'being built now' : 'the next testnet at difficulty > 1 goes on with it'
    })`;
  const cost = r.meta
    ? `  built ${r.meta.builtAt} in ${(r.meta.buildMs / 1000).toFixed(1)} s on ${r.meta.threads} thread${r.meta.threads === 1 ? '' : 's'}`
    : '';
  return `${head}ready  ${mib(r.bytes)}${cost}`;
}

/**
 * Remove every dataset of the cache folder, finished or partial, with its meta and records, but the ones a live process
 * is building: those are returned as kept.
 */
export async function clearDatasets(cacheDir: string): Promise<{ removed: string[]; building: string[] }> {
  const dir = randomxDir(cacheDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { removed: [], building: [] };
  }
  const seeds = [...new Set(names.map((n) => /^([0-9a-f]{64})\./.exec(n)?.[1]).filter((s) => s !== undefined))];
  const removed: string[] = [];
  const building: string[] = [];
  for (const seed of seeds.sort()) {
    const unlock = await lockBuild(dir, seed);
    if (!unlock) {
      building.push(seed);
      continue;
    }
    try {
      removeDataset(dir, seed);
      // and what a build stopped at the wrong moment may have left (a record being written)
      for (const n of readdirSync(dir))
        if (n.startsWith(`${seed}.`) && !n.endsWith('.lock')) rmSync(join(dir, n), { force: true });
      removed.push(seed);
    } finally {
      await unlock();
    }
  }
  return { removed, building };
}
