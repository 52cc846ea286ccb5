// Read or change the testnet's automine mode (`saltnet automine`, automine()).
import { z } from 'zod';
import { applyChange, type AutomineChange, type AutomineMode } from '../../testnet/mining/automine.js';
import { asRequestError, defineOperation } from '../operation.js';

export interface AutomineAnswer {
  mode: AutomineMode;
}

export const automineOperation = defineOperation({
  name: 'automine',
  what: 'switch automine',
  body: z.strictObject({
    change: z
      .custom<AutomineChange>()
      .optional()
      .describe('"off" or an object { mineOnTx?: boolean, blockTime?: seconds }'),
  }),
  concurrent: true,
  run(t, { change }): Promise<AutomineAnswer> {
    if (change === undefined) return Promise.resolve({ mode: t.automine() });
    asRequestError(() => applyChange(t.automine(), change));
    return Promise.resolve({ mode: t.setAutomine(change) });
  },
});
