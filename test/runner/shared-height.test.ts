import { describe, expect, it } from 'vitest';
import { planOfFiles, sharedPlan } from '../../harness/runner/funded-state-cache.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { sharedMineTo } from '../../harness/runner/shared-height.js';
import { BACKENDS } from '../../harness/coin/backends.js';

const scenario = (steps: string, nodes = 1): ReturnType<typeof parseScenario> =>
  parseScenario(`name: s\n${nodes > 1 ? `nodes: ${nodes}\n` : ''}steps:\n${steps}`, 's.yaml');

describe('the height a shared run is mined to ahead', () => {
  it('is the highest mine: {to: N} of any step of a scenario of one node, above the run height', () => {
    const a = scenario('  - mine: 1\n  - mine: { to: 1301 }\n  - mine: { to: 1250 }\n');
    const b = scenario('  - call: { on: daemon, method: get_info }\n  - mine: { to: 1401 }\n');
    expect(sharedMineTo([a], 1201)).toBe(1301);
    expect(sharedMineTo([a, b], 1201)).toBe(1401);
    // At or below the height the run starts at: nothing to mine ahead.
    expect(sharedMineTo([a], 1301)).toBeUndefined();
    expect(sharedMineTo([scenario('  - mine: 5\n')], 1201)).toBeUndefined();
  });

  it('leaves out a scenario of several nodes, which gets a testnet of its own', () => {
    const two = scenario('  - mine: { to: 1500, node: n1 }\n', 2);
    expect(sharedMineTo([two], 1201)).toBeUndefined();
  });

  it("is in the plan of the example suite with the wallets' lookahead: token-hard-forks' 1401", async () => {
    const plan = await planOfFiles(
      ['scenarios/token-hard-forks.yaml', 'scenarios/reorg-double-spend.yaml', 'scenarios/balances.yaml'],
      BACKENDS.salvium!,
    );
    expect(plan.extras).toEqual({ lookahead: true, to: 1401 });
    expect(sharedPlan([], BACKENDS.sim!).extras).toEqual({ lookahead: true });
  });
});
