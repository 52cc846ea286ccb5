// Funding ahead (harness/runner/prepaid-wallets.ts): a shared testnet pays the wallets of every scenario it may run
// when it is up, so that no scenario mines for its funds as it starts; the payments are the ones each scenario would
// have got itself, and what cannot be paid ahead is paid as before.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aheadKey } from '../../harness/runner/funded-state-cache.js';
import { aheadPayments, fundAhead, fundsAhead } from '../../harness/runner/prepaid-wallets.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { BACKENDS } from '../../harness/coin/backends.js';
import type { Testnet } from '../../harness/testnet/types.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const SAL = BACKENDS.salvium!;
const COIN = 100_000_000n;
const scenario = (yaml: string) => parseScenario(yaml, 'x.yaml');

describe('fundsAhead', () => {
  it('only where blocks cost: above difficulty 1', () => {
    expect(fundsAhead(1)).toBe(false);
    expect(fundsAhead(2)).toBe(true);
    expect(fundsAhead(500)).toBe(true);
  });
});

describe('aheadKey', () => {
  const pays = [{ wallet: 's1-main', asset: 'SAL1', amount: 5n * COIN }];
  it('names the payments made on a state: other payments, another state', () => {
    const k = aheadKey('salvium-d1-h1201-abc', pays, 10);
    expect(k).toMatch(/^salvium-d1-h1201-abc-ahead-[0-9a-f]{12}$/);
    expect(aheadKey('salvium-d1-h1201-abc', pays, 10)).toBe(k);
    expect(aheadKey('salvium-d1-h1201-abc', [{ ...pays[0]!, amount: 6n * COIN }], 10)).not.toBe(k);
    expect(aheadKey('salvium-d1-h1201-abc', [{ ...pays[0]!, wallet: 's2-main' }], 10)).not.toBe(k);
    expect(aheadKey('salvium-d1-h1201-abd', pays, 10)).not.toBe(k);
    expect(aheadKey('salvium-d1-h1201-abc', pays, 60)).not.toBe(k);
  });
});

describe('aheadPayments', () => {
  it('pays each funded wallet once, named as its scenario names it, and leaves out what it cannot pay ahead', () => {
    const a = scenario(
      'name: a\nrequires: { height: 30, unlocked: { SAL1: 5 SAL1 } }\nwallets:\n  bob: { unlocked: { SAL1: 2 SAL1 } }\n  carol: {}\nsteps:\n  - mine: 1\n',
    );
    const tokens = scenario(
      'name: t\nrequires: { height: 1300 }\nsteps:\n  - create_token: { ticker: ABCD, supply: 1 }\n',
    );
    const twoNodes = scenario(
      'name: n\nnodes: 2\nrequires: { height: 30, unlocked: { SAL1: 5 SAL1 } }\nsteps:\n  - mine: 1\n',
    );
    const none = scenario('name: z\nrequires: { height: 30 }\nsteps:\n  - mine: 1\n');
    const pays = aheadPayments(
      [
        { s: a, prefix: 'w1s1' },
        { s: tokens, prefix: 'w1s2' },
        { s: twoNodes, prefix: 'w1s3' },
        { s: none, prefix: 'w1s4' },
      ],
      SAL,
    );
    expect(pays).toEqual([
      { wallet: 'w1s1-main', asset: 'SAL1', amount: 5n * COIN },
      { wallet: 'w1s1-bob', asset: 'SAL1', amount: 2n * COIN },
      // A scenario that creates a token gets the token's cost and a fee margin, as it would as it starts.
      { wallet: 'w1s2-main', asset: 'SAL1', amount: SAL.tokenCost! + SAL.feeMargin },
    ]);
  });
});

const STEPS = `steps:
  - name: the height as it starts
    call: { path: /get_height }
  - name: main holds its funds, unlocked, as the funding gave them
    call: { method: get_balance, params: { asset_type: SAL1 } }
    expect:
      result.balances[0].unlocked_balance: 500000004
      result.balances[0].balance: 500000004
  - name: bob too
    wallet: bob
    call: { method: get_balance, params: { asset_type: SAL1 } }
    expect:
      result.balances[0].unlocked_balance: 200000004
`;

describe('a shared run funded ahead (sim)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-fund-ahead-');
  });
  afterAll(() => cleanup(dir));

  it('starts every scenario at the height the one before left, its wallets funded as before', async () => {
    const files = ['one', 'two', 'three'].map((n) => {
      const f = join(dir, `${n}.yaml`);
      writeFileSync(
        f,
        `name: ${n}\nrequires: { height: 30, unlocked: { SAL1: 5 SAL1 } }\nwallets:\n  bob: { unlocked: { SAL1: 2 SAL1 } }\n${STEPS}`,
      );
      return f;
    });
    const run = async (workers: number) => {
      const lines: string[] = [];
      const results = await runFiles(files, {
        backend: 'sim',
        isolation: 'shared',
        workers,
        bail: false,
        cacheDir: join(dir, 'cache'),
        difficulty: 500,
        artifactsRoot: join(dir, `artifacts-${workers}`),
        log: (l) => lines.push(l),
      });
      expect(results.map((r) => [r.name, r.status, r.failure?.message])).toEqual([
        ['one', 'passed', undefined],
        ['two', 'passed', undefined],
        ['three', 'passed', undefined],
      ]);
      return {
        log: lines.join('\n'),
        heights: results.map((r) => (r.steps[0]!.response as { height: number }).height),
      };
    };
    // A miss: the payments are made at difficulty 1 and saved as a state of their own.
    const first = await run(1);
    expect(first.log).toMatch(
      /no snapshot sim-d1-\S+-ahead-[0-9a-f]{12}: funding the scenarios' wallets at difficulty 1/,
    );
    expect(first.log).toMatch(/funded 6 scenario wallets ahead in [\d.]+ s \(11 blocks\)/);
    expect(first.log).toMatch(/saved snapshot sim-d1-\S+-ahead-/);
    // No scenario mined for its funds: each starts where the one before it ended.
    expect(new Set(first.heights).size).toBe(1);
    // Later runs (here with two workers: the same state serves both) restore it and mine nothing for the funds.
    const second = await run(2);
    expect(second.log).toMatch(/funded 6 scenario wallets ahead: restored with snapshot sim-d1-\S+-ahead-/);
    expect(second.log).not.toMatch(/\(11 blocks\)/);
    expect(second.heights).toEqual(first.heights);
  }, 120_000);
});

