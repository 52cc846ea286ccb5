// automine: switch the testnet's automine for the steps that follow — `on` (a block as soon as the
// pool holds a transaction), `off` (manual), or {mine_on_tx, block_time}. The runner puts the mode
// back as it was when the scenario ends (runner/one-scenario.ts), so the next scenario on a shared testnet starts
// as every scenario does.
import { z } from 'zod';
import { MAX_BLOCK_TIME } from '../../limits.js';
import type { AutomineChange } from '../../testnet/mining/automine.js';
import { defineStep } from './kind.js';

export interface AutomineAction {
  kind: 'automine';
  change: AutomineChange;
}

const schema = z
  .union([
    z.enum(['on', 'off']).describe('on: a block as soon as the pool holds a transaction; off: manual'),
    z.boolean().describe('true: on; false: off'),
    z
      .strictObject({
        mine_on_tx: z.boolean().describe('mine a block as soon as the pool holds a transaction').optional(),
        block_time: z
          .number()
          .min(0)
          .max(MAX_BLOCK_TIME)
          .describe('mine a block every this many seconds (0: no interval)')
          .optional(),
      })
      .meta({ anyOf: [{ required: ['mine_on_tx'] }, { required: ['block_time'] }] }),
  ])
  .describe('switch automine: on, off, or {mine_on_tx?, block_time?}');

function changeOf(v: unknown): AutomineChange {
  if (v === 'on' || v === true) return { mineOnTx: true };
  if (v === 'off' || v === false) return 'off';
  const o = v as { mine_on_tx?: boolean; block_time?: number };
  return {
    ...(o.mine_on_tx !== undefined ? { mineOnTx: o.mine_on_tx } : {}),
    ...(o.block_time !== undefined ? { blockTime: o.block_time } : {}),
  };
}

const words = (c: AutomineChange): string =>
  c === 'off'
    ? 'off'
    : [
        ...(c.mineOnTx !== undefined ? [`mine_on_tx ${c.mineOnTx}`] : []),
        ...(c.blockTime !== undefined ? [`block_time ${c.blockTime}`] : []),
      ].join(', ') || 'unchanged';

export const automineStep = defineStep<'automine', AutomineAction>({
  key: 'automine',
  schema,
  answersRpc: false,
  build: (v) => ({ kind: 'automine', change: changeOf(v) }),
  defaultName: (a) =>
    `automine ${a.change !== 'off' && a.change.mineOnTx === true && a.change.blockTime === undefined ? 'on' : words(a.change)}`,
  async run(ctx, _step, a) {
    const mode = ctx.testnet.setAutomine(a.change);
    return {
      request: { automine: a.change },
      response: { result: { mine_on_tx: mode.mineOnTx, block_time: mode.blockTime } },
    };
  },
  docs: {
    note: "Switches the testnet's automine for the steps that follow: `on` mines a block as soon as the daemon's pool holds a transaction, `{block_time: 5}` one every 5 seconds (both may be on), `off` mines only on request. Every block automine mines is followed by a sync of every wallet, as `mine` is, so a step after a transaction sees it confirmed once its block is there: wait for it (`wait` with `seconds`), as an app would. When the scenario ends, the testnet's automine is put back as it was. A transaction the daemon leaves in its pool for 3 blocks in a row is left there (it would never be mined). The answer is the mode now: `{result: {mine_on_tx, block_time}}`.",
    example: {
      wallets: ['bob'],
      steps: [
        '- automine: on',
        '- transfer: { to: "${bob.address}", amount: 1 SAL1 }',
        '  save: { sent: result.tx_hash }',
        '- name: automine mines it; no mine step',
        '  wait:',
        '    get_transfers: { out: true }',
        '    until:',
        '      result.out: { contains: { txid: "${sent}" } }',
        '    seconds: 60',
        '- automine: off',
      ].join('\n'),
    },
  },
});
