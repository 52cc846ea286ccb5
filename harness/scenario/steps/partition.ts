// partition: cut the links between groups of nodes and open those within them; heal: open every
// link; sync: every node of each group at one top block, every wallet at its node's height.
import { z } from 'zod';
import type { PathSegment } from '../../common/path.js';
import { NODE_NAME, nodeNames, partitionProblems } from '../../network/topology.js';
import { nodeLeaf } from '../schema/leaves.js';
import { ruleProblem, type RuleCtx } from '../schema/rule-kit.js';
import type { StepContext } from './context.js';
import { defineStep, type StepExchange } from './kind.js';

export interface PartitionAction {
  kind: 'partition';
  groups: string[][];
}

export interface HealAction {
  kind: 'heal';
}

export interface SyncAction {
  kind: 'sync';
}

const groupsSchema = z
  .array(z.array(nodeLeaf).min(1).describe('a group of nodes that keep their links, e.g. [n1, n2]'))
  .min(1)
  .describe('the groups of nodes: every node in exactly one, e.g. [[n0], [n1, n2]]');

/** `heal: {}`, `heal: true` or a bare `heal:`: nothing to say. */
const nothing = (what: string): z.ZodType =>
  z.union([z.literal(true), z.null(), z.strictObject({})]).describe(`${what}: {} (or true)`);

function checkGroups(ctx: RuleCtx, v: unknown, path: PathSegment[]): void {
  if (
    !Array.isArray(v) ||
    !v.every((g) => Array.isArray(g) && g.every((n) => typeof n === 'string' && NODE_NAME.test(n)))
  )
    return;
  for (const p of partitionProblems(v as string[][], ctx.nodes))
    ruleProblem(
      ctx,
      path,
      'value',
      `${p.replace('this testnet has', 'this scenario has')}${ctx.nodes === 1 ? ' (give the scenario nodes: 2 or more)' : ''}`,
      `every node of the scenario (${nodeNames(ctx.nodes).join(', ')}) in exactly one group`,
    );
}

/** What the network is after the step: its groups by name. */
const groupsNow = (ctx: StepContext): StepExchange['response'] => ({ result: { groups: ctx.testnet.groups() } });

export const partitionStep = defineStep<'partition', PartitionAction>({
  key: 'partition',
  schema: groupsSchema,
  answersRpc: false,
  build: (v) => ({ kind: 'partition', groups: v as string[][] }),
  defaultName: (a) => `partition ${a.groups.map((g) => `[${g.join(', ')}]`).join(' ')}`,
  check: checkGroups,
  async run(ctx, _step, a) {
    await ctx.testnet.partition(a.groups);
    return { request: { partition: a.groups }, response: groupsNow(ctx) };
  },
  docs: {
    note: 'Cuts every link between nodes of different groups and opens every link within a group (`nodes:` at the top of the file says how many nodes there are; every node is named once). Each link passes through a proxy saltnet owns, so a cut closes the connections at once on every backend: from then on blocks and transactions stay within their group, and each group mines its own chain (`mine: {blocks: 2, node: n1}`). The answer is `{result: {groups}}`, the groups as they are now.',
  },
});

export const healStep = defineStep<'heal', HealAction>({
  key: 'heal',
  schema: nothing('open every link between the nodes'),
  answersRpc: false,
  build: () => ({ kind: 'heal' }),
  defaultName: () => 'heal',
  async run(ctx) {
    await ctx.testnet.heal();
    return { request: { heal: true }, response: groupsNow(ctx) };
  },
  docs: {
    note: 'Opens every link again and waits until every node is connected to every other. The nodes then exchange their chains: the heavier one (at a fixed difficulty, the longer) wins and the others reorganise onto it, in the background — follow with `sync` to wait for it. Two chains of the same length stay apart until one grows.',
  },
});

export const syncStep = defineStep<'sync', SyncAction>({
  key: 'sync',
  schema: nothing('wait until the nodes agree and every wallet has refreshed'),
  answersRpc: false,
  build: () => ({ kind: 'sync' }),
  defaultName: () => 'sync',
  async run(ctx) {
    await ctx.testnet.sync();
    const heights: Record<string, number> = {};
    for (const n of ctx.testnet.nodes) heights[n.name] = await n.client.height();
    return { request: { sync: true }, response: { result: { groups: ctx.testnet.groups(), heights } } };
  },
  docs: {
    note: "Waits until the nodes of each group stand on one top block (after a `heal`, until the heavier chain has won everywhere), then refreshes every wallet until it stands at its own node's height — Bitcoin's `sync_all`. A wallet whose node reorganised detaches the blocks it lost (its log says `Detached blockchain on height …`). The answer is `{result: {groups, heights}}`, each node's height.",
  },
});
