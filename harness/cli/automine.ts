// `saltnet automine [on | off | interval <seconds>]`: how the running testnet mines without being asked —
// a block as soon as the pool holds a transaction (`on`), one every so many seconds (`interval 5`;
// `interval 0` ends it), both, or neither (`off`: manual). Without a mode it says the mode now. The
// testnet's own process switches it (its control endpoint), and syncs every wallet after each block.
import type { CommandModule } from 'yargs';
import { NUMBER_RULES, numberOrThrow } from '../config/numbers.js';
import { operate } from '../control/client.js';
import { describeAutomine, type AutomineChange } from '../testnet/mining/automine.js';
import { pickControl } from './runs.js';

const MODES = ['on', 'off', 'interval', 'status'] as const;

interface AutomineArgs {
  mode?: (typeof MODES)[number];
  seconds?: string;
  run?: string;
  json: boolean;
}

export const automineCommand: CommandModule<object, AutomineArgs> = {
  command: 'automine [mode] [seconds]',
  describe: 'mine on the running testnet without being asked: on (a block per new tx), off, interval <seconds>',
  builder: (y) =>
    y
      .positional('mode', {
        choices: MODES,
        describe: 'on: a block as soon as the pool holds a tx; off: manual; interval: a block every <seconds>; status',
      })
      .positional('seconds', { type: 'string', describe: 'interval: seconds between blocks (0: no interval)' })
      .option('run', { type: 'string', describe: 'which run, when several are up' })
      .option('json', { type: 'boolean', default: false, describe: 'print the mode as JSON' })
      .check((a) => {
        if (a.mode === 'interval' && a.seconds === undefined)
          throw new Error('say how often: `saltnet automine interval 5` (seconds; 0 ends the interval)');
        if (a.mode !== 'interval' && a.seconds !== undefined)
          throw new Error(`${a.seconds}: only \`saltnet automine interval <seconds>\` takes a number`);
        return true;
      }),
  handler: (argv) => automine(argv),
};

/** The change a command line asks for (undefined: none, only the mode). */
export function changeOf(a: Pick<AutomineArgs, 'mode' | 'seconds'>): AutomineChange | undefined {
  if (a.mode === 'on') return { mineOnTx: true };
  if (a.mode === 'off') return 'off';
  if (a.mode === 'interval') return { blockTime: numberOrThrow('<seconds>', a.seconds, NUMBER_RULES.blockTime) };
  return undefined;
}

async function automine(argv: AutomineArgs): Promise<void> {
  const change = changeOf(argv);
  const { control } = pickControl(argv.run);
  const { mode } = await operate(control, 'automine', change === undefined ? {} : { change });
  process.stdout.write(argv.json ? `${JSON.stringify(mode)}\n` : `automine: ${describeAutomine(mode)}\n`);
}
