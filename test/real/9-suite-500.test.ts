// The example scenarios on the real programs at the default difficulty, 500, as users run them (3-suite runs every one
// at difficulty 1 against the simulator): with 9-suite-500-rest.test.ts, every one. This file runs all but the five
// slowest at 500 after the funding (suite-500.ts, REST), in name order; those run on a testnet of their own in the real
// tier's other worker once its other files are done, beside this one, which keeps one core busy on average, not two
// (docs/difficulty.md). On the suite's chain state (mined at 1, shared with 3-suite) served at 500: the wallets funded
// ahead at 1 and restored, tokens held before the steps made with them, full RandomX with its dataset built in the
// background, checkpoints and reverts that keep the daemon (and its dataset); each scenario of several nodes on a
// testnet of its own, started on its own state funded ahead (reorg-double-spend's at its height of its own), its nodes
// in the RandomX mode its blocks at 500 call for. `npm run bench -- --suite-only` measures the whole suite against
// difficulty 1.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeReal } from './real.js';
import { exampleFiles, expectFundedAhead, nameOf, REST, runAt500 } from './suite-500.js';

describeReal('example scenarios on real Salvium at difficulty 500', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-500-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pass, on the suite chain state served at 500 with their wallets funded ahead', async () => {
    const all = exampleFiles();
    const files = all.filter((f) => !REST.includes(nameOf(f)));
    expect(files.length).toBe(all.length - REST.length);
    const { results, log } = await runAt500(files, join(dir, 'artifacts'), 'example scenarios');
    expectFundedAhead(log);
    // reorg-double-spend (two nodes) started on a state of its own: its wallet paid and its height reached at 1, so its
    // nodes mine its three blocks in light mode, with no dataset to build.
    expect(log).toMatch(/restored snapshot salvium-d1-\S+-ahead-[0-9a-f]{12} \(height 1290\)/);
    expect(log).toMatch(/mining at difficulty 500, RandomX light/);
    // Served at 500: the block template says so.
    const mining = results.find((r) => r.file.endsWith('daemon-mining.yaml'))!;
    expect(JSON.stringify(mining.steps.map((s) => s.response))).toContain('"difficulty":500');
  }, 1_800_000);
});
