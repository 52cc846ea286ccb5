// Every example scenario through `saltnet run` on the real programs, from an empty cache: the
// suite's chain state is built (mined at difficulty 1 across the Carrot switch) and every scenario
// must pass, with a JUnit report that says so.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { CLI } from '../cli/helpers.js';
import { BIN_DIR, describeReal } from './real.js';

describeReal('every example scenario on real Salvium', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-suite-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes from an empty cache', async () => {
    const report = join(root, 'junit.xml');
    const t0 = Date.now();
    const r = await execa(
      process.execPath,
      [CLI, 'run', 'scenarios/*.yaml', '--backend', 'salvium', '--bin-dir', BIN_DIR, '--difficulty', '1', '--cache-dir', join(root, 'cache'), '--artifacts', join(root, 'artifacts'), '--reporter', 'junit', '--output', report],
      { reject: false, env: { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' }, all: true, timeout: 1_500_000 },
    );
    process.stderr.write(`real tier: the example suite from an empty cache took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    const xml = readFileSync(report, 'utf8');
    // On failure, show the run's own output: it names the step, the expectation and the log tails.
    expect(r.exitCode, r.all).toBe(0);
    expect(xml).not.toMatch(/<failure|<error/);
    expect(Number(/tests="(\d+)"/.exec(xml)?.[1])).toBeGreaterThanOrEqual(13);
  });
});