/** A testnet that records what fundAhead asks of it; `transfers` says how each transfer ends, in order. */
function fakeTestnet(transfers: ('ok' | 'fail')[]) {
  const did: string[] = [];
  let height = 1300;
  let pool = 0;
  const t = {
    backend: { spec: SAL },
    daemon: {
      client: {
        height: async () => height,
        getInfo: async () => ({ status: 'OK', height, tx_pool_size: pool }),
      },
    },
    createWallets: async (names: string[]) => {
      did.push(`create ${names.join(' ')}`);
      return new Map(names.map((n) => [n, { cn: `cn-${n}`, carrot: `carrot-${n}` }]));
    },
    wallets: () =>
      new Map([
        [
          'main',
          {
            client: {
              refresh: async () => undefined,
              call: async (_m: string, p: { destinations: { address: string }[] }) => {
                const end = transfers.shift() ?? 'ok';
                did.push(`pay ${p.destinations[0]!.address} ${end}`);
                if (end === 'fail') throw new Error('not enough unlocked money');
                pool++;
              },
            },
          },
        ],
      ]),
    mine: async (n: number) => {
      did.push(`mine ${n}`);
      height += n;
      pool = 0;
      return height;
    },
  };
  return { t: t as unknown as Testnet, did };
}

describe('fundAhead', () => {
  const pays = [
    { wallet: 'w1s1-main', asset: 'SAL1', amount: 5n * COIN },
    { wallet: 'w1s2-main', asset: 'SAL1', amount: 5n * COIN },
    { wallet: 'w1s3-main', asset: 'SAL1', amount: 5n * COIN },
  ];

  it('pays every wallet, then mines until the payments are in a block and spendable', async () => {
    const { t, did } = fakeTestnet([]);
    const lines: string[] = [];
    expect([...(await fundAhead(t, pays, (l) => lines.push(l)))]).toEqual(['w1s1-main', 'w1s2-main', 'w1s3-main']);
    expect(did).toEqual([
      'create w1s1-main w1s2-main w1s3-main',
      'pay carrot-w1s1-main ok',
      'pay carrot-w1s2-main ok',
      'pay carrot-w1s3-main ok',
      'mine 11',
    ]);
    expect(lines).toEqual([
      expect.stringMatching(/^saltnet: funded 3 scenario wallets ahead in [\d.]+ s \(11 blocks\)$/),
    ]);
  });

  it('settles what it paid when the payer has nothing unlocked left, and tries once more', async () => {
    const { t, did } = fakeTestnet(['ok', 'fail', 'ok', 'ok']);
    expect((await fundAhead(t, pays, () => undefined)).size).toBe(3);
    expect(did.slice(1)).toEqual([
      'pay carrot-w1s1-main ok',
      'pay carrot-w1s2-main fail',
      'mine 11',
      'pay carrot-w1s2-main ok',
      'pay carrot-w1s3-main ok',
      'mine 11',
    ]);
  });

  it('pays a large funding in several transfers; one that finds nothing unlocked goes again after a settle, alone', async () => {
    // 10000 SAL1: three transfers (at most 48 rewards of 90 SAL1 each); the second finds the payer's change locked.
    const { t, did } = fakeTestnet(['ok', 'fail', 'ok', 'ok']);
    expect([
      ...(await fundAhead(t, [{ wallet: 'w1s1-bob', asset: 'SAL1', amount: 10_000n * COIN }], () => undefined)),
    ]).toEqual(['w1s1-bob']);
    expect(did.slice(1)).toEqual([
      'pay carrot-w1s1-bob ok',
      'pay carrot-w1s1-bob fail',
      'mine 11',
      'pay carrot-w1s1-bob ok',
      'pay carrot-w1s1-bob ok',
      'mine 11',
    ]);
  });

  it('stops at a payment that fails twice: what was paid is settled, the rest is paid as its scenario starts', async () => {
    const { t, did } = fakeTestnet(['ok', 'fail', 'fail']);
    const lines: string[] = [];
    expect([...(await fundAhead(t, pays, (l) => lines.push(l)))]).toEqual(['w1s1-main']);
    expect(did.slice(1)).toEqual([
      'pay carrot-w1s1-main ok',
      'pay carrot-w1s2-main fail',
      'mine 11',
      'pay carrot-w1s2-main fail',
    ]);
    expect(lines[0]).toBe(
      "saltnet: funding the scenarios' wallets ahead stopped after 1 of 3 (not enough unlocked money); the others are funded as their scenario starts",
    );
  });
});
