// The five example scenarios 9-suite-500 leaves (suite-500.ts, REST: the slowest at 500 after the funding) at the
// default difficulty, in REST's order, on a shared testnet of their own: the last file of the real tier's worker that
// runs its other files (test/real/sequencer.ts), beside 9-suite-500, which keeps one core busy on average. Their
// wallets are funded ahead at 1 on the suite's chain state, in a state of their own, and their daemon builds a dataset
// of its own (two full-mode daemons at once: 2336 huge pages of the 2600 .ci/run reserves).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeReal } from './real.js';
import { exampleFiles, expectFundedAhead, REST, runAt500 } from './suite-500.js';

describeReal('the rest of the example scenarios on real Salvium at difficulty 500', () => {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-real-500-rest-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('pass, on the suite chain state served at 500 with their wallets funded ahead', async () => {
    const all = exampleFiles();
    const files = REST.map((name) => join('scenarios', `${name}.yaml`));
    expect(files.filter((f) => !all.includes(f))).toEqual([]);
    const { log } = await runAt500(files, join(dir, 'artifacts'), 'more example scenarios');
    expectFundedAhead(log);
  }, 1_800_000);
});
