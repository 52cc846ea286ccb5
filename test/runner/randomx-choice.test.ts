// Which RandomX mode a testnet of one scenario runs under `--randomx auto` when the daemon mines
// (harness/runner/randomx-choice.ts): light when the scenario mines fewer blocks than the daemon's full-mode dataset
// pays for, as most example scenarios of several nodes do. saltnet's own miner picks by cost for each job instead:
// the run leaves its choice alone.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/scenario/parse.js';
import { blocksMined, FULL_MODE_BLOCKS, scenarioRandomx, sharedRandomx } from '../../harness/runner/randomx-choice.js';
import { BACKENDS } from '../../harness/coin/backends.js';

const salvium = BACKENDS.salvium!;
/** The daemon's own miner mines (`--miner daemon`, or where librandomx is missing). */
const DAEMON = { miner: 'daemon' } as const;
const scenario = (steps: string, head = ''): ReturnType<typeof parseScenario> =>
  parseScenario(`name: x\n${head}steps:\n${steps}`, 'x.yaml');
const example = (name: string): ReturnType<typeof parseScenario> =>
  parseScenario(readFileSync(new URL(`../../scenarios/${name}.yaml`, import.meta.url), 'utf8'), `${name}.yaml`);

describe('the blocks a scenario mines', () => {
  it('counts mine steps, heights from the required one, and each funded wallet’s unlock', () => {
    const s = scenario(
      '  - mine: 2\n  - mine: { blocks: 3 }\n  - mine: { to: 1250 }\n  - mine: { to: 1200 }\n',
      'requires: { height: 1201 }\nwallets:\n  bob: { unlocked: { SAL1: 1 SAL1 } }\n  carol: {}\n',
    );
    // 2 + 3 + (1250 − 1206) + 0, and bob's funding: confirmed, then 10 blocks to spend it.
    expect(blocksMined(s, salvium)).toBe(2 + 3 + 44 + 12);
  });

  it('a step that mines by itself counts as many', () => {
    expect(blocksMined(scenario('  - automine: on\n'), salvium)).toBe(Infinity);
  });
});

describe('the mode under --randomx auto', () => {
  it('light for the example scenarios of several nodes that mine a few blocks; full (auto) for the one that mines to 1290', () => {
    for (const name of ['relay-after-heal', 'reorg-payment', 'reorg-token']) {
      expect(blocksMined(example(name), salvium), name).toBeLessThan(FULL_MODE_BLOCKS);
      expect(scenarioRandomx(example(name), salvium, DAEMON), name).toBe('light');
    }
    expect(scenarioRandomx(example('reorg-double-spend'), salvium, DAEMON)).toBeUndefined();
  });

  it('what the run asked for otherwise: a mode given, a difficulty below full mode’s, a backend without RandomX', () => {
    const few = scenario('  - mine: 1\n');
    expect(scenarioRandomx(few, salvium, { ...DAEMON, randomx: 'full' })).toBe('full');
    expect(scenarioRandomx(few, salvium, { ...DAEMON, randomx: 'auto' })).toBe('light');
    expect(scenarioRandomx(few, salvium, { ...DAEMON, difficulty: 1 })).toBeUndefined();
    expect(scenarioRandomx(few, BACKENDS.sim!, {})).toBeUndefined();
  });
});

describe('the mode of a shared run’s testnet under --randomx auto', () => {
  it('light for a run whose scenarios, their wallets and tokens paid ahead, mine fewer blocks in all than full pays for', () => {
    // daemon-pool mines one block (bob and carol are paid ahead); balances mines none; token-receiver holds its token.
    expect(sharedRandomx([example('daemon-pool')], salvium, DAEMON)).toBe('light');
    expect(sharedRandomx([example('daemon-pool'), example('balances')], salvium, DAEMON)).toBe('light');
    expect(sharedRandomx([example('token-receiver')], salvium, DAEMON)).toBeUndefined();
    // Eleven scenarios of one block each add up to what pays for the dataset.
    const one = scenario('  - mine: 1\n');
    expect(sharedRandomx(Array(FULL_MODE_BLOCKS - 1).fill(one), salvium, DAEMON)).toBe('light');
    expect(sharedRandomx(Array(FULL_MODE_BLOCKS).fill(one), salvium, DAEMON)).toBeUndefined();
  });

  it('a wallet paid ahead counts no block, one funded in the scenario would', () => {
    const s = scenario('  - mine: 1\n', 'wallets:\n  bob: { unlocked: { SAL1: 1 SAL1 } }\n');
    expect(blocksMined(s, salvium)).toBe(13);
    expect(sharedRandomx([s], salvium, DAEMON)).toBe('light');
  });

  it('what the run asked for otherwise', () => {
    const few = [scenario('  - mine: 1\n')];
    expect(sharedRandomx(few, salvium, { ...DAEMON, randomx: 'full' })).toBe('full');
    expect(sharedRandomx(few, salvium, { ...DAEMON, difficulty: 1 })).toBeUndefined();
    expect(sharedRandomx(few, BACKENDS.sim!, {})).toBeUndefined();
  });
});

describe("with saltnet's own miner", () => {
  it('the run leaves the mode to each mining job (its cost model): nothing is forced light', () => {
    const few = scenario('  - mine: 1\n');
    expect(scenarioRandomx(few, salvium, { miner: 'saltnet' })).toBeUndefined();
    expect(sharedRandomx([few], salvium, { miner: 'saltnet' })).toBeUndefined();
    expect(scenarioRandomx(few, salvium, { miner: 'saltnet', randomx: 'light' })).toBe('light');
  });
});
