// Example scenarios on real Salvium at the default difficulty 500: the suite's chain state, mined at
// difficulty 1 (by 3-suite into the tier's cache, or by `saltnet cache build` here if this file runs
// first), is served at 500 (full RandomX, its dataset built in the background), and every block the
// scenarios mine — their funding and their `mine` steps — is mined at 500. The whole suite mines ~620 blocks after ready (~15 min at
// 500 on two cores: `npm run bench` runs all of it, 19/19 passed in 1971 s); CI's 30 minutes take
// the token flow: funding, a token created, its block mined, the token listed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { CLI } from '../cli/helpers.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

const SUBSET = '^a new token is listed as sal';

describeReal('an example scenario on real Salvium at the default difficulty 500', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-d500-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes on the suite chain state mined at 1 and served at 500, every block after ready mined at 500', async () => {
    const env = { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' };
    // The suite's state: cached already when 3-suite ran first; built here (at difficulty 1) otherwise.
    const built = await execa(process.execPath, [CLI, 'cache', 'build', '--for', 'scenarios/*.yaml', '--backend', 'salvium', '--bin-dir', BIN_DIR, '--cache-dir', CACHE_DIR], { reject: false, env, all: true, timeout: 900_000 });
    expect(built.exitCode, built.all).toBe(0);
    expect(built.stdout).toMatch(/^salvium-d1-h\d+-[0-9a-f]{12} (was cached already|built and saved)/);
    const output = join(root, 'report.json');
    const t0 = Date.now();
    const r = await execa(
      process.execPath,
      [CLI, 'run', 'scenarios/*.yaml', '--grep', SUBSET, '--backend', 'salvium', '--bin-dir', BIN_DIR, '--cache-dir', CACHE_DIR, '--artifacts', join(root, 'artifacts'), '--reporter', 'json', '--output', output],
      { reject: false, env, all: true, timeout: 900_000 },
    );
    process.stderr.write(`real tier: ${SUBSET} at difficulty 500 took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    expect(r.exitCode, r.all).toBe(0);
    // the suite's state mined at difficulty 1, restored, served at 500 in full RandomX mode
    const key = /restored snapshot salvium-d1-h(\d+)-[0-9a-f]{12}/.exec(r.all);
    expect(key, r.all).not.toBeNull();
    const prefixHeight = Number(key![1]);
    expect(r.all).toContain('mining at difficulty 500, RandomX full');
    const report = JSON.parse(readFileSync(output, 'utf8')) as { results: { name: string; status: string; artifactDir?: string }[] };
    const ran = report.results.filter((s) => s.status !== 'skipped');
    expect(ran.map((s) => [s.name, s.status])).toEqual([['a new token is listed as sal + ticker one block after creation', 'passed']]);
    // Every block mined after ready is at 500: the daemon's log (kept with each scenario's artifacts;
    // a snapshot holds no log) says so of each block it found above the restored height.
    const found = ran.flatMap((s) =>
      [...readFileSync(join(s.artifactDir!, 'logs', 'daemon.log'), 'utf8').matchAll(/Found block <\w+> at height (\d+) for difficulty: (\d+)/g)]
        .filter((m) => Number(m[1]) >= prefixHeight)
        .map((m) => Number(m[2])),
    );
    // its funding's unlock (10 blocks at least) and its own `mine: 1`
    expect(found.length).toBeGreaterThanOrEqual(11);
    expect(new Set(found)).toEqual(new Set([500]));
  });
});
