// mine: N blocks (`mine: 5`, `{blocks: 5}`) or up to a height (`{to: 1300}`), exactly; then every
// wallet of the testnet refreshes to the new height (`sync: false`: none does).
import { isPlainObject } from '../../common/plain-object.js';
import { z } from 'zod';
import { MAX_BLOCKS_PER_STEP, MAX_HEIGHT } from '../bounds.js';
import { nodeLeaf } from '../schema/leaves.js';
import { checkNodeRef, ruleProblem } from '../schema/rule-kit.js';
import { has } from '../schema/vocabulary.js';
import { daemonOf } from './context.js';
import { defineStep } from './kind.js';
import type { DatasetState } from '../../testnet/programs/nodes.js';

export interface MineAction {
  kind: 'mine';
  blocks?: number;
  to?: number;
  /** Refresh every wallet to the new height before the next step (default true). */
  sync: boolean;
  /** The node that mines (default n0). */
  node?: string;
}

const schema = z
  .union([
    z.int().min(1).max(MAX_BLOCKS_PER_STEP).describe('number of blocks'),
    z
      .strictObject({
        blocks: z.int().min(1).max(MAX_BLOCKS_PER_STEP).describe('number of blocks to mine').optional(),
        to: z.int().min(0).max(MAX_HEIGHT).describe('mine until the chain has this height').optional(),
        sync: z
          .boolean()
          .describe('refresh every wallet to the new height before the next step (default true)')
          .optional(),
        node: nodeLeaf.describe('the node that mines (default n0); its group gets the blocks').optional(),
      })
      .meta({ oneOf: [{ required: ['blocks'] }, { required: ['to'] }] }),
  ])
  .describe('blocks to mine: a number (mine: 5), {blocks: 5} or {to: <height>}');

/** What a mine that began while the node's RandomX dataset was being built waited for it. */
export function datasetNote(now: DatasetState[], node: string, t0: number): string {
  const d = now.find((x) => x.node === node);
  if (!d?.readyAt) return `the RandomX dataset of ${node} was still being built (mining waits for it)`;
  const waited = ((d.readyAt - Math.max(t0, d.startedAt)) / 1000).toFixed(1);
  const built = ((d.readyAt - d.startedAt) / 1000).toFixed(1);
  return `${waited} s of it waiting for the RandomX dataset of ${node} (built once per daemon start, in ${built} s)`;
}

export const mineStep = defineStep<'mine', MineAction>({
  key: 'mine',
  schema,
  answersRpc: false,
  build(v) {
    if (typeof v === 'number') return { kind: 'mine', blocks: v, sync: true };
    const o = v as Record<string, unknown>;
    const sync = o.sync !== false;
    const node = typeof o.node === 'string' ? { node: o.node } : {};
    return typeof o.to === 'number'
      ? { kind: 'mine', to: o.to, sync, ...node }
      : { kind: 'mine', blocks: o.blocks as number, sync, ...node };
  },
  defaultName: (a) =>
    `${a.to !== undefined ? `mine to ${a.to}` : `mine ${a.blocks ?? 1}`}${a.node ? ` on ${a.node}` : ''}`,
  blocks(v) {
    if (typeof v === 'number') return { blocks: v, path: [] };
    if (isPlainObject(v) && typeof v.blocks === 'number') return { blocks: v.blocks, path: ['blocks'] };
    return undefined;
  },
  check(ctx, v, path) {
    if (!isPlainObject(v)) return;
    if (has(v, 'blocks') && has(v, 'to'))
      ruleProblem(ctx, [...path, 'to'], 'key', 'give either blocks or to, not both', '{blocks: N} or {to: <height>}');
    else if (!has(v, 'blocks') && !has(v, 'to'))
      ruleProblem(ctx, path, 'value', 'mine needs a number of blocks or a height', '{blocks: N} or {to: <height>}');
    checkNodeRef(ctx, v.node, [...path, 'node']);
  },
  async run(ctx, _step, a) {
    const h = await daemonOf(ctx, a.node).height();
    const target = a.to ?? h + (a.blocks ?? 1);
    const t0 = Date.now();
    const building = ctx.testnet.datasets().find((d) => d.node === (a.node ?? 'n0') && !d.readyAt);
    const reached = await ctx.testnet.mine({ to: target }, { sync: a.sync, ...(a.node ? { node: a.node } : {}) });
    return {
      request: { mine: target, ...(a.node ? { node: a.node } : {}), ...(a.sync ? {} : { sync: false }) },
      response: { result: { height: reached } },
      ...(building ? { note: datasetNote(ctx.testnet.datasets(), building.node, t0) } : {}),
    };
  },
  docs: {
    note: "Mines on the daemon until the chain has exactly that height, switching the mining address from CN to Carrot at height 1100 as needed. A miner cannot stop between two blocks, so it often finds a block or more past the target; saltnet pops those again (`/pop_blocks`) when they hold nothing but their coinbase, so `mine: 5` adds exactly 5 blocks on every backend (a block past the target that holds a transaction, one that reached the pool while mining, is kept). `mine: 5` is the same as `mine: { blocks: 5 }`. On a scenario of several nodes, `node: n1` says which node mines: the blocks reach the nodes of its group (every node unless partitioned), and the blocks past the target are popped from each of them. Then every wallet of the testnet (the scenario's and `main`) refreshes until it stands at the new height, so the next step sees what the blocks brought — a payment, an unlocked change — as Bitcoin's `generate` followed by `sync_all`. `mine: { blocks: 1, sync: false }` leaves the wallets as they were, to test what an app sees before it refreshes: during a scenario the wallet RPC's own refresh (every 20 s) is off, so they see the blocks at a `refresh` call, a `wait`'s poll or the next `mine` (a step `call: { method: auto_refresh, params: { enable: true } }` turns it on; it is on again after the scenario). `to` brings the chain to that height and does nothing once it is there: in a shared run above difficulty 1, the highest `to` of the run's scenarios (of one node) is mined ahead at difficulty 1 with their funding, so every scenario starts at or above it (docs/difficulty.md).",
  },
});
