// `saltnet operate <name> [body]`: any operation of a running testnet (harness/operations/), by its name, with its
// request body as JSON; prints the answer as JSON. The commands of their own (mine, fund, partition, …) say the same
// things in words; this one reaches every operation, those a fork registers included, from a script.
import type { CommandModule } from 'yargs';
import { operate } from '../control/client.js';
import { operations } from '../operations/index.js';
import { suggest } from '../common/suggest.js';
import { pickControl } from './runs.js';

interface OperateArgs {
  name: string;
  body?: string;
  run?: string;
}

export const operateCommand: CommandModule<object, OperateArgs> = {
  command: 'operate <name> [body]',
  describe: 'ask the running testnet for one of its operations by name, its request body as JSON; prints the answer',
  builder: (y) =>
    y
      .positional('name', { type: 'string', demandOption: true, describe: 'mine, fund, automine, partition, …' })
      .positional('body', { type: 'string', describe: 'the request body, a JSON object (default {})' })
      .option('run', { type: 'string', describe: 'which run, when several are up' }),
  handler: (argv) => operateOnRun(argv),
};

async function operateOnRun(a: OperateArgs): Promise<void> {
  const names = operations().map((op) => op.name);
  if (!names.includes(a.name)) {
    const near = suggest(a.name, names);
    throw new Error(
      `no operation ${a.name}${near ? ` (did you mean ${near}?)` : ''}; the operations are ${names.join(', ')}`,
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(a.body ?? '{}');
  } catch (err) {
    throw new Error(`<body> must be a JSON object, e.g. '{"blocks": 2}': ${(err as Error).message}`, { cause: err });
  }
  const { control } = pickControl(a.run);
  process.stdout.write(`${JSON.stringify(await operate(control, a.name, body))}\n`);
}
