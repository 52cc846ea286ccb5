// `saltnet down`: stop the running testnets of `saltnet up` (gracefully) and reap anything stale. A test run (a
// scenario run, a vitest fixture, `diff`, `fuzz`: perhaps another project's, on a shared machine) ends with its
// command and is left alone unless named (`--run`) or `--all` is given. Nothing is signalled that is not proven
// saltnet's: the owner of a run only when its start time and command line are the ones recorded, and a record that is
// not valid is reported and left alone.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandModule } from 'yargs';
import { mismatch } from '../process/identity.js';
import { ownerFile, reapRun, reapStale, scanRuns, type RunRecord } from '../process/registry.js';
import { scaled } from '../common/timeouts.js';
import { checkRunOption, isUpRun, ownerAlive } from './runs.js';

interface DownArgs {
  run?: string;
  all?: boolean;
}

export const downCommand: CommandModule<object, DownArgs> = {
  command: 'down',
  describe: 'stop running testnets and reap stale processes',
  builder: (y) =>
    y
      .option('run', { type: 'string', describe: 'only this run (a test run too)' })
      .option('all', { type: 'boolean', describe: 'test runs too (scenario runs, vitest fixtures, diff, fuzz)' })
      .conflicts('run', 'all'),
  handler: (argv) => down(argv),
};

const say = (l: string): void => void process.stdout.write(`${l}\n`);

/** Signal the owner of `r` when it is the process recorded; else say why not. */
function signalOwner(r: RunRecord, sig: NodeJS.Signals): boolean {
  const why = mismatch(r.ownerPid, r.owner, { holds: ownerFile(r.runId) });
  if (why) {
    if (ownerAlive(r)) say(`saltnet: run ${r.runId}: its owner pid ${r.ownerPid} is not signalled: ${why}`);
    return false;
  }
  try {
    process.kill(r.ownerPid, sig);
    return true;
  } catch {
    return false; // it exited between the check and the signal
  }
}

async function down(argv: DownArgs): Promise<void> {
  checkRunOption(argv.run);
  for (const bad of scanRuns().invalid)
    say(
      `saltnet: ${bad.file} is not a valid run record (${bad.problem}): nothing of it is signalled; remove it by hand`,
    );
  const stale = await reapStale({ log: say });
  for (const r of stale) say(`reaped stale run ${r.runId} (its saltnet had died)`);
  const running = scanRuns().runs.filter(ownerAlive);
  const live = running.filter((r) => (argv.run === undefined ? argv.all === true || isUpRun(r) : r.runId === argv.run));
  const tests = argv.run === undefined && argv.all !== true ? running.filter((r) => !isUpRun(r)) : [];
  if (argv.run !== undefined && live.length === 0 && !stale.some((r) => r.runId === argv.run)) {
    throw new Error(`no run ${argv.run}; \`saltnet status\` lists them`);
  }
  for (const r of live) {
    if (!signalOwner(r, 'SIGTERM')) continue;
    // A graceful stop saves the wallets; give it time (scaled by --timeout-factor) before killing.
    const t0 = Date.now();
    while (ownerAlive(r) && Date.now() - t0 < scaled(60_000)) await sleep(100);
    if (ownerAlive(r)) {
      signalOwner(r, 'SIGKILL');
      await reapRun(r, { log: say });
    } else if (scanRuns().runs.some((x) => x.runId === r.runId)) {
      await reapRun(r, { log: say });
    }
    say(`stopped run ${r.runId}`);
  }
  if (tests.length)
    say(
      `saltnet: left ${tests.length} test ${tests.length === 1 ? 'run' : 'runs'} alone (${tests.map((r) => r.runId).join(', ')}): each ends with its command; \`saltnet down --all\` stops ${tests.length === 1 ? 'it' : 'them'} too`,
    );
  if (stale.length === 0 && live.length === 0) say('nothing to stop');
}
