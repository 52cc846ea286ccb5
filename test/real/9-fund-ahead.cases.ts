// Funding ahead on the real programs (harness/scenario/fund-ahead.ts, ahead-state.ts): a shared run above difficulty
// 1 (2 here, in light mode, so that its blocks stay cheap) creates and pays every scenario's wallets once, at
// difficulty 1, on the tier's cached chain state, and saves that as a state of its own; the next run restores it.
// Each scenario starts where the one before it ended, its wallets holding what their own funding would have given
// them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runFiles } from '../../harness/scenario/runner.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

const SCENARIO = (name: string): string =>
  [
    `name: ${name}`,
    'requires: { height: 1201, unlocked: { SAL1: 5 SAL1 } }',
    'wallets:',
    '  bob: { unlocked: { SAL1: 2 SAL1 } }',
    'steps:',
    '  - call: { path: /get_height }',
    '  - call: { method: get_balance, params: { asset_type: SAL1 } }',
    "    expect: { 'result.balances[0].unlocked_balance': 500000004, 'result.balances[0].balance': 500000004 }",
    '  - wallet: bob',
    '    call: { method: get_balance, params: { asset_type: SAL1 } }',
    "    expect: { 'result.balances[0].unlocked_balance': 200000004 }",
    '',
  ].join('\n');

describeReal('funding ahead on real Salvium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-ahead-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pays both scenarios wallets once, at difficulty 1, into a cached state a later run restores', async () => {
    const files = ['first', 'second'].map((name) => {
      const path = join(dir, `${name}.yaml`);
      writeFileSync(path, SCENARIO(name));
      return path;
    });
    const run = async (n: number) => {
      const lines: string[] = [];
      const results = await runFiles(files, {
        backend: 'salvium',
        binDir: BIN_DIR,
        cacheDir: CACHE_DIR,
        difficulty: 2,
        randomx: 'light',
        isolation: 'shared',
        workers: 1,
        bail: false,
        artifactsRoot: join(dir, `arts-${n}`),
        log: (l) => lines.push(l),
      });
      expect(
        results.map((r) => [r.name, r.status, r.failure?.message]),
        lines.join('\n'),
      ).toEqual([
        ['first', 'passed', undefined],
        ['second', 'passed', undefined],
      ]);
      const heights = results.map((r) => (r.steps[0]!.response as { height: number }).height);
      return { lines, heights };
    };
    const first = await run(1);
    const funded = first.lines.find((l) => /wallets ahead in/.test(l));
    expect(funded, first.lines.join('\n')).toMatch(
      /^saltnet: funded 4 scenario wallets ahead in [\d.]+ s \(11 blocks\)$/,
    );
    expect(first.lines.join('\n')).toMatch(/funding the scenarios' wallets at difficulty 1 \(once per machine\)/);
    process.stderr.write(`real tier: ${funded!.replace(/^saltnet: /, '')} (at difficulty 1, saved)\n`);
    // Neither scenario mined for its funds.
    expect(first.heights[1]).toBe(first.heights[0]);
    // The next run restores the wallets funded: nothing mined before its first scenario, which starts where the first
    // run's did.
    const second = await run(2);
    expect(second.lines.join('\n')).toMatch(
      /funded 4 scenario wallets ahead: restored with snapshot salvium-d1-\S+-ahead-/,
    );
    expect(second.lines.join('\n')).not.toMatch(/\(11 blocks\)/);
    expect(second.heights).toEqual(first.heights);
  }, 900_000);
});
