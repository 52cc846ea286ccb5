// The one-side checks on made-up runs: money made among the program's wallets, a different answer across a restart
// and a server failure are each reported; a run that keeps them all is not.
import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../harness/fuzz/invariants.js';
import { withInvariants, type FuzzProgram } from '../../harness/fuzz/program.js';
import type { ScenarioResult, StepResult } from '../../harness/scenario/types.js';

const program: FuzzProgram = withInvariants({
  seed: 1,
  name: 'fuzz program 1',
  requires: { height: 1201, unlocked: { SAL1: '60 SAL1' } },
  wallets: { w1: {} },
  steps: [
    { transfer: { to: '${w1.address}', amount: '1 SAL1' }, save: { tx1: 'result.tx_hash' } },
    { get_balance: {} },
    { restart: 'wallet' },
    { get_balance: {} },
  ],
});

/** A passed run of `program` whose answers are `answers` by step (the rest `{result: {}}`). */
function run(answers: Record<number, unknown>): ScenarioResult {
  const steps: StepResult[] = program.steps.map((_, i) => ({
    index: i,
    name: `step ${i + 1}`,
    action: 'call',
    status: 'passed',
    ms: 1,
    response: answers[i] ?? { result: {} },
  }));
  return { file: 'f.yaml', name: program.name, status: 'passed', ms: 1, backend: 'sim', steps };
}

// Steps: 0, 1 balances before (main, w1); 2 transfer; 3 balance; 4 restart; 5 balance; 6 mine; 7, 8 balances after.
const total = (n: number) => ({ result: { total_balance: n } });
const balance = (n: number) => ({ result: { balances: [{ asset_type: 'SAL1', balance: n }] } });
const kept = { 0: total(6000), 1: total(0), 2: { result: { fee: 12, tx_hash: 'ab' } }, 3: balance(5), 5: balance(5) };

describe('checkInvariants', () => {
  it('nodes at two heights after a sync of one group: one top broken; two groups may differ', () => {
    const p: FuzzProgram = { ...program, nodes: 2, steps: [{ sync: {} }, { sync: {} }] };
    const r: ScenarioResult = {
      ...run({}),
      steps: [
        {
          index: 0,
          name: 'sync',
          action: 'sync',
          status: 'passed',
          ms: 1,
          response: { result: { groups: [['n0', 'n1']], heights: { n0: 1210, n1: 1209 } } },
        },
        {
          index: 1,
          name: 'sync',
          action: 'sync',
          status: 'passed',
          ms: 1,
          response: { result: { groups: [['n0'], ['n1']], heights: { n0: 1210, n1: 1209 } } },
        },
      ],
    };
    expect(checkInvariants(p, r).filter((v) => v.rule === 'one top')).toEqual([
      { step: 1, rule: 'one top', detail: 'after sync the nodes stand at n0 1210, n1 1209' },
    ]);
  });

  it('a run that keeps every invariant: nothing', () => {
    expect(checkInvariants(program, run({ ...kept, 7: total(5888), 8: total(100) }))).toEqual([]);
  });

  it('money made: the totals at the end are more than at the start less the fees', () => {
    expect(checkInvariants(program, run({ ...kept, 7: total(5888), 8: total(101) }))).toEqual([
      expect.objectContaining({ rule: 'money', detail: expect.stringMatching(/sent 12 in fees and burns: 1 made$/) }),
    ]);
  });

  it('another answer after the restart, and a server failure', () => {
    const v = checkInvariants(
      program,
      run({ ...kept, 5: balance(6), 7: { error: { code: 500, message: 'Internal Server Error' } }, 8: total(100) }),
    );
    expect(v.map((x) => [x.rule, x.step])).toEqual([
      ['server failure', 8],
      ['restart', 6],
      ['money', undefined],
    ]);
  });

  it("the same incoming entries in another order after the restart (a reloaded wallet's hash map): no violation", () => {
    const ins = (...heights: number[]) => ({
      result: { in: heights.map((height) => ({ height, txid: `t${height}`, amount: height })) },
    });
    const order = { ...kept, 7: total(5888), 8: total(100) };
    expect(checkInvariants(program, run({ ...order, 3: ins(1272, 1201), 5: ins(1201, 1272) }))).toEqual([]);
    expect(checkInvariants(program, run({ ...order, 3: ins(1272, 1201), 5: ins(1201) }))).toMatchObject([
      { rule: 'restart', step: 6 },
    ]);
  });
});
