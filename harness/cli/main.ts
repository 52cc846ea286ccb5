#!/usr/bin/env node
// The `saltnet` command.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { CONFIG_OPTION, configOption } from '../config/yargs.js';
import { applyConfig } from './config.js';
import { cacheCommand } from './cache.js';
import { diffCommand } from './diff.js';
import { doctorCommand } from './doctor.js';
import { downCommand } from './down.js';
import { explain } from './errors.js';
import { installCommand } from './install.js';
import { mineCommand } from './mine.js';
import { recordCommand } from './record.js';
import { reproCommand } from './repro.js';
import { runCommand } from './run.js';
import { snapshotCommand } from './snapshot.js';
import { statusCommand } from './status.js';
import { upCommand } from './up.js';

async function main(): Promise<void> {
  await yargs(hideBin(process.argv))
    .scriptName('saltnet')
    .usage('$0 <command> [options]\n\nA private, throwaway Salvium testnet.')
    .option('timeout-factor', { ...configOption('timeoutFactor'), global: true })
    .option('config', { ...CONFIG_OPTION, global: true })
    .middleware(applyConfig)
    .command(upCommand)
    .command(downCommand)
    .command(statusCommand)
    .command(mineCommand)
    .command(doctorCommand)
    .command(runCommand)
    .command(diffCommand)
    .command(reproCommand)
    .command(recordCommand)
    .command(cacheCommand)
    .command(snapshotCommand)
    .command(installCommand)
    .demandCommand(
      1,
      'say what to do: saltnet up | down | status | mine | run | diff | repro | record | cache | snapshot | install | doctor',
    )
    .strict()
    .fail((msg, err) => {
      throw err ?? new Error(msg);
    })
    .help()
    .parseAsync();
}

main().catch((err: unknown) => {
  process.stderr.write(`saltnet: ${explain(err)}\n`);
  process.exit(1);
});
