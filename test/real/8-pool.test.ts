// The testnet pool on the real programs, at the default difficulty 500 (these scenarios mine nothing, so --randomx
// auto runs them light: no dataset): a fresh-isolation run of three scenarios from the tier's cache (the default chain
// state 1-up built), the second and third on testnets the pool started while the ones before them ran; nothing of
// the run left afterwards.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

describeReal('the testnet pool on real Salvium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-pool-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs three fresh scenarios, the later two on testnets started ahead, and leaves nothing', async () => {
    const files = ['first', 'second', 'third'].map((name) => {
      const path = join(dir, `${name}.yaml`);
      writeFileSync(
        path,
        [
          `name: ${name}`,
          'requires: { height: 1201, unlocked: { SAL1: 5 SAL1 } }',
          'steps:',
          '  - call: { on: daemon, method: get_info }',
          '    expect: { result.height: { gte: 1201 }, result.difficulty: 500 }',
          '  - call: { method: get_balance }',
          "    expect: { 'result.balances[0].asset_type': SAL1 }",
          '',
        ].join('\n'),
      );
      return path;
    });
    const tag = `real-pool-${process.pid}`;
    const lines: string[] = [];
    const results = await runFiles(files, {
      backend: 'salvium',
      binDir: BIN_DIR,
      cacheDir: CACHE_DIR,
      isolation: 'fresh',
      workers: 1,
      bail: false,
      artifactsRoot: join(dir, 'arts'),
      daemonEnv: { SALTNET_TEST_TAG: tag },
      log: (l) => lines.push(l),
    });
    expect(
      results.map((r) => [r.name, r.status, r.failure?.message]),
      lines.join('\n'),
    ).toEqual([
      ['first', 'passed', undefined],
      ['second', 'passed', undefined],
      ['third', 'passed', undefined],
    ]);
    const ahead = lines.filter((l) => /was started ahead/.test(l)).map((l) => l.match(/"(\w+)"/)![1]);
    expect(ahead, lines.join('\n')).toEqual(expect.arrayContaining(['second', 'third']));
    const strays = readdirSync('/proc').filter((d) => {
      try {
        return /^\d+$/.test(d) && readFileSync(`/proc/${d}/environ`, 'latin1').includes(tag);
      } catch {
        return false;
      }
    });
    expect(strays).toEqual([]);
  }, 600_000);
});
