// What 2-ahead started, beside 3-suite, waited for: `saltnet cache build --for 'scenarios/*.yaml' --difficulty 500`
// built the state with the suite's wallets funded ahead at difficulty 1 (11 blocks), every token they hold before
// their steps made with them, the chain mined to token-hard-forks' 1401, and each scenario of several nodes' own
// state; 9-suite-500 restores them all.
import { rmSync } from 'node:fs';
import { expect, it } from 'vitest';
import { listSnapshots } from '../../harness/snapshot/index.js';
import { aheadBuild } from './2-ahead.cases.js';
import { CACHE_DIR, describeReal } from './real.js';

describeReal('the states the suite at 500 restores, built beside', () => {
  it('are built: the wallets paid, the tokens made and the height reached at difficulty 1, and saved', async () => {
    const { build, state } = aheadBuild();
    expect(build, '2-ahead started the build').toBeDefined();
    const r = await build!;
    rmSync(state, { recursive: true, force: true });
    // Its own time: it ran beside 3-suite.
    process.stderr.write(
      `real tier: the states the suite at 500 restores built in ${(r.durationMs / 1000).toFixed(1)} s beside 3-suite\n`,
    );
    const out = r.all;
    expect(r.exitCode, out).toBe(0);
    expect(out).toMatch(
      /no snapshot salvium-d1-\S+-ahead-[0-9a-f]{12}: funding the scenarios' wallets at difficulty 1/,
    );
    expect(out).toMatch(/funded \d+ scenario wallets? ahead in [\d.]+ s \(11 blocks\)/);
    // Every token held before the steps made with the wallets (at 1), not by their scenarios at 500.
    const made = /made (\d+) of (\d+) tokens ahead in [\d.]+ s \(\d+ blocks\)/.exec(out);
    expect(made?.[1], out).toBe(made?.[2] ?? 'a line: made N of N tokens ahead');
    // ... and the chain brought to token-hard-forks' 1401 after them: its first token is still made at HF11.
    expect(out).toMatch(/mined to height 1401 ahead in [\d.]+ s/);
    expect(out).toMatch(
      /salvium-d1-\S+-ahead-[0-9a-f]{12} holds their \d+ scenario wallets funded ahead .*difficulty 500/,
    );
    // The scenarios of several nodes got states of their own: reorg-double-spend's at its height, 1290.
    expect(out).toMatch(/holds the testnet of "[^"]+" funded ahead/);
    const ahead = listSnapshots(CACHE_DIR).filter((s) => s.key.includes('-ahead-'));
    expect(ahead.map((s) => s.height)).toContain(1290);
  }, 1_500_000);
});
