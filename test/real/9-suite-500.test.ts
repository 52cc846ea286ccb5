// The example scenarios on the real programs at the default difficulty, 500, as users run them (3-suite runs every one
// at difficulty 1 against the simulator): all but five, the slowest at 500 after the funding, which CI's 45 minutes do
// not leave room for (docs/difficulty.md): token-hard-forks (~110 blocks of its own across the forks at 1300 and 1400,
// 211.5 s), token-receiver (five 10-block locks, 91.9 s), multi-asset (45.5 s), transfer-lookup (44.5 s) and
// reorg-payment (43.7 s). CI with 31 took 54 minutes; CI emulations with 27 took 46.1 before the programs saltnet
// starts ran bundled, and 39.2 after; with all 33 on two shared testnets (two workers, two daemons mining at 500 on two
// cores), 53.1; with the five on a testnet of their own, run by the real tier's other worker after its other files,
// 47.9 (2876 s; docs/difficulty.md). The bench runs the whole suite at 500. On the suite's chain state (mined at 1,
// shared with 3-suite) served at 500: the wallets funded ahead at 1 and restored, tokens held before the steps made
// ahead with them, full RandomX with its dataset built in the background, checkpoints and reverts that keep the daemon
// (and its dataset); each scenario of several nodes on a testnet of its own, started on its own state funded ahead
// (reorg-double-spend's at its height of its own), its nodes in the RandomX mode its blocks at 500 call for. It runs
// beside the real tier's other files (the real project's two workers, vitest.config.ts): it keeps a core busy on
// average, not two. `npm run bench -- --suite-only` measures the whole suite against difficulty 1.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { suiteChain } from '../../harness/scenario/needs.js';
import { runFiles } from '../../harness/scenario/runner.js';
import { BACKENDS } from '../../harness/testnet/backends.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

/** Run at 500 by the bench only (see the header). */
const NOT_IN_CI = ['token-hard-forks', 'token-receiver', 'multi-asset', 'transfer-lookup', 'reorg-payment'];

describeReal('example scenarios on real Salvium at difficulty 500', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-500-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pass, on the suite chain state served at 500 with their wallets funded ahead', async () => {
    const all = readdirSync('scenarios')
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => join('scenarios', f));
    expect(all.length).toBeGreaterThanOrEqual(33);
    const files = all.filter((f) => !NOT_IN_CI.includes(basename(f, '.yaml')));
    expect(files.length).toBe(all.length - NOT_IN_CI.length);
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
    ).toEqual(files.map((f) => [basename(f, '.yaml'), 'passed', undefined]));
    const log = lines.join('\n');
    // The suite's wallets paid once, at difficulty 1, on the tier's chain state (its cache is this run's own, so the
    // state is built here), saved, and restored: no scenario mined for its funds at 500.
    expect(log).toMatch(
      /no snapshot salvium-d1-\S+-ahead-[0-9a-f]{12}: funding the scenarios' wallets at difficulty 1/,
    );
    expect(log).toMatch(/funded \d+ scenario wallets ahead in [\d.]+ s \(11 blocks\)/);
    expect(log).toMatch(/funded \d+ scenario wallets ahead: restored with snapshot salvium-d1-\S+-ahead-/);
    // The tokens held before the steps were made with the wallets (at 1), not by their scenarios at 500: every one of
    // them, in this run, which built that state (the tier's cache is its own).
    const made = /made (\d+) of (\d+) tokens ahead in [\d.]+ s \(\d+ blocks\)/.exec(log);
    expect(made?.[1], log).toBe(made?.[2] ?? 'a line: made N of N tokens ahead');
    // reorg-double-spend (two nodes) started on a state of its own: its wallet paid and its height reached at 1, so its
    // nodes mine its three blocks in light mode, with no dataset to build.
    expect(log).toMatch(/restored snapshot salvium-d1-\S+-ahead-[0-9a-f]{12} \(height 1290\)/);
    expect(log).toMatch(/mining at difficulty 500, RandomX light/);
    // Served at 500: the block template says so.
    const mining = results.find((r) => r.file.endsWith('daemon-mining.yaml'))!;
    expect(JSON.stringify(mining.steps.map((s) => s.response))).toContain('"difficulty":500');
    const each = results.map((r) => `${basename(r.file, '.yaml')} ${(r.ms / 1000).toFixed(1)} s`).join(', ');
    process.stderr.write(
      `real tier: ${results.length} example scenarios at difficulty 500 in ${took.toFixed(1)} s (${each})\n`,
    );
  }, 1_800_000);
});
