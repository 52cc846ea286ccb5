// Mine blocks, or up to a height, on a node of the testnet, then sync its wallets (`saltnet mine <blocks> | --to
// <height>`, mine()); the address switch at the Carrot height is the miner's.
import { z } from 'zod';
import { NUMBER_RULES, numberOption } from '../config/numbers.js';
import { MAX_HEIGHT } from '../limits.js';
import { mineTarget, type MineRequest } from '../testnet/mining/sync.js';
import { RequestError } from './body.js';
import { defineOperation, whole } from './operation.js';
import { nodeOf } from './network.js';

export interface MineAnswer {
  height: number;
  /** The wallets refreshed to that height. */
  synced: string[];
  /** `to` was not above the height: nothing mined. */
  already?: boolean;
}

export const mineOperation = defineOperation({
  name: 'mine',
  what: 'mine',
  body: z.strictObject({
    blocks: whole(1, MAX_HEIGHT, 'a whole number of blocks (a JSON number)'),
    to: whole(1, MAX_HEIGHT, 'a height (a whole JSON number)'),
    sync: z.boolean().optional().describe('true or false'),
    node: z.string().optional().describe('a node name, e.g. n1'),
  }),
  async run(t, { blocks, to, sync = true, node }, { signal }): Promise<MineAnswer> {
    if (blocks !== undefined && to !== undefined)
      throw new RequestError('give blocks or to, not both: how many blocks, or up to which height');
    const what: MineRequest = to !== undefined ? { to } : { blocks: blocks ?? 1 };
    // On a partitioned testnet the node that mines may stand elsewhere than n0.
    const miner = node !== undefined ? nodeOf(t, node) : undefined;
    const start = await (miner ? miner.client.height() : t.height());
    const target = mineTarget(what, start);
    if (target > MAX_HEIGHT)
      throw new RequestError(
        `mining to height ${target} would pass height ${MAX_HEIGHT}, the highest saltnet mines to`,
      );
    if (target <= start) return { height: start, synced: [], already: true };
    const height = await t.mine(what, { sync, signal, ...(node !== undefined ? { node } : {}) });
    return { height, synced: sync ? [...t.wallets().keys()] : [] };
  },
  command: {
    usage: 'mine [blocks]',
    describe: 'mine blocks on the running testnet',
    positionals: { blocks: numberOption('blocks', NUMBER_RULES.blocks, 'how many blocks', true) },
    options: {
      to: numberOption('to', NUMBER_RULES.height, 'mine until this height'),
      node: { type: 'string', describe: 'the node that mines (saltnet up --nodes N: n0 to n<N-1>; default n0)' },
    },
    check(a) {
      if (a.blocks === undefined && a.to === undefined)
        throw new Error('say how far: `saltnet mine 10` or `saltnet mine --to 1300`');
      if (a.blocks !== undefined && a.to !== undefined)
        throw new Error('say how far once: `saltnet mine 10` or `saltnet mine --to 1300`, not both');
    },
    body: (a) => ({
      ...(a.to !== undefined ? { to: a.to as number } : { blocks: (a.blocks as number | undefined) ?? 1 }),
      ...(a.node !== undefined ? { node: String(a.node) } : {}),
    }),
    say: (res) => (res.already ? `already at height ${res.height}` : `height ${res.height}`),
  },
});
