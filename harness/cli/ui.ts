// `saltnet ui`: the explorer of a running testnet. The `up` that owns the testnet serves it (once:
// `saltnet up --ui` may have started it already) and this prints its address.
import type { CommandModule } from 'yargs';
import { parseNumberText } from '../config/numbers.js';
import { operate } from '../control/client.js';
import { pickControl } from './runs.js';

interface UiArgs {
  run?: string;
  uiPort?: number;
  json: boolean;
}

const PORT = { whole: true, min: 1, max: 65535 } as const;

/** `--ui-port`'s value: a TCP port, or an error that says so and shows what was given. */
export function uiPort(v: unknown): number {
  if (Array.isArray(v)) throw new Error(`--ui-port is given ${v.length} times; give it once`);
  const r = parseNumberText(String(v), PORT);
  if ('problem' in r)
    throw new Error(`--ui-port needs a port number from 1 to 65535, got ${JSON.stringify(String(v))}`);
  return r.value;
}

export const uiPortOption = {
  type: 'string',
  describe: 'serve the explorer on this port of 127.0.0.1 (a port number from 1 to 65535; default: a free one)',
  coerce: uiPort,
} as const;

export const uiCommand: CommandModule<object, UiArgs> = {
  command: 'ui',
  describe: "serve the running testnet's explorer (a live page of its chain, pool, tokens, wallets and programs)",
  builder: (y) =>
    y
      .option('run', { type: 'string', describe: 'which run, when several are up' })
      .option('ui-port', uiPortOption)
      .option('json', { type: 'boolean', default: false, describe: 'print {"url": …} as JSON' }),
  handler: (argv) => ui(argv),
};

async function ui(argv: UiArgs): Promise<void> {
  const { control } = pickControl(argv.run);
  const { url } = await operate(control, 'ui', argv.uiPort !== undefined ? { port: argv.uiPort } : {});
  process.stdout.write(
    argv.json ? `${JSON.stringify({ url })}\n` : `explorer: ${url}\n(read-only; it lives as long as the testnet)\n`,
  );
}
