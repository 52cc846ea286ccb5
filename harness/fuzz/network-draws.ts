// A program of two or three nodes: a partition and its heal. The pool is mined empty first (so that no payment the
// model counts on sits in a block the losing side mines), then each side mines its own blocks — a different number,
// so that the longer chain wins — and the heal's `sync` waits until every node stands on it and every wallet has
// refreshed. The sync's answer (each node's height) is compared; in the one-side mode every height must be one.
import { nodeNames } from '../network/topology.js';
import { wallets, type Draw } from './forms.js';
import { mineBlocks, refresh } from './model.js';

export const partitionEpisode: Draw = ({ rng, world }) => {
  if (world.nodes < 2) return undefined;
  const nodes = nodeNames(world.nodes);
  const cut = rng.int(1, nodes.length - 1);
  const groups = [nodes.slice(0, cut), nodes.slice(cut)];
  const a = rng.int(1, 3);
  const b = rng.pick([1, 2, 3, 4].filter((n) => n !== a));
  // The flush: two blocks, as a token transfer's second part waits one block for its ROLLUP.
  mineBlocks(world, 2);
  mineBlocks(world, Math.max(a, b));
  for (const w of wallets(world)) refresh(world, w);
  return [
    { mine: 2 },
    { partition: groups },
    { mine: { blocks: a, node: groups[0]![0] } },
    { mine: { blocks: b, node: groups[1]![0] } },
    { heal: {} },
    { sync: {} },
  ];
};
