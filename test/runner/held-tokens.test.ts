// Tokens held before the steps (harness/runner/held-tokens.ts): `requires.tokens` and `wallets.<name>.tokens` are
// parsed and checked at their line, their cost is funded on top of `unlocked`, and a run makes them before the first
// step: as the scenario starts, or (a shared run above difficulty 1) in the cached state funded ahead, where a later
// run finds them made and mines nothing for them.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aheadKey } from '../../harness/runner/funded-state-cache.js';
import { aheadPayments } from '../../harness/runner/prepaid-wallets.js';
import {
  heldCost,
  ownFunds,
  requiredHeight,
  skipReason,
  tokenPayments,
  walletPayments,
} from '../../harness/scenario/needs.js';
import { blocksMined } from '../../harness/runner/randomx-choice.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { ScenarioError } from '../../harness/scenario/types.js';
import { BACKENDS } from '../../harness/coin/backends.js';
import { runScenarioTexts } from '../helpers/scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const SAL = BACKENDS.salvium!;
const COIN = 100_000_000n;
const COST = SAL.tokenCost! + SAL.feeMargin;

const HELD = `name: held
requires:
  unlocked: { SAL1: 2 SAL1 }
  tokens:
    HLD1: { supply: 50, name: held one }
wallets:
  bob:
    tokens: { HLD2: { supply: 7 } }
  carol: { unlocked: { SAL1: 1 SAL1 } }
steps:
  - mine: 1
`;

