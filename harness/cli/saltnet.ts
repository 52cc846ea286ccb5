// The `saltnet` command, as main.js (its launcher) runs it: bundled by the build, or as tsc wrote it.
import { hideBin } from 'yargs/helpers';
import { explain } from './errors.js';
import { saltnetCli } from './program.js';

// A command whose work can never finish (it awaits a promise nothing will settle) would let Node exit 0 with
// nothing done: a silent pass in CI. Its event loop emptying before the command ended is a failure.
let finished = false;
let idle = 0;
process.on('beforeExit', () => {
  if (finished) return;
  // Once, give the other listeners' consequences a turn (a config file's load fails with its own message).
  if (idle++ === 0) return void setImmediate(() => undefined);
  process.stderr.write(
    'saltnet: the command stopped before it finished: it was waiting for something that can never happen (exit 1)\n',
  );
  process.exit(1);
});

// async: yargs' fail handler throws synchronously for a bad line; the catch below must see it too.
(async () => saltnetCli(hideBin(process.argv)).parseAsync())().then(
  () => {
    finished = true;
  },
  (err: unknown) => {
    finished = true;
    process.stderr.write(`saltnet: ${explain(err)}\n`);
    process.exit(1);
  },
);
