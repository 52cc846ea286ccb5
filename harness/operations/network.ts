// The links between the nodes of a `saltnet up --nodes N`: cut them between groups, open them all, change one, and
// bring the nodes to one top (`saltnet partition|heal|link|sync`, partition() … sync()). Each answers the network as
// it then stands.
import { z } from 'zod';
import type { LinkInfo } from '../network/links.js';
import { LINK_MODES } from '../network/proxy.js';
import { partitionProblems, unknownNode } from '../network/topology.js';
import type { Testnet } from '../testnet/types.js';
import { RequestError } from './body.js';
import { defineOperation, NO_BODY, whole } from './operation.js';

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

/** The longest delay a link may add, in milliseconds. */
const MAX_DELAY_MS = 600_000;

/** The network in words: its groups, then each link. */
const say = (a: NetworkAnswer): string =>
  [
    `groups: ${a.groups.map((g) => `[${g.join(', ')}]`).join(' ')}`,
    ...a.links.map((l) => `  ${l.link}  ${l.mode}${l.delayMs ? `, delay ${l.delayMs} ms` : ''}`),
  ].join('\n');

/** `n0` `n1,n2` → [['n0'], ['n1', 'n2']]. */
export function parseGroups(words: readonly string[]): string[][] {
  return words.map((w) =>
    w
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== ''),
  );
}

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
  command: {
    usage: 'partition <groups..>',
    describe:
      'cut the links between groups of nodes (each group: node names joined by commas): saltnet partition n0 n1,n2',
    positionals: { groups: { type: 'string', array: true, describe: 'the groups, e.g. n0 n1,n2' } },
    body: (a) => ({ groups: parseGroups(a.groups as string[]) }),
    say,
  },
});

export const healOperation = defineOperation({
  name: 'heal',
  what: 'heal the links',
  body: NO_BODY,
  async run(t, _body, { signal }): Promise<NetworkAnswer> {
    await t.heal({ signal });
    return network(t);
  },
  command: {
    usage: 'heal',
    describe: 'open every link between the nodes again (the heavier chain then wins)',
    say,
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
    delayMs: whole(0, MAX_DELAY_MS, 'a whole number of milliseconds'),
  }),
  async run(t, { a, b, mode, delayMs }, { signal }): Promise<NetworkAnswer> {
    if (mode === undefined && delayMs === undefined) throw new RequestError('say what to change: mode or delayMs');
    nodeOf(t, a);
    nodeOf(t, b);
    if (a === b) throw new RequestError(`a link joins two nodes; ${a} and ${b} are the same node`);
    await t.setLink(a, b, { ...(mode ? { mode } : {}), ...(delayMs !== undefined ? { delayMs } : {}) }, { signal });
    return network(t);
  },
  command: {
    usage: 'link <a> <b>',
    describe: 'set the link between two nodes: --mode cut|drop|open, --delay <ms>',
    positionals: { a: { type: 'string', demandOption: true }, b: { type: 'string', demandOption: true } },
    options: {
      mode: { choices: LINK_MODES, describe: 'cut: closed; drop: connected, every byte lost; open' },
      delay: { type: 'number', describe: 'milliseconds added to every chunk, each way' },
    },
    check(a) {
      if (a.mode === undefined && a.delay === undefined) throw new Error('say what to change: --mode or --delay');
      const d = a.delay;
      if (d !== undefined && (typeof d !== 'number' || !Number.isInteger(d) || d < 0 || d > MAX_DELAY_MS))
        throw new Error(`--delay: ${String(d)} is not a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`);
    },
    body: (o) => ({
      a: String(o.a),
      b: String(o.b),
      ...(o.mode ? { mode: o.mode as (typeof LINK_MODES)[number] } : {}),
      ...(o.delay !== undefined ? { delayMs: o.delay as number } : {}),
    }),
    say,
  },
});

export const syncOperation = defineOperation({
  name: 'sync',
  what: 'sync the nodes',
  body: NO_BODY,
  async run(t, _body, { signal }): Promise<NetworkAnswer> {
    await t.sync({ signal });
    return network(t);
  },
  command: {
    usage: 'sync',
    describe:
      "wait until the nodes of each group stand on one top block, and refresh every wallet to its node's height",
    say,
  },
});
