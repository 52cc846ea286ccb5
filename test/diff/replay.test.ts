// What the diff tells a simulator side of the real side's draws: each step's per-tx input counts, in the header the
// simulator reads.
import { describe, expect, it } from 'vitest';
import { REPLAY_HEADER, inputCounts, replayFrom } from '../../harness/diff/replay.js';
import type { ScenarioResult } from '../../harness/scenario/types.js';

const answer = (result: Record<string, unknown>): unknown => ({ jsonrpc: '2.0', id: '1', result });

describe('replaying the real side’s draws', () => {
  it('counts the key images each tx of an answer spent', () => {
    expect(inputCounts(answer({ spent_key_images: { key_images: ['a', 'b'] } }))).toEqual([2]);
    expect(
      inputCounts(answer({ spent_key_images_list: [{ key_images: ['a'] }, { key_images: ['b', 'c', 'd'] }] })),
    ).toEqual([1, 3]);
    expect(inputCounts(answer({ balance: 1 }))).toBeUndefined();
    expect(inputCounts({ error: { code: -4, message: 'no' } })).toBeUndefined();
  });

  it('gives each step of each file its own draws, and nothing for the others', () => {
    const result: ScenarioResult = {
      file: 'scenarios/x.yaml',
      name: 'x',
      status: 'passed',
      ms: 1,
      backend: 'salvium',
      steps: [
        { index: 0, name: 'b', action: 'get_balance', status: 'passed', ms: 1, response: answer({ balance: 1 }) },
        {
          index: 1,
          name: 't',
          action: 'transfer',
          status: 'passed',
          ms: 1,
          response: answer({ spent_key_images: { key_images: ['k1', 'k2'] } }),
        },
      ],
    };
    const replay = replayFrom([result]);
    expect(replay(`${process.cwd()}/scenarios/x.yaml`, 1)).toEqual({ [REPLAY_HEADER]: '{"inputs":[2]}' });
    expect(replay('scenarios/x.yaml', 0)).toBeUndefined();
    expect(replay('scenarios/y.yaml', 1)).toBeUndefined();
  });
});
