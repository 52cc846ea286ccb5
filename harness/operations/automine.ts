// Read or change the testnet's automine mode (`saltnet automine [on | off | interval <seconds>]`, automine()): a block
// as soon as the pool holds a transaction (`on`), one every so many seconds (`interval 5`; `interval 0` ends it),
// both, or neither (`off`: manual). Without a mode it says the mode now. Every wallet is synced after each block.
import { z } from 'zod';
import { NUMBER_RULES, numberOrThrow } from '../config/numbers.js';
import { applyChange, describeAutomine, type AutomineChange, type AutomineMode } from '../testnet/mining/automine.js';
import { asRequestError, defineOperation } from './operation.js';

export interface AutomineAnswer {
  mode: AutomineMode;
}

const MODES = ['on', 'off', 'interval', 'status'] as const;

/** The change a command line asks for (undefined: none, only the mode). */
function changeOf(mode: unknown, seconds: unknown): AutomineChange | undefined {
  if (mode === 'on') return { mineOnTx: true };
  if (mode === 'off') return 'off';
  if (mode === 'interval') return { blockTime: numberOrThrow('<seconds>', seconds, NUMBER_RULES.blockTime) };
  return undefined;
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
  command: {
    usage: 'automine [mode] [seconds]',
    describe: 'mine on the running testnet without being asked: on (a block per new tx), off, interval <seconds>',
    positionals: {
      mode: {
        choices: MODES,
        describe: 'on: a block as soon as the pool holds a tx; off: manual; interval: a block every <seconds>; status',
      },
      seconds: { type: 'string', describe: 'interval: seconds between blocks (0: no interval)' },
    },
    check(a) {
      if (a.mode === 'interval' && a.seconds === undefined)
        throw new Error('say how often: `saltnet automine interval 5` (seconds; 0 ends the interval)');
      if (a.mode !== 'interval' && a.seconds !== undefined)
        throw new Error(`${String(a.seconds)}: only \`saltnet automine interval <seconds>\` takes a number`);
    },
    body(a) {
      const change = changeOf(a.mode, a.seconds);
      return change === undefined ? {} : { change };
    },
    say: (res) => `automine: ${describeAutomine(res.mode)}`,
    json: (res) => res.mode,
  },
});
