// The links between the testnet's nodes: cut them between groups, open them all, change one, and bring the nodes to
// one top (`saltnet partition|heal|link|sync`, partition() … sync()). Each answers the network as it then stands.
import { z } from 'zod';
import type { LinkInfo } from '../../network/links.js';
import { LINK_MODES } from '../../network/proxy.js';
import { partitionProblems, unknownNode } from '../../network/topology.js';
import type { Testnet } from '../../testnet/types.js';
import { RequestError } from '../body.js';
import { defineOperation, whole } from '../operation.js';

/** The network after a partition, a heal or a link change. */
export interface NetworkAnswer {
  groups: string[][];
  links: LinkInfo[];
}

const network = (t: Testnet): NetworkAnswer => ({ groups: t.groups(), links: t.links() });

/** Node `name` of `t`, or a RequestError naming the nodes it has. */
export function nodeOf(t: Testnet, name: string): Testnet['nodes'][number] {
  const why = unknownNode(name, t.nodes.length);
  if (why) throw new RequestError(why);
  return t.nodes.find((n) => n.name === name)!;
}

const NONE = z.strictObject({});

export const partitionOperation = defineOperation({
  name: 'partition',
  what: 'partition the nodes',
  body: z.strictObject({
    groups: z.array(z.array(z.string())).describe('a list of lists of node names, e.g. [["n0"], ["n1", "n2"]]'),
  }),
  async run(t, { groups }, { signal }): Promise<NetworkAnswer> {
    const problems = partitionProblems(groups, t.nodes.length);
    if (problems.length) throw new RequestError(`bad partition: ${problems.join('; ')}`);
    await t.partition(groups, { signal });
    return network(t);
  },
});

export const healOperation = defineOperation({
  name: 'heal',
  what: 'heal the links',
  body: NONE,
  async run(t, _body, { signal }): Promise<NetworkAnswer> {
    await t.heal({ signal });
    return network(t);
  },
});

export const linkOperation = defineOperation({
  name: 'link',
  what: 'change the link',
  body: z.strictObject({
    a: z.string().describe('a node name, e.g. n0'),
    b: z.string().describe('a node name, e.g. n1'),
    mode: z
      .enum(LINK_MODES)
      .optional()
      .describe(`one of ${LINK_MODES.join(', ')}`),
    delayMs: whole(0, 600_000, 'a whole number of milliseconds'),
  }),
  async run(t, { a, b, mode, delayMs }, { signal }): Promise<NetworkAnswer> {
    if (mode === undefined && delayMs === undefined) throw new RequestError('say what to change: mode or delayMs');
    nodeOf(t, a);
    nodeOf(t, b);
    if (a === b) throw new RequestError(`a link joins two nodes; ${a} and ${b} are the same node`);
    await t.setLink(a, b, { ...(mode ? { mode } : {}), ...(delayMs !== undefined ? { delayMs } : {}) }, { signal });
    return network(t);
  },
});

export const syncOperation = defineOperation({
  name: 'sync',
  what: 'sync the nodes',
  body: NONE,
  async run(t, _body, { signal }): Promise<NetworkAnswer> {
    await t.sync({ signal });
    return network(t);
  },
});
