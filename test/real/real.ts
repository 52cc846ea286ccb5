// What the real-Salvium tier's files share: the binaries and cache that test/real/setup.ts found,
// and a describe that is skipped, visibly, when there are none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe } from 'vitest';
import { CLI } from '../cli/helpers.js';

export const BIN_DIR = process.env.SALTNET_REAL_BIN_DIR ?? '';
export const CACHE_DIR = process.env.SALTNET_REAL_CACHE_DIR ?? '';
export const SAL1 = 100_000_000n;

/** describe() that runs only with real binaries (the setup printed why not). */
export function describeReal(name: string, fn: () => void): void {
  describe.skipIf(!BIN_DIR)(name, fn);
}

/**
 * The options every real testnet of the tier uses: the real programs at difficulty 1 (light RandomX: ~15 blocks/s on
 * two cores).
 */
export const REAL = { backend: 'salvium' as const, binDir: BIN_DIR, difficulty: 1 };

/**
 * `saltnet diff`'s and `saltnet fuzz`'s sides as the tier compares them: the simulator against the real programs at
 * difficulty 1, on the tier's cache.
 */
export const SIM_AGAINST_REAL = [
  '--a',
  'sim',
  '--b',
  'salvium',
  '--bin-dir-b',
  BIN_DIR,
  '--difficulty',
  '1',
  '--cache-dir',
  CACHE_DIR,
];

/**
 * `saltnet diff` of the scenario files `glob` matches, the simulator against the real programs (SIM_AGAINST_REAL),
 * its artifacts under `<root>/<name>` and its JSON report read back from `<root>/<name>.json`; `all` is the run's
 * whole output, for a failure to show.
 */
export async function diffSimAgainstReal<Report>(
  glob: string,
  root: string,
  name: string,
  timeoutMs: number,
): Promise<{ report: Report; all: string; exitCode: number | undefined }> {
  const output = join(root, `${name}.json`);
  const r = await execa(
    process.execPath,
    [CLI, 'diff', glob, ...SIM_AGAINST_REAL, '--artifacts', join(root, name), '--reporter', 'json', '--output', output],
    {
      reject: false,
      env: { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' },
      all: true,
      timeout: timeoutMs,
    },
  );
  return { report: JSON.parse(readFileSync(output, 'utf8')) as Report, all: r.all, exitCode: r.exitCode };
}
