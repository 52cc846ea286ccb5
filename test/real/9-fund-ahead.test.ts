// Funding ahead on the real programs (harness/scenario/fund-ahead.ts): a shared run above difficulty 1 (2 here, in
// light mode, so that its blocks stay cheap) creates and pays every scenario's wallets when its testnet is up, from
// the tier's cache (the default chain state 1-up built). Each scenario then starts where the one before it ended,
// its wallets holding what their own funding would have given them.
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

  it('pays both scenarios wallets before the first starts; neither mines for its funds', async () => {
    const files = ['first', 'second'].map((name) => {
      const path = join(dir, `${name}.yaml`);
      writeFileSync(path, SCENARIO(name));
      return path;
    });
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
      artifactsRoot: join(dir, 'arts'),
      log: (l) => lines.push(l),
    });
    expect(
      results.map((r) => [r.name, r.status, r.failure?.message]),
      lines.join('\n'),
    ).toEqual([
      ['first', 'passed', undefined],
      ['second', 'passed', undefined],
    ]);
    const funded = lines.find((l) => /wallets ahead/.test(l));
    expect(funded, lines.join('\n')).toMatch(/^saltnet: funded 4 scenario wallets ahead in [\d.]+ s \(11 blocks\)$/);
    process.stderr.write(`real tier: ${funded!.replace(/^saltnet: /, '')}\n`);
    const heights = results.map((r) => (r.steps[0]!.response as { height: number }).height);
    expect(heights[1]).toBe(heights[0]);
  }, 600_000);
});
