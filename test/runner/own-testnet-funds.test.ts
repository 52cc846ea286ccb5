// A scenario's own testnet above difficulty 1 (harness/runner/own-testnet-funds.ts): its wallets paid, and the height
// its steps begin by mining to reached, in a cached state built once per machine at difficulty 1; later runs restore
// it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshPlan, leadingHeight } from '../../harness/runner/own-testnet-funds.js';
import { loadScenario, parseScenario } from '../../harness/scenario/parse.js';
import { scenarioRandomx } from '../../harness/runner/randomx-choice.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { BACKENDS } from '../../harness/coin/backends.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const SAL = BACKENDS.salvium!;
const COIN = 100_000_000n;

const TWO_NODES = `name: two nodes, bob paid, a height of its own
nodes: 2
requires: { height: 1201, unlocked: { SAL1: 3 SAL1 } }
wallets:
  bob: { unlocked: { SAL1: 2 SAL1 } }
  carol: { node: n1 }
steps:
  - mine: { to: 1300 }
  - call: { path: /get_height }
  - wallet: bob
    call: { method: get_balance, params: { asset_type: SAL1 } }
    expect: { 'result.balances[0].unlocked_balance': 200000004 }
  - mine: { blocks: 1, node: n1 }
`;

describe('freshPlan', () => {
  const s = parseScenario(TWO_NODES, 'x.yaml');

  it('pays the declared wallets (not main, whose funds are the testnet own) and keeps the leading height', () => {
    expect(leadingHeight(s)).toBe(1300);
    const plan = freshPlan(s, SAL, 500);
    expect(plan.to).toBe(1300);
    expect(plan.pays.map((p) => [p.wallet, p.asset])).toEqual([['bob', 'SAL1']]);
    expect(plan.pays[0]!.amount).toBe(2n * COIN);
  });

  it('does nothing ahead at difficulty 1, where a block costs a hash', () => {
    expect(freshPlan(s, SAL, 1)).toEqual({ pays: [] });
  });

  it('has no leading height when the steps do not begin by mining to one', () => {
    expect(leadingHeight(parseScenario('name: x\nsteps:\n  - mine: 3\n  - mine: { to: 90 }\n', 'x.yaml'))).toBe(
      undefined,
    );
  });

  it('lets reorg-double-spend run light at 500 (the daemon mining) once its funding and its height of its own are in the state', async () => {
    const rds = await loadScenario('scenarios/reorg-double-spend.yaml');
    const daemon = { miner: 'daemon' } as const;
    expect(scenarioRandomx(rds, SAL, daemon)).toBeUndefined(); // auto: full, for the ~90 blocks it would mine
    const plan = freshPlan(rds, SAL, 500);
    expect(scenarioRandomx(rds, SAL, daemon, { ahead: new Set(plan.pays.map((p) => p.wallet)), to: plan.to })).toBe(
      'light',
    );
  });
});

describe('a scenario of several nodes at 500, funded ahead (sim)', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('saltnet-fresh-ahead-');
  });
  afterAll(() => cleanup(dir));

  /** The two-node scenario run once at `difficulty`, passed: its log, and the height its second step read. */
  const runTwo = async (difficulty: number, artifacts: string) => {
    const file = join(dir, `two-d${difficulty}.yaml`);
    writeFileSync(file, TWO_NODES);
    const lines: string[] = [];
    const [r] = await runFiles([file], {
      backend: 'sim',
      isolation: 'shared',
      workers: 1,
      bail: false,
      cacheDir: join(dir, 'cache'),
      difficulty,
      artifactsRoot: join(dir, artifacts),
      log: (l) => lines.push(l),
      detail: (l) => lines.push(l),
    });
    expect([r!.status, r!.failure?.message], lines.join('\n')).toEqual(['passed', undefined]);
    return { log: lines.join('\n'), height: (r!.steps[1]!.response as { result: { height: number } }).result.height };
  };

  it('starts on a state with its wallet paid and its height reached, built once and restored after', async () => {
    const run = (n: number) => runTwo(500, `artifacts-${n}`);
    const first = await run(1);
    expect(first.log).toMatch(
      /no snapshot sim-d1-\S+-ahead-[0-9a-f]{12}: funding the wallets of "two nodes, bob paid, a height of its own" at difficulty 1/,
    );
    expect(first.log).toMatch(/funded 1 wallet of "two nodes[^"]*" ahead in [\d.]+ s \(11 blocks\)/);
    // The state holds the height the steps begin by mining to: `mine: {to: 1300}` found the chain there.
    expect(first.log).toMatch(/restored snapshot sim-d1-\S+-ahead-[0-9a-f]{12} \(height 1300\)/);
    expect(first.height).toBe(1300);
    const second = await run(2);
    expect(second.log).not.toMatch(/no snapshot/);
    expect(second.log).not.toMatch(/\(11 blocks\)/);
    expect(second.log).toMatch(/restored snapshot sim-d1-\S+-ahead-[0-9a-f]{12} \(height 1300\)/);
    expect(second.height).toBe(1300);
  }, 120_000);

  it('at difficulty 1 funds the wallet on the testnet and mines to the height in the steps, as before', async () => {
    const d1 = await runTwo(1, 'artifacts-d1');
    expect(d1.log).not.toMatch(/snapshot \S+-ahead-/);
    expect(d1.height).toBe(1300);
  }, 120_000);
});