function problems(text: string): string[] {
  try {
    parseScenario(text, 'bad.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems.map((p) => `${p.pos.line}:${p.pos.col} ${p.path}: ${p.message}`);
    throw e;
  }
  throw new Error('expected the scenario to be rejected');
}

describe('tokens held before the steps: the file', () => {
  it('parses each wallet’s tokens, name optional', () => {
    const s = parseScenario(HELD, 'x.yaml');
    expect(s.requires.tokens).toEqual([{ ticker: 'HLD1', supply: 50, name: 'held one' }]);
    expect(s.wallets.find((w) => w.name === 'bob')!.tokens).toEqual([{ ticker: 'HLD2', supply: 7 }]);
  });

  it('says what is wrong, at its line: a ticker as written, a supply, a key, a ticker made twice', () => {
    expect(
      problems(`name: bad
requires:
  tokens:
    abcd: { supply: 1 }
    ABCD: { supply: 0, nmae: x }
    EFGH: { name: y }
wallets:
  bob:
    tokens: { ABCD: { supply: 3 } }
steps:
  - create_token: { ticker: efgh, supply: 1 }
`),
    ).toEqual([
      '4:5 requires.tokens.abcd: "abcd" is not a ticker: 4 characters A–Z 0–9 (write ABCD)',
      '5:21 requires.tokens.ABCD.supply: expected a whole number above 0, got the number 0',
      '5:24 requires.tokens.ABCD.nmae: unknown key "nmae" (did you mean "name"?)',
      '6:11 requires.tokens.EFGH: missing "supply" (whole tokens)',
      '9:15 wallets.bob.tokens.ABCD: token ABCD is already made before the steps by requires.tokens.ABCD: a ticker is made once',
      '11:29 steps[0].create_token.ticker: token EFGH is made before the steps (requires.tokens.EFGH): creating it again is refused',
    ]);
  });
});

describe('tokens asked for under unlocked: the file', () => {
  it('takes a token some wallet makes before the steps, and says at its line what cannot be paid', () => {
    expect(
      problems(`name: bad
requires:
  tokens: { ABCD: { supply: 10 } }
wallets:
  bob: { unlocked: { salABCD: 6 SAL1, salWXYZ: 1 SAL1 } }
  carol: { unlocked: { salABCD: 5 SAL1 } }
steps:
  - mine: 1
`),
    ).toEqual([
      '5:39 wallets.bob.unlocked.salWXYZ: salWXYZ is not made before the steps by a wallet of this scenario, so no wallet can pay it: declare WXYZ under requires.tokens or wallets.<name>.tokens (its maker pays it)',
      '6:33 wallets.carol.unlocked.salABCD: the wallets ask for more salABCD than its supply of 10 (requires.tokens.ABCD)',
    ]);
  });
});

describe('tokens held before the steps: what the chain must give', () => {
  const s = parseScenario(HELD, 'x.yaml');

  it('funds each token’s cost and a fee margin on top of unlocked, to the wallet that makes it', () => {
    expect(ownFunds(s, SAL)).toEqual(new Map([['SAL1', 2n * COIN + COST]]));
    expect(walletPayments(s, SAL)).toEqual([
      { wallet: 'main', asset: 'SAL1', amount: 2n * COIN + COST },
      { wallet: 'bob', asset: 'SAL1', amount: COST },
      { wallet: 'carol', asset: 'SAL1', amount: 1n * COIN },
    ]);
    expect([heldCost(s, 'main', SAL), heldCost(s, 'bob', SAL), heldCost(s, 'carol', SAL)]).toEqual([COST, COST, 0n]);
  });

  it('pays a token asked for under unlocked from the wallet that makes it, with a fee margin for each payment', () => {
    const paid = parseScenario(
      HELD.replace('bob:\n', 'bob:\n    unlocked: { salHLD1: 4 SAL1 }\n').replace(
        'carol: { unlocked: { SAL1: 1 SAL1 } }',
        'carol: { unlocked: { SAL1: 1 SAL1, salHLD2: 3 SAL1, salHLD1: 1 SAL1 } }',
      ),
      'p.yaml',
    );
    expect(tokenPayments(paid)).toEqual([
      { from: 'main', to: 'bob', asset: 'salHLD1', amount: 4n * COIN },
      { from: 'bob', to: 'carol', asset: 'salHLD2', amount: 3n * COIN },
      { from: 'main', to: 'carol', asset: 'salHLD1', amount: 1n * COIN },
    ]);
    // main funds only the funding asset; each maker gets a fee margin per payment it makes.
    expect(walletPayments(paid, SAL)).toEqual([
      { wallet: 'main', asset: 'SAL1', amount: 2n * COIN + COST + 2n * SAL.feeMargin },
      { wallet: 'bob', asset: 'SAL1', amount: COST + SAL.feeMargin },
      { wallet: 'carol', asset: 'SAL1', amount: 1n * COIN },
    ]);
    expect(blocksMined(paid, SAL) - blocksMined(s, SAL)).toBe(3 * ((SAL.spendableAge ?? 10) + 2));
  });

  it('needs tokens: the height where they are active, and no backend without them', () => {
    expect(requiredHeight(s, SAL)).toBe(SAL.tokenHeight! + 1);
    expect(skipReason(s, BACKENDS.monero!)).toBe('monero has no tokens');
    // Made as it starts: the creation block and the supply's lock are mined on its testnet.
    const none = parseScenario(
      'name: plain\nrequires: { unlocked: { SAL1: 2 SAL1 } }\nwallets:\n  bob: {}\n  carol: { unlocked: { SAL1: 1 SAL1 } }\nsteps:\n  - mine: 1\n',
      'y.yaml',
    );
    expect(blocksMined(s, SAL) - blocksMined(none, SAL)).toBe(SAL.coinbaseUnlock + 1 + (SAL.spendableAge ?? 10) + 2);
  });

  it('pays them ahead with the wallet that makes them, and names them in the state’s key', () => {
    const pays = aheadPayments([{ s, prefix: 's1' }], SAL);
    expect(pays).toEqual([
      { wallet: 's1-main', asset: 'SAL1', amount: 2n * COIN + COST, tokens: s.requires.tokens },
      { wallet: 's1-bob', asset: 'SAL1', amount: COST, tokens: [{ ticker: 'HLD2', supply: 7 }] },
      { wallet: 's1-carol', asset: 'SAL1', amount: 1n * COIN },
    ]);
    const plain = pays.map(({ tokens: _t, ...p }) => p);
    expect(aheadKey('b', pays, 10)).not.toBe(aheadKey('b', plain, 10));
    // Payments without tokens keep the keys they had: states saved before are found again.
    expect(aheadKey('salvium-d1-h1201-abc', [{ wallet: 's1-main', asset: 'SAL1', amount: 5n * COIN }], 10)).toBe(
      'salvium-d1-h1201-abc-ahead-85251bf3f9ec',
    );
  });
});

const STEPS = `steps:
  - name: the height as it starts
    call: { path: /get_height }
  - get_balance: { asset_type: salHLD1 }
    expect:
      result.balances[0].unlocked_balance: 50 SAL1
  - get_balance: { asset_type: SAL1 }
    expect:
      result.balances[0].unlocked_balance: { gte: 2 SAL1 }
  - wallet: bob
    get_balance: { asset_type: salHLD2 }
    expect:
      result.balances[0].unlocked_balance: 7 SAL1
  - name: spent at once
    transfer_split: { to: "\${bob.address}", amount: 20 SAL1, asset: salHLD1 }
`;

describe('a run of a scenario holding tokens (sim)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-held-tokens-');
  });
  afterAll(() => cleanup(dir));

  const run = async (o: { difficulty: number; isolation: 'shared' | 'fresh' }) => {
    const lines: string[] = [];
    const body = HELD.replace(/^name: held\n/, '').replace(/steps:[\s\S]*/, STEPS);
    const r = (
      await runScenarioTexts(dir, [['held', body]], { cacheDir: join(dir, 'cache'), log: (l) => lines.push(l), ...o })
    ).get('held');
    expect([r!.status, r!.failure?.message]).toEqual(['passed', undefined]);
    return { log: lines.join('\n'), height: (r!.steps[0]!.response as { result: { height: number } }).result.height };
  };

  it('makes them as the scenario starts at difficulty 1, shared or fresh', async () => {
    for (const isolation of ['shared', 'fresh'] as const) {
      const { log, height } = await run({ difficulty: 1, isolation });
      expect(log).not.toMatch(/tokens ahead/);
      // The creation and the supply's 60-block lock were mined on the scenario's testnet.
      expect(height).toBeGreaterThan(SAL.tokenHeight! + SAL.coinbaseUnlock);
    }
  }, 120_000);

  it('above difficulty 1, makes them once in the state funded ahead; a later run mines nothing for them', async () => {
    const first = await run({ difficulty: 500, isolation: 'shared' });
    expect(first.log).toMatch(/made 2 of 2 tokens ahead in [\d.]+ s \(\d+ blocks\)/);
    expect(first.log).toMatch(/saved snapshot sim-d1-\S+-ahead-/);
    const second = await run({ difficulty: 500, isolation: 'shared' });
    expect(second.log).toMatch(/restored with snapshot sim-d1-\S+-ahead-/);
    expect(second.log).not.toMatch(/tokens ahead in/);
    expect(second.height).toBe(first.height);
  }, 120_000);
});

