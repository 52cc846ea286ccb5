// The bounds a scenario file from a stranger is held to (harness/scenario/limits.ts): each hostile
// value is refused when the file is read, with its line, field, the limit and why; a huge broken file
// costs about as much as a small one; problems are reported 20 at a time.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../harness/coin/backends.js';
import { fundingBlocks, planMining } from '../../harness/testnet/mining/funding.js';
import {
  MAX_BLOCKS_PER_STEP,
  MAX_FUNDING_BLOCKS,
  MAX_HEIGHT,
  MAX_SCENARIO_BYTES,
} from '../../harness/scenario/bounds.js';
import { maxFundable } from '../../harness/scenario/fund-limits.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { fundingBucket } from '../../harness/scenario/needs.js';
import { ScenarioError } from '../../harness/scenario/types.js';

const COIN = 100_000_000n;

/** The ScenarioError message for `text` (the test fails if the file is accepted). */
function refusal(text: string): string {
  try {
    parseScenario(text, 'hostile.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  throw new Error('expected the scenario to be refused');
}

const step = (s: string) => `name: x\nsteps:\n  - ${s}\n`;
const WAIT = 'wait: { get_balance: {}, until: { result.balance: { gt: 0 } }';

describe('numbers that drive mining and waiting', () => {
  it.each([
    [
      'mine: 100000',
      step('mine: 100000'),
      'hostile.yaml:3:11: steps[0].mine: must be at most 10000, got 100000 (one step mines at most 10000 blocks, so that it cannot mine for hours)',
    ],
    [
      'mine: {blocks: 20000}',
      step('mine: { blocks: 20000 }'),
      'hostile.yaml:3:21: steps[0].mine.blocks: must be at most 10000, got 20000 (one step mines at most 10000 blocks',
    ],
    [
      'mine: {to: 100001}',
      step('mine: { to: 100001 }'),
      'hostile.yaml:3:17: steps[0].mine.to: must be at most 100000, got 100001 (heights go up to 100000, so that a scenario cannot mine for hours; every Salvium fork is active by height 1400)',
    ],
    [
      'requires.height: 2^53 - 1',
      'name: x\nrequires:\n  height: 9007199254740991\nsteps:\n  - mine: 1\n',
      'hostile.yaml:3:11: requires.height: must be at most 100000, got 9007199254740991 (heights go up to 100000',
    ],
    [
      'requires.height beyond a number',
      'name: x\nrequires:\n  height: 99999999999999999999\nsteps:\n  - mine: 1\n',
      'hostile.yaml:3:11: requires.height: 99999999999999999999 is far too large (heights go up to 100000',
    ],
    [
      'wait seconds 1e308',
      step(`${WAIT}, seconds: 1e308 }`),
      'hostile.yaml:3:77: steps[0].wait.seconds: must be at most 3600, got 1e+308 (a wait lasts at most 3600 seconds (an hour))',
    ],
    [
      'wait blocks 20000',
      step(`${WAIT}, blocks: 20000, mine: true }`),
      'hostile.yaml:3:76: steps[0].wait.blocks: must be at most 10000, got 20000',
    ],
  ])('%s is refused', (_what, text, message) => {
    expect(refusal(text)).toContain(message);
  });

  it('refuses steps that mine more than 100000 blocks in all (a mining wait without blocks counts 10000)', () => {
    const text = `name: x\nsteps:\n${'  - mine: 10000\n'.repeat(10)}  - ${WAIT}, seconds: 10, mine: true }\n`;
    expect(refusal(text)).toContain(
      'hostile.yaml:13:11: steps[10].wait: the steps up to this one mine up to 110000 blocks; a scenario mines at most 100000 in all (a wait with mine: true and no blocks counts 10000)',
    );
    expect(() => parseScenario(`name: x\nsteps:\n${'  - mine: 10000\n'.repeat(10)}`, 'ok.yaml')).not.toThrow();
  });

  it('accepts the limits themselves', () => {
    expect(() =>
      parseScenario(
        `name: x\nrequires: { height: ${MAX_HEIGHT} }\nsteps:\n  - mine: ${MAX_BLOCKS_PER_STEP}\n  - mine: { to: ${MAX_HEIGHT} }\n  - ${WAIT}, seconds: 3600, blocks: 10000 }\n`,
        'ok.yaml',
      ),
    ).not.toThrow();
  });
});

describe('funds', () => {
  it('refuses an amount above the whole supply (it used to mine for ever, "258 %")', () => {
    expect(refusal('name: x\nrequires:\n  unlocked: { SAL1: 200000000 SAL1 }\nsteps:\n  - mine: 1\n')).toContain(
      'hostile.yaml:3:21: requires.unlocked.SAL1: 200000000 SAL1 is more than the chain can ever mint: the whole supply is 184400000 SAL1',
    );
    expect(
      refusal('name: x\nwallets:\n  bob: { unlocked: { salABCD: 18440000000000001 } }\nsteps:\n  - mine: 1\n'),
    ).toContain(
      'wallets.bob.unlocked.salABCD: 18440000000000001 atomic units of salABCD is more than the chain can ever mint',
    );
  });

  it('refuses more of the fund asset than 2000 blocks of mining pay, also in all, with the file, line, field and limit', () => {
    expect(refusal('name: x\nrequires:\n  unlocked: { SAL1: 200000 SAL1 }\nsteps:\n  - mine: 1\n')).toContain(
      "hostile.yaml:3:21: requires.unlocked.SAL1: funding 200000 SAL1 costs 2224 blocks of mining (90 SAL1 a block); a scenario's funding is at most 2000 blocks, so at most 179910 SAL1 in all (expected at most 179910 SAL1 in all)",
    );
    expect(
      refusal(
        'name: x\nrequires:\n  unlocked: { SAL1: 100000 SAL1 }\nwallets:\n  bob: { unlocked: { SAL1: 100000 SAL1 } }\nsteps:\n  - mine: 1\n',
      ),
    ).toContain(
      'hostile.yaml:5:28: wallets.bob.unlocked.SAL1: funding 200000 SAL1 in all (requires and wallets together) costs 2224 blocks',
    );
    expect(refusal('name: x\nrequires:\n  unlocked: { XMR: 20000 XMR }\nsteps:\n  - mine: 1\n')).toContain(
      'so at most 19990 XMR in all',
    );
    expect(() =>
      parseScenario('name: x\nrequires:\n  unlocked: { SAL1: 179910 SAL1 }\nsteps:\n  - mine: 1\n', 'ok.yaml'),
    ).not.toThrow();
  });

  it("counts each held token's 1001 SAL1: 900 tokens are refused at the token that passes the limit", () => {
    const tickers = Array.from({ length: 900 }, (_, i) => `T${String(i).padStart(3, '0')}`);
    const tokens = tickers.map((t) => `    ${t}: { supply: 1 }\n`).join('');
    const message = refusal(`name: x\nrequires:\n  tokens:\n${tokens}steps:\n  - mine: 1\n`);
    // 179 tokens cost 179179 SAL1; the 180th makes 180180 SAL1, 2003 blocks.
    expect(message).toContain(
      "hostile.yaml:183:11: requires.tokens.T179: funding 180180 SAL1 in all (requires and wallets together, 1001 SAL1 for each held token) costs 2003 blocks of mining (90 SAL1 a block); a scenario's funding is at most 2000 blocks, so at most 179910 SAL1 in all",
    );
    expect(() =>
      parseScenario(
        `name: x\nrequires:\n  unlocked: { SAL1: 100 SAL1 }\n  tokens:\n${tokens.split('\n').slice(0, 179).join('\n')}\nsteps:\n  - mine: 1\n`,
        'ok.yaml',
      ),
    ).not.toThrow();
  });

  it("the bound is the funding plan's: the largest amount costs 2000 blocks, one more unit costs more", () => {
    const spec = BACKENDS.salvium;
    const max = maxFundable(spec);
    expect(max).toBe(179_910n * COIN);
    expect(fundingBlocks(max, spec.typicalReward)).toBe(MAX_FUNDING_BLOCKS);
    expect(fundingBlocks(max + 1n, spec.typicalReward)).toBe(MAX_FUNDING_BLOCKS + 1);
    const plan = planMining({
      height: 0,
      target: MAX_HEIGHT,
      need: max,
      fundFromHeight: spec.fundFromHeight,
      typicalReward: spec.typicalReward,
      coinbaseUnlock: spec.coinbaseUnlock,
      minFundBlocks: spec.minFundBlocks,
    });
    expect(plan.fundBlocks).toBe(MAX_FUNDING_BLOCKS);
    // Those blocks fit below the height limit.
    expect(plan.fundedTo + spec.coinbaseUnlock + 2).toBeLessThanOrEqual(MAX_HEIGHT);
  });

  it('rounding funds up to a bucket never goes past that bound', () => {
    const spec = BACKENDS.salvium;
    expect(fundingBucket(1000n * COIN, spec)).toBe(1100n * COIN);
    // 1100 SAL1 × 2^8 = 281600 SAL1 would be past the bound
    expect(fundingBucket(150_000n * COIN, spec)).toBe(maxFundable(spec));
  });
});

describe('size', () => {
  it('refuses more than 1000 steps or 20 wallets, and nothing else is checked then', () => {
    expect(refusal(`name: x\nsteps:\n${'  - mine: 1\n'.repeat(1001)}`)).toBe(
      'hostile.yaml:3:3: steps: the scenario has 1001 steps; at most 1000 (split it into several files) (expected at most 1000 steps)',
    );
    const wallets = Array.from({ length: 21 }, (_, i) => `  w${i}: {}\n`).join('');
    expect(refusal(`name: x\nwallets:\n${wallets}steps:\n  - frob: 1\n`)).toBe(
      'hostile.yaml:3:3: wallets: the scenario declares 21 wallets; at most 20 (each one is a wallet RPC process of its own) (expected at most 20 wallets)',
    );
  });

  it('refuses text over 256 KiB before parsing it', () => {
    const text = `name: x\nsteps:\n${'  - mine: 1\n'.repeat(30000)}`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(MAX_SCENARIO_BYTES);
    expect(refusal(text)).toBe(
      'hostile.yaml:1:1: (file): the scenario is 360015 bytes; a scenario file is at most 256 KiB (262144 bytes), so that reading one stays quick (expected a scenario file of at most 256 KiB)',
    );
  });

  it('prints the first 20 problems and counts the rest', () => {
    const lines = refusal(
      `name: x\nsteps:\n${Array.from({ length: 30 }, (_, i) => `  - frob${i}: 1\n`).join('')}`,
    ).split('\n');
    expect(lines).toHaveLength(21);
    expect(lines[0]).toMatch(/^hostile\.yaml:3:5: steps\[0\]\.frob0: unknown key "frob0"/);
    expect(lines[20]).toBe('… and 40 more problems');
  });

  it('a file just under the size limit with 20000 unknown keys in one mapping is judged in seconds, 200 problems at most', () => {
    let text = 'name: x\nsteps:\n  - {';
    for (let i = 0; text.length < MAX_SCENARIO_BYTES - 100; i++) text += `k${i.toString(36)}: 1, `;
    text += 'mine: 1}\n';
    const t0 = Date.now();
    let err: ScenarioError | undefined;
    try {
      parseScenario(text, 'hostile.yaml');
    } catch (e) {
      err = e as ScenarioError;
    }
    // The YAML parser's own duplicate-key check alone took 20 s on this file.
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(err?.problems).toHaveLength(200);
    expect(err?.truncated).toBe(true);
    expect(err?.message.split('\n').at(-1)).toBe(
      '… and 180 more problems; the check stopped there, so there may be others',
    );
  });

  it('still reports duplicate keys, at the second one', () => {
    expect(refusal('name: x\nsteps:\n  - { mine: 1, name: a, name: b }\n')).toContain(
      'hostile.yaml:3:25: (yaml): YAML: Map keys must be unique',
    );
  });

  it('a document nested too deeply is a scenario problem, not a crash', () => {
    expect(refusal(`name: x\nsteps:\n${'  - { mine: 1 \n'.repeat(15000)}`)).toMatch(
      /^hostile\.yaml:\d+:\d+: \(yaml\): YAML: nested too deeply/,
    );
  });
});
