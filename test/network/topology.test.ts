// The nodes and links of a testnet of several nodes (harness/network/topology.ts): names, partitions
// and what is wrong with one, the links a partition cuts, the groups the open links leave.
import { describe, expect, it } from 'vitest';
import {
  allLinks,
  components,
  cutLinks,
  linkName,
  nodeIndex,
  partitionProblems,
  unknownNode,
} from '../../harness/network/topology.js';

describe('node names', () => {
  it('n0 … n<N-1> are the nodes; any other name is refused with the nearest one', () => {
    expect(nodeIndex('n2', 3)).toBe(2);
    expect(unknownNode('n1', 3)).toBeUndefined();
    expect(unknownNode('n3', 3)).toMatch(
      /^no node named "n3": this testnet has 3 nodes, n0 to n2 \(did you mean n\d\?\)$/,
    );
    expect(unknownNode('n1', 1)).toMatch(/this testnet has one node, n0/);
    expect(() => nodeIndex('node1', 2)).toThrow(/no node named "node1"/);
  });
});

describe('partitions', () => {
  it('a valid partition has no problems and cuts exactly the links between its groups', () => {
    expect(partitionProblems([['n0'], ['n1', 'n2']], 3)).toEqual([]);
    expect(cutLinks([['n0'], ['n1', 'n2']], 3).map(linkName)).toEqual(['n0-n1', 'n0-n2']);
    expect(cutLinks([['n0', 'n1', 'n2']], 3)).toEqual([]);
  });

  it('a node in two groups, an unknown node, an empty group, a node in none: each named with its group', () => {
    expect(partitionProblems([['n0', 'n1'], ['n1']], 2)).toEqual([
      'n1 is in two groups (0 and 1): a node is in one group',
    ]);
    expect(partitionProblems([['n0'], ['n7']], 2)).toEqual([
      'group 1: no node named "n7": this testnet has 2 nodes, n0 to n1 (did you mean n0?)',
    ]);
    expect(partitionProblems([['n0'], []], 2)[0]).toBe('group 1 is empty');
    expect(partitionProblems([['n0']], 3)).toEqual([
      'n1, n2 are in no group: name every node once (a node alone is a group of its own, e.g. [n1])',
    ]);
    expect(() => cutLinks([['n0', 'n1'], ['n1']], 2)).toThrow(/bad partition: n1 is in two groups/);
  });

  it('the groups follow from the open links', () => {
    expect(allLinks(3).map(linkName)).toEqual(['n0-n1', 'n0-n2', 'n1-n2']);
    expect(components(3, [[1, 2]])).toEqual([[0], [1, 2]]);
    expect(components(3, allLinks(3))).toEqual([[0, 1, 2]]);
    expect(components(4, [])).toEqual([[0], [1], [2], [3]]);
  });
});