describe('wallets funded in tokens their scenario makes (sim)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-held-paid-');
  });
  afterAll(() => cleanup(dir));
  const body = `requires:
  tokens: { PAY1: { supply: 50 } }
wallets:
  bob:
    unlocked: { salPAY1: 20 SAL1 }
    tokens: { PAY2: { supply: 9 } }
  carol: { unlocked: { salPAY2: 4 SAL1 } }
steps:
  - wallet: bob
    get_balance: { asset_type: salPAY1 }
    expect:
      result.balances[0].unlocked_balance: { gte: 20 SAL1 }
  - wallet: carol
    get_balance: { asset_type: salPAY2 }
    expect:
      result.balances[0].unlocked_balance: { gte: 4 SAL1 }
  - name: bob sends on what main paid it (its SAL1 pays the ROLLUP)
    wallet: bob
    transfer_split: { to: "\${carol.address}", amount: 5 SAL1, asset: salPAY1 }
`;

  it.each(['shared', 'fresh'] as const)(
    '%s: each token is paid by its maker and unlocked at the first step',
    async (isolation) => {
      const r = (await runScenarioTexts(dir, [['paid', body]], { cacheDir: join(dir, 'cache'), isolation })).get(
        'paid',
      );
      expect([r!.status, r!.failure?.message]).toEqual(['passed', undefined]);
    },
    120_000,
  );
});

describe('two scenarios of one run holding one ticker (sim)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-held-clash-');
  });
  afterAll(() => cleanup(dir));
  const body = `requires:\n  tokens: { DUPE: { supply: 5 } }\nsteps:\n  - get_balance: { asset_type: salDUPE }\n    expect:\n      result.balances[0].unlocked_balance: 5 SAL1\n`;

  it.each([1, 500])(
    'at difficulty %i the first holds it, the second ends before its first step saying why',
    async (difficulty) => {
      const lines: string[] = [];
      const byName = await runScenarioTexts(
        dir,
        [
          ['one', body],
          ['two', body],
        ],
        { difficulty, cacheDir: join(dir, `cache-${difficulty}`), log: (l) => lines.push(l) },
      );
      const results = [...byName.values()];
      expect(results.map((r) => [r.name, r.status])).toEqual([
        ['one', 'passed'],
        ['two', 'error'],
      ]);
      expect(results[1]!.failure?.message).toMatch(
        /creating token DUPE for wallet s2-main before the steps: create_token answered -7 "Token already exists\."/,
      );
      const log = lines.join('\n');
      if (difficulty > 1) {
        // Ahead, the clash is said, and no state is saved with one token missing; the first token was still mined.
        expect(log).toMatch(/saltnet: creating token DUPE for wallet s2-main .*; its scenario makes it as it starts/);
        expect(log).toMatch(/made 1 of 2 tokens ahead/);
        expect(log).not.toMatch(/saved snapshot \S+-ahead-/);
      }
    },
    120_000,
  );
});
