// The automine step: `automine: on` and a transfer is confirmed with no mine step (the scenario only
// waits, as an app would); the answer is the mode; `off` and a transfer then stays in the pool; and
// after the scenario the testnet's automine is back as it was (manual), for the next scenario.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ScenarioResult } from '../../harness/scenario/types.js';
import { outcomeOf, runScenarioTexts } from '../helpers/scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';

let dir: string;
let results: Map<string, ScenarioResult>;

beforeAll(async () => {
  dir = tempDir('saltnet-step-automine-');
  results = await runScenarioTexts(
    dir,
    [
      [
        'automine on confirms a transfer with no mine step',
        `requires: { height: 1201, unlocked: { SAL1: 3 SAL1 } }
wallets: { bob: {} }
steps:
  - automine: on
    expect: { result: { mine_on_tx: true, block_time: 0 } }
  - transfer: { to: "\${bob.address}", amount: 1 SAL1 }
    save: { sent: result.tx_hash }
  - wait:
      call: { method: get_transfer_by_txid, params: { txid: "\${sent}" } }
      until:
        result.transfer.height: { gt: 0 }
      seconds: 60
  - automine: off
    expect: { result: { mine_on_tx: false, block_time: 0 } }
  - transfer: { to: "\${bob.address}", amount: 0.5 SAL1 }
    save: { second: result.tx_hash }
  - call: { path: /get_transaction_pool_hashes }
    expect: { result.tx_hashes: { contains: "\${second}" } }
  - automine: on
`,
      ],
      [
        'the next scenario finds automine manual again',
        `requires: { height: 1201 }
steps:
  - automine: { block_time: 0 }
    expect: { result: { mine_on_tx: false, block_time: 0 } }
`,
      ],
    ],
    { deadlineMs: 270_000 },
  );
}, 300_000);
afterAll(() => cleanup(dir));

const outcome = (name: string): string => outcomeOf(results, name);

it('automine: on confirms a transfer no step mined; off leaves the next one in the pool', () => {
  expect(outcome('automine on confirms a transfer with no mine step')).toBe('passed');
});

it("a scenario's automine is put back when it ends: the next scenario of the testnet starts manual", () => {
  expect(outcome('the next scenario finds automine manual again')).toBe('passed');
});
