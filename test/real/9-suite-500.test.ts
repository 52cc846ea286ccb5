// Example scenarios on the real programs at the default difficulty, 500, as users run them (3-suite runs every one at
// difficulty 1 against the simulator; all of them at 500 take about 16 minutes on two cores with huge pages, more than
// CI's budget leaves: `npm run bench -- --suite-only` measures that). These are the ones whose time at 500 stays near
// their time at 1 and that cover what the served difficulty changes: the suite's chain state (mined at 1, shared with
// 3-suite) served at 500, the wallets funded ahead at 1 and restored, full RandomX with its dataset built in the
// background, a checkpoint and a revert that keep the daemon (and its dataset), a token created and mined, a token held
// before the steps (made ahead at 1 with the wallets, restored unlocked at 500) and sent or swept, transfers, sweeps.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { suiteChain } from '../../harness/scenario/needs.js';
import { runFiles } from '../../harness/scenario/runner.js';
import { BACKENDS } from '../../harness/testnet/backends.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

const AT_500 = [
  'daemon-mining',
  'first-token',
  'snapshot-revert',
  'sweep-all',
  'token-create-and-list',
  'token-errors',
  'token-sweep',
  'token-transfer',
  'transfer-groups',
  'wallet-upkeep',
];

describeReal('example scenarios on real Salvium at difficulty 500', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-500-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pass, on the suite chain state served at 500 with their wallets funded ahead', async () => {
    const all = readdirSync('scenarios')
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => join('scenarios', f));
    const files = all.filter((f) => AT_500.includes(basename(f, '.yaml')));
    expect(files.map((f) => basename(f, '.yaml'))).toEqual(AT_500);
    const lines: string[] = [];
    const t0 = Date.now();
    const results = await runFiles(files, {
      backend: 'salvium',
      binDir: BIN_DIR,
      cacheDir: CACHE_DIR,
      difficulty: 500,
      isolation: 'shared',
      workers: 1,
      bail: false,
      // The suite's chain (the default one): built by 1-up beside the sim tier before this file runs (alone, here).
      chain: await suiteChain(all, BACKENDS.salvium!),
      artifactsRoot: join(dir, 'artifacts'),
      log: (l) => lines.push(l),
    });
    const took = (Date.now() - t0) / 1000;
    expect(
      results.map((r) => [basename(r.file, '.yaml'), r.status, r.failure?.message]),
      lines.join('\n'),
    ).toEqual(AT_500.map((n) => [n, 'passed', undefined]));
    const log = lines.join('\n');
    expect(log).toMatch(/funded \d+ scenario wallets ahead: restored with snapshot salvium-d1-\S+-ahead-/);
    // The tokens token-errors, token-sweep and token-transfer hold were made with them (at 1), not by their scenarios
    // at 500.
    expect(log).toMatch(/made 3 of 3 tokens ahead in [\d.]+ s \(\d+ blocks\)/);
    // Served at 500: the block template says so.
    const mining = results.find((r) => r.file.endsWith('daemon-mining.yaml'))!;
    expect(JSON.stringify(mining.steps.map((s) => s.response))).toContain('"difficulty":500');
    const each = results.map((r) => `${basename(r.file, '.yaml')} ${(r.ms / 1000).toFixed(1)} s`).join(', ');
    process.stderr.write(
      `real tier: ${results.length} example scenarios at difficulty 500 in ${took.toFixed(1)} s (${each})\n`,
    );
  }, 1_200_000);
});
