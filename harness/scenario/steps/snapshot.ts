// snapshot and revert: checkpoint the whole testnet (chain and every wallet) and roll back to it.
import { suggest } from '../../common/suggest.js';
import { nameLeaf } from '../schema/leaves.js';
import { ruleProblem } from '../schema/rule-kit.js';
import { NAME_RE, didYouMean } from '../schema/vocabulary.js';
import { defineStep, type StepDocs } from './kind.js';

export interface SnapshotAction {
  kind: 'snapshot' | 'revert';
  name: string;
}

const example: StepDocs['example'] = {
  wallets: ['bob'],
  steps: [
    '- name: checkpoint before the transfer',
    '  snapshot: before_transfer',
    '- transfer: { to: "${bob.address}", amount: 1 SAL1 }',
    '- mine: 1',
    '- name: back to the checkpoint, chain and wallets as they were',
    '  revert: before_transfer',
  ].join('\n'),
};

export const snapshotStep = defineStep<'snapshot', SnapshotAction>({
  key: 'snapshot',
  schema: nameLeaf('snapshot name', 'before_transfer').describe('checkpoint the whole testnet under this name'),
  answersRpc: false,
  build: (v) => ({ kind: 'snapshot', name: v as string }),
  defaultName: (a) => `snapshot ${a.name}`,
  check(_ctx, v, _path, args) {
    if (typeof v === 'string') args.snapshots.add(v);
  },
  async run(ctx, _step, a) {
    // The whole testnet: the daemon's chain and every wallet's file (Testnet.checkpoint: on one node nothing stops).
    await ctx.testnet.checkpoint(a.name);
    return { request: { snapshot: a.name }, response: { result: { height: await ctx.daemon.height() } } };
  },
  docs: {
    note: "Checkpoints the whole testnet — the daemon's chain and every wallet — under a name. A later `revert: <name>` rolls the testnet back to it. On one node nothing stops: each wallet is stored and its files copied, and the chain's top and pool are noted.",
    example,
  },
});

export const revertStep = defineStep<'revert', SnapshotAction>({
  key: 'revert',
  schema: nameLeaf('snapshot name', 'before_transfer').describe('roll the testnet back to an earlier snapshot'),
  answersRpc: false,
  build: (v) => ({ kind: 'revert', name: v as string }),
  defaultName: (a) => `revert ${a.name}`,
  check(ctx, v, path, args) {
    if (typeof v !== 'string' || !NAME_RE.test(v) || args.snapshots.has(v)) return;
    ruleProblem(
      ctx,
      path,
      'value',
      `no earlier snapshot is named "${v}"${didYouMean(suggest(v, [...args.snapshots]))}`,
      'the name of an earlier snapshot step',
    );
  },
  async run(ctx, _step, a) {
    await ctx.testnet.revert(a.name);
    for (const w of ctx.wallets.values()) await w.client.raw('refresh');
    return { request: { revert: a.name }, response: { result: { height: await ctx.daemon.height() } } };
  },
  docs: {
    note: "Rolls the whole testnet — the daemon's chain and every wallet — back to an earlier `snapshot` of that name. The name must belong to a `snapshot` step earlier in the file. On one node the daemon keeps running: the blocks mined since are popped (`pop_blocks`), the pool is put back as it was, and the wallet RPCs restart on their files. It is refused when the chain no longer holds the snapshot's top block (popped by a `call` since, say).",
    example,
  },
});
