#!/usr/bin/env node
// The `saltnet` command.
import { hideBin } from 'yargs/helpers';
import { explain } from './errors.js';
import { saltnetCli } from './program.js';

// async: yargs' fail handler throws synchronously for a bad line; the catch below must see it too.
(async () => saltnetCli(hideBin(process.argv)).parseAsync())().catch((err: unknown) => {
  process.stderr.write(`saltnet: ${explain(err)}\n`);
  process.exit(1);
});
