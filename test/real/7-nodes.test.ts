// Several nodes on the real programs: the four examples of issue 27 (a payment reorganised away and
// back, a double spend across a partition, a token creation lost in a reorg and mined again, a
// transaction relayed after a heal) run on real Salvium and on the simulator and are compared step
// by step with `saltnet diff` at difficulty 1: each passes on both, with no divergence.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, expect, it } from 'vitest';
import { CLI } from '../cli/helpers.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

interface Report {
  ok: boolean;
  summary: { scenarios: number; divergences: number };
  scenarios: { file: string; a: { status: string }; b: { status: string } }[];
}

const EXAMPLES = ['reorg-payment', 'reorg-double-spend', 'reorg-token', 'relay-after-heal'].map(
  (n) => `scenarios/${n}.yaml`,
);

describeReal('several nodes on real Salvium and on the simulator', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-nodes-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('partitions, reorgs, a double spend and a relay after heal: same answers on both', async () => {
    const output = join(root, 'diff.json');
    const r = await execa(
      process.execPath,
      [
        CLI,
        'diff',
        ...EXAMPLES,
        ...['--a', 'sim', '--b', 'salvium', '--bin-dir-b', BIN_DIR, '--difficulty', '1', '--cache-dir', CACHE_DIR],
        ...['--artifacts', join(root, 'artifacts'), '--reporter', 'json', '--output', output],
      ],
      {
        reject: false,
        env: { ...process.env, SALTNET_STATE_DIR: join(root, 'state'), NO_COLOR: '1' },
        all: true,
        timeout: 1_200_000,
      },
    );
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    const notPassed = report.scenarios
      .filter((s) => s.a.status !== 'passed' || s.b.status !== 'passed')
      .map((s) => `${s.file}: sim ${s.a.status}, real ${s.b.status}`);
    expect(notPassed, r.all).toEqual([]);
    expect(report.summary.scenarios).toBe(EXAMPLES.length);
    expect(report.summary.divergences, r.all).toBe(0);
    expect(r.exitCode, r.all).toBe(0);
  });
});
