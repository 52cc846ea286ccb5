// mine leaves every wallet synced (Bitcoin's generate + sync_all): the step after `mine` sees the
// new height and what the blocks unlocked, in every wallet of the testnet; `sync: false` leaves them
// as they were (their wallet RPC's own refresh is off during a scenario: test/scenario/auto-refresh.test.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ScenarioResult } from '../../harness/scenario/types.js';
import { outcomeOf, runScenarioTexts } from '../helpers/scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let dir: string;
let results: Map<string, ScenarioResult>;

beforeAll(async () => {
  dir = tempDir('saltnet-step-mine-');
  results = await runScenarioTexts(
    dir,
    [
      [
        'after mine every wallet stands at the daemon height',
        `requires: { height: 1201, unlocked: { SAL1: 3 SAL1 } }
wallets: { bob: {} }
steps:
  - mine: 2
  - call: { path: /get_height }
    save: { top: result.height }
  - call: { method: get_height }
    expect: { result.height: "\${top}" }
  - call: { method: get_height }
    wallet: bob
    expect: { result.height: "\${top}" }
`,
      ],
      [
        'with sync false the wallets have not seen the blocks yet',
        `requires: { height: 1201 }
steps:
  - call: { method: get_height }
    save: { before: result.height }
  - mine: { blocks: 1, sync: false }
  - call: { method: get_height }
    expect: { result.height: "\${before}" }
`,
      ],
      [
        'a transfer from change right after the blocks that unlock it',
        `requires: { height: 1201, unlocked: { SAL1: 1001 SAL1 } }
wallets: { bob: {} }
steps:
  - create_token: { ticker: "\${unique.t}", supply: 10, name: sync }
  - mine: 1
  - get_tokens: { regex: "\${unique.t}" }
    expect: { result.tokens: ["sal\${unique.t}"] }
  - mine: 10
  - transfer: { to: "\${bob.address}", amount: 0.5 SAL1 }
`,
      ],
    ],
    { daemonEnv: { SALTNET_SIM_HASHRATE: '250000' } },
  );
});
afterAll(() => cleanup(dir));

const outcome = (name: string): string => outcomeOf(results, name);

it('after mine, the main wallet and a scenario wallet stand at the daemon height', () => {
  expect(outcome('after mine every wallet stands at the daemon height')).toBe('passed');
});

it('mine with sync: false leaves the wallets where they were (their own refresh is off during a scenario)', () => {
  expect(outcome('with sync false the wallets have not seen the blocks yet')).toBe('passed');
});

it("a newcomer's scenario: a token, mine 1, listed, then SAL1 sent from the change once unlocked — no refresh step", () => {
  expect(outcome('a transfer from change right after the blocks that unlock it')).toBe('passed');
});
