// Every example scenario on the real programs and on the simulator, compared step by step with
// `saltnet diff` at difficulty 1, from a cache without the suite's chain state: it is built on both
// sides (the real one mined at difficulty 1 across the Carrot switch) into the tier's cache. Every
// scenario must pass on both, and the simulator must answer as real Salvium does — no divergence
// beyond the project's accept file.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { CLI } from '../cli/helpers.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

interface Report {
  ok: boolean;
  summary: { scenarios: number; divergences: number; errors: number };
  scenarios: { file: string; status: string; a: { status: string }; b: { status: string } }[];
}

describeReal('every example scenario on real Salvium and on the simulator', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-suite-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes on both with the suite state built, and saltnet diff finds no divergence', async () => {
    const output = join(root, 'diff.json');
    const t0 = Date.now();
    const r = await execa(
      process.execPath,
      [
        CLI,
        'diff',
        'scenarios/*.yaml',
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
        '--artifacts',
        join(root, 'artifacts'),
        '--reporter',
        'json',
        '--output',
        output,
      ],
      {
        reject: false,
        env: { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' },
        all: true,
        timeout: 1_500_000,
      },
    );
    process.stderr.write(
      `real tier: the example suite on sim and real, compared, with the suite's chain state built, took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
    );
    // On failure, show the run's own output: the table of divergences, or the failed step with its log tails.
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    const notPassed = report.scenarios
      .filter((s) => s.a.status !== 'passed' || s.b.status !== 'passed')
      .map((s) => `${s.file}: sim ${s.a.status}, real ${s.b.status}`);
    expect(notPassed, r.all).toEqual([]);
    expect(report.summary.divergences, r.all).toBe(0);
    expect(r.exitCode, r.all).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.summary.scenarios).toBeGreaterThanOrEqual(14);
  }, 1_500_000); // 33 examples, four of them on two nodes: over the tier's 15 minutes a file
});
