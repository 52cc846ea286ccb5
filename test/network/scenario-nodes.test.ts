// A scenario's nodes at file check (harness/scenario/steps/partition.ts, schema/rules.ts): a node
// that does not exist, a node in two groups, a partition of a one-node scenario — each refused with
// its line and why, before anything starts.
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../harness/scenario/parse.js';
import { ScenarioError } from '../../harness/scenario/types.js';

function refusal(text: string): string {
  try {
    parseScenario(text, 'nodes.yaml');
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  throw new Error('expected the scenario to be refused');
}

const file = (nodes: number, steps: string): string => `name: x\nnodes: ${nodes}\nsteps:\n${steps}`;

describe('nodes at file check', () => {
  it('accepts a partition naming every node once, and steps addressed to a node', () => {
    const s = parseScenario(
      file(3, '  - partition: [[n0], [n1, n2]]\n  - mine: { blocks: 1, node: n2 }\n  - heal: {}\n  - sync: {}\n'),
      'ok.yaml',
    );
    expect(s.nodes).toBe(3);
    expect(s.steps.map((st) => st.action.kind)).toEqual(['partition', 'mine', 'heal', 'sync']);
  });

  it('refuses a node in two groups', () => {
    expect(refusal(file(2, '  - partition: [[n0, n1], [n1]]\n'))).toMatch(
      /nodes\.yaml:4:\d+: steps\[0\]\.partition.*n1 is in two groups \(0 and 1\)/s,
    );
  });

  it('refuses a node that does not exist, in a partition and in mine', () => {
    expect(refusal(file(2, '  - partition: [[n0], [n2]]\n'))).toMatch(/no node named "n2": this scenario has 2 nodes/);
    expect(refusal(file(2, '  - mine: { blocks: 1, node: n5 }\n'))).toMatch(
      /steps\[0\]\.mine\.node.*no node named "n5"/s,
    );
  });

  it('refuses a partition of a scenario of one node, saying how to get more', () => {
    expect(refusal('name: x\nsteps:\n  - partition: [[n0], [n1]]\n')).toMatch(/give the scenario nodes: 2 or more/);
  });
});
