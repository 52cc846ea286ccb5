// `saltnet doctor` on saltnet's own RandomX miner, as users run it (the compiled CLI): whether librandomx loads or
// why not, and the datasets in the cache folder: finished (with what the build cost), partial (how far, and whether
// a live saltnet is building it now), or none yet (what will build one).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { lockBuild } from '../../harness/randomx/dataset-files.js';
import { loadRandomx } from '../../harness/randomx/library.js';
import { CLI } from './helpers.js';
import { DATASET_BYTES, HALF_ITEMS, PARTIAL_SEED, READY_META, READY_SEED, writeDatasets } from './randomx-fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A folder of its own (a git root, no config file) with its cache folder. */
function place(): { root: string; cache: string } {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-doctor-'));
  dirs.push(root);
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, '.home'));
  return { root, cache: join(root, 'cache') };
}

/** Only what the test sets: nothing SALTNET_* from the machine running the tests. */
function doctor(root: string, cache: string, args: string[], env: Record<string, string> = {}) {
  return execa(process.execPath, [CLI, 'doctor', ...args], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: join(root, '.home'),
      SALTNET_STATE_DIR: join(root, 'runs'),
      SALTNET_CACHE_DIR: cache,
      ...env,
    },
    extendEnv: false,
    reject: false,
  });
}

const NO_LIB = { SALTNET_LIBRANDOMX: '/nonexistent/librandomx.so' };

describe("saltnet doctor: saltnet's own RandomX miner", { timeout: 60_000 }, () => {
  it('--json: the datasets (ready with its cost, partial with its percent and whether it is being built)', async () => {
    const { root, cache } = place();
    const dir = writeDatasets(cache);
    const unlock = await lockBuild(dir, PARTIAL_SEED); // a live saltnet building it
    try {
      const r = await doctor(root, cache, ['--json'], NO_LIB);
      expect(r.exitCode, r.stderr).toBe(0);
      const rx = JSON.parse(r.stdout).randomx;
      expect(rx.datasetDir).toBe(dir);
      expect(rx.datasets).toEqual([
        { seed: READY_SEED, state: 'ready', bytes: DATASET_BYTES, percent: 100, building: false, meta: READY_META },
        { seed: PARTIAL_SEED, state: 'partial', bytes: HALF_ITEMS * 64, percent: 50, building: true },
      ]);
      expect(rx.note).toBeUndefined();
      // the library that is not there: why, and what to install
      expect(rx.library).toBeNull();
      expect(rx.missing).toContain('librandomx is not installed (/nonexistent/librandomx.so: ');
      expect(rx.missing).toContain('apt-get install librandomx0');
      expect(rx.miner).toBe("the daemon's own mines every block (saltnet's own needs librandomx)");
    } finally {
      await unlock?.();
    }
  });

  it('text: one line per dataset, seed shortened; a partial nobody builds says the next testnet goes on with it', async () => {
    const { root, cache } = place();
    const dir = writeDatasets(cache);
    const r = await doctor(root, cache, []);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`randomx:\n  library: ${'missing' in loadRandomx() ? 'not loaded: ' : 'librandomx'}`);
    expect(r.stdout).toContain(
      `  datasets in ${dir}:\n` +
        `    - a1a1a1a1a1a1  ready  2080.0 MiB  built 2026-11-30T01:00:00.000Z in 31.2 s on 2 threads\n` +
        `    - b2b2b2b2b2b2  partial: 50% built  1040.0 MiB  (the next testnet at difficulty > 1 goes on with it)\n`,
    );
  });

  it('none yet: what builds one (text and --json); the library missing: none is built', async () => {
    const { root, cache } = place();
    const note =
      'none yet: the first testnet on real Salvium at difficulty > 1 builds one (~30-40 s of both cores, once per machine)';
    if (!('missing' in loadRandomx())) {
      const r = await doctor(root, cache, []);
      expect(r.stdout).toContain(`  datasets in ${join(cache, 'randomx')}: ${note}\n`);
      const j = JSON.parse((await doctor(root, cache, ['--json'])).stdout).randomx;
      expect(j).toMatchObject({ datasets: [], note, library: expect.stringContaining('librandomx') });
    }
    const r = await doctor(root, cache, [], NO_LIB);
    expect(r.stdout).toMatch(
      /\n {2}library: not loaded: librandomx is not installed \(.*apt-get install librandomx0\n/,
    );
    expect(r.stdout).toContain(`  datasets in ${join(cache, 'randomx')}: none (none is built without librandomx)\n`);
    const daemon = await doctor(root, cache, [], { ...NO_LIB, SALTNET_MINER: 'daemon' });
    expect(daemon.stdout).toContain("  miner: the daemon's own (miner: daemon)\n");
  });
});
