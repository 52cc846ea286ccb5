// The example scenarios on the real programs at the default difficulty, 500, as users run them (3-suite runs every one
// at difficulty 1 against the simulator): all 33, on the suite's chain state (mined at 1, shared with 3-suite) served
// at 500. The wallets funded ahead at 1, with the testnet's subaddress lookahead (2:20), and restored; tokens held
// before the steps made ahead with them; the chain mined ahead to the highest `mine: {to: N}` of the suite
// (token-hard-forks' 1401) at 1 as well; blocks at 500 hashed by saltnet's own RandomX miner with the dataset cached in
// the tier's cache folder; each scenario of several nodes on a testnet of its own, started on its own state funded
// ahead (reorg-double-spend's at its height of its own). Those states are built beside the sim tier, at 1, by `saltnet
// cache build --for` (2-ahead), and restored here; run alone, this file builds them first. It runs beside the real
// tier's other files (the real project's two workers, vitest.config.ts): the five that mine most at 500 last, once
// those are done, so that their blocks have both cores (token-hard-forks, token-receiver, multi-asset, transfer-lookup,
// reorg-payment). Layouts measured against CI's 45 minutes: docs/difficulty.md. `npm run bench -- --suite-only`
// measures the whole suite against difficulty 1.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { suiteChain } from '../../harness/scenario/needs.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { BACKENDS } from '../../harness/coin/backends.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

/** The five that mine most at 500: run last (see the header). */
const LAST = ['multi-asset', 'reorg-payment', 'transfer-lookup', 'token-receiver', 'token-hard-forks'];

describeReal('example scenarios on real Salvium at difficulty 500', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-500-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pass, on the suite chain state served at 500 with their wallets funded ahead', async () => {
    const all = readdirSync('scenarios')
      .filter((f) => f.endsWith('.yaml'))
      .sort()
      .map((f) => join('scenarios', f));
    expect(all.length).toBeGreaterThanOrEqual(33);
    const last = (f: string): number => LAST.indexOf(basename(f, '.yaml'));
    const files = [
      ...all.filter((f) => last(f) < 0),
      ...all.filter((f) => last(f) >= 0).sort((a, b) => last(a) - last(b)),
    ];
    expect(files.slice(-LAST.length).map((f) => basename(f, '.yaml'))).toEqual(LAST);
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
      // The suite's chain (the default one): built by 1-up beside the sim tier before this file runs (alone, here). Its
      // plan is the suite's in name order, as `saltnet cache build --for 'scenarios/*.yaml'` (2-ahead) made it, though
      // the five run last: the same wallet names, the same state funded ahead.
      chain: { ...(await suiteChain(all, BACKENDS.salvium!)), files: all },
      artifactsRoot: join(dir, 'artifacts'),
      log: (l) => lines.push(l),
      detail: (l) => lines.push(l),
    });
    const took = (Date.now() - t0) / 1000;
    expect(
      results.map((r) => [basename(r.file, '.yaml'), r.status, r.failure?.message]),
      lines.join('\n'),
    ).toEqual(files.map((f) => [basename(f, '.yaml'), 'passed', undefined]));
    const log = lines.join('\n');
    // The suite's wallets paid once, at difficulty 1, on the tier's chain state, saved, and restored: no scenario mined
    // for its funds at 500. The tier's run built that state beside the sim tier (2-ahead, 4-ahead check what it
    // holds); this file alone builds it first.
    expect(log).toMatch(/funded \d+ scenario wallets? ahead: restored with snapshot salvium-d1-\S+-ahead-/);
    const builtHere = /no snapshot salvium-d1-\S+-ahead-/.test(log);
    // ... and the chain brought to token-hard-forks' 1401 ahead, after its tokens: its first token is made at HF11.
    const forks = results.find((r) => r.file.endsWith('token-hard-forks.yaml'))!;
    expect(JSON.stringify(forks.steps[0]!.response)).toMatch(/"version":13\b/);
    // reorg-double-spend (two nodes) started on a state of its own: its wallet paid and its height reached at 1; its
    // nodes' blocks are hashed by saltnet's own miner, the daemons verifying in light mode.
    expect(log).toMatch(/restored snapshot salvium-d1-\S+-ahead-[0-9a-f]{12} \(height 1290\)/);
    expect(log).toMatch(/mining at difficulty 500 with saltnet's own RandomX miner/);
    // Served at 500: the block template says so.
    const mining = results.find((r) => r.file.endsWith('daemon-mining.yaml'))!;
    expect(JSON.stringify(mining.steps.map((s) => s.response))).toContain('"difficulty":500');
    const each = results.map((r) => `${basename(r.file, '.yaml')} ${(r.ms / 1000).toFixed(1)} s`).join(', ');
    process.stderr.write(
      `real tier: ${results.length} example scenarios at difficulty 500 in ${took.toFixed(1)} s, their states funded ahead ${builtHere ? 'built first, here' : 'restored'} (${each})\n`,
    );
  }, 1_800_000);
});
