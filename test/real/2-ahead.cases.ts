// The states the example suite at 500 (9-suite-500, after the sim tier) restores, built here, beside the sim tier,
// with `saltnet cache build --for 'scenarios/*.yaml' --difficulty 500`, as a CI job builds its cache once: the
// scenarios' wallets funded ahead at difficulty 1 (with the testnet's lookahead, their tokens made, the chain mined to
// token-hard-forks' 1401), and each scenario of several nodes' own state. It starts once 1-up has built the default
// chain state they are built on (beside.test.ts runs this file after it) and runs while 3-suite compares the suite at
// 1 with the simulator; 4-ahead waits for it and checks what it built. So the suite at 500 no longer builds them first,
// alone on the real tier's longest path (docs/difficulty.md: real tier).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { expect, it } from 'vitest';
import { listSnapshots } from '../../harness/snapshot/index.js';
import { CLI } from '../cli/helpers.js';
import { BIN_DIR, CACHE_DIR, describeReal } from './real.js';

let build: ResultPromise<{ all: true; reject: false }> | undefined;
let state = '';

/** The build this file started (4-ahead.cases.ts awaits it, then removes its state folder). */
export function aheadBuild(): { build: typeof build; state: string } {
  return { build, state };
}

describeReal('the states the suite at 500 restores', () => {
  // Not awaited here: 4-ahead does, after 3-suite. Should the run end first, execa stops it with the worker (cleanup).
  it('start building beside the sim tier, on the default chain state 1-up built', () => {
    // The default chain state is in the tier's cache: the states funded ahead are built on it, not on one of their own.
    expect(listSnapshots(CACHE_DIR).map((s) => s.key)).toContainEqual(expect.stringMatching(/^salvium-d1-h\d+-/));
    state = mkdtempSync(join(tmpdir(), 'saltnet-real-ahead-'));
    build = execa(
      process.execPath,
      [
        CLI,
        'cache',
        'build',
        '--for',
        'scenarios/*.yaml',
        '--backend',
        'salvium',
        '--bin-dir',
        BIN_DIR,
        '--cache-dir',
        CACHE_DIR,
        '--difficulty',
        '500',
      ],
      // A state folder of its own: no `saltnet down` of another file's finds its testnets.
      {
        all: true,
        reject: false,
        env: { ...process.env, SALTNET_STATE_DIR: state, NO_COLOR: '1' },
        timeout: 1_500_000,
      },
    );
  });
});
