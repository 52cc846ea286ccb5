// `saltnet ui`: the explorer of a running testnet. The `up` that owns the testnet serves it (once:
// `saltnet up --ui` may have started it already) and this prints its address.
import type { CommandModule } from 'yargs';
import { requestUi } from '../control/client.js';
import { pickRun, runInfo } from './runs.js';

interface UiArgs {
  run?: string;
  uiPort?: number;
  json: boolean;
}

export const uiPortOption = {
  type: 'number',
  describe: 'serve the explorer on this port of 127.0.0.1 (default: a free one)',
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
  const r = pickRun(argv.run);
  const info = runInfo(r);
  if (!info.control)
    throw new Error(
      `run ${r.runId} has no control endpoint (it is still starting, or an older saltnet started it); try again when \`saltnet up\` says it is up`,
    );
  const { url } = await requestUi(info.control, argv.uiPort !== undefined ? { port: argv.uiPort } : {});
  process.stdout.write(
    argv.json ? `${JSON.stringify({ url })}\n` : `explorer: ${url}\n(read-only; it lives as long as the testnet)\n`,
  );
}
