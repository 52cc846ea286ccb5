// The simulator against real Salvium at difficulty 1, beyond the examples (docs/fuzz.md), on the real tier's default
// chain state and its second worker (beside the suite at 500): the regression corpus (test/fuzz/corpus: each file a
// divergence the simulator once had, with real Salvium's answers) through `saltnet diff`, and a fixed-seed
// `saltnet fuzz` campaign, two programs of twelve steps drawn from one seed; both held to no divergence. The
// simulator side follows the real wallet's coin flips (its input counts, replayed per step), so what is left to
// differ is what the simulator gets wrong. A divergent program is named with its first divergence in the output.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import type { FuzzReport } from '../../harness/fuzz/fuzz.js';
import { CLI } from '../cli/helpers.js';
import { describeReal, diffSimAgainstReal, SIM_AGAINST_REAL } from './real.js';

const SEED = 4500;
const PROGRAMS = 2;
const STEPS = 12;

describeReal('the simulator against real Salvium beyond the examples', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-fuzz-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('answers every file of the regression corpus as real Salvium does', async () => {
    const r = await diffSimAgainstReal<{ summary: { scenarios: number; divergences: number; errors: number } }>(
      'test/fuzz/corpus/*.yaml',
      root,
      'corpus',
      1_200_000,
    );
    const report = r.report;
    expect(report.summary, r.all).toMatchObject({ divergences: 0, errors: 0 });
    expect(report.summary.scenarios).toBeGreaterThanOrEqual(4);
    expect(r.exitCode, r.all).toBe(0);
  }, 1_200_000);

  it('runs every program of a fixed-seed campaign on both sides without a divergence', async () => {
    const t0 = Date.now();
    const args = ['fuzz', '--seed', String(SEED), '--programs', String(PROGRAMS), '--steps', String(STEPS)];
    const where = ['--out', join(root, 'found'), '--artifacts', join(root, 'artifacts')];
    const r = await execa(
      process.execPath,
      [CLI, ...args, ...SIM_AGAINST_REAL, ...where, '--shrink-runs', '0', '--json'],
      {
        reject: false,
        env: { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' },
        timeout: 1_200_000,
      },
    );
    process.stderr.write(`real tier: fuzz campaign (seed ${SEED}) took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    const report = JSON.parse(r.stdout) as FuzzReport;
    // The findings in the tier's log, for whoever takes them up.
    for (const p of report.programs)
      if (p.status !== 'same') process.stderr.write(`real tier: fuzz ${JSON.stringify(p).slice(0, 600)}\n`);
    expect(report.errors, r.stderr).toBe(0);
    expect(report.programs).toHaveLength(PROGRAMS);
    expect(report.steps).toBe(PROGRAMS * STEPS);
    expect(report.divergences, r.stderr).toBe(0);
    expect(r.stderr).toContain(`fuzz: ${PROGRAMS} programs, ${PROGRAMS * STEPS} steps, 0 divergences`);
    expect(r.exitCode, r.stderr).toBe(0);
  }, 1_200_000);
});
