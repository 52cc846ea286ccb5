// `saltnet down`: stop running testnets (their `up` stops gracefully) and reap anything stale.
// Nothing is signalled that is not proven saltnet's: the owner of a run only when its start time and
// command line are the ones recorded, and a record that is not valid is reported and left alone.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandModule } from 'yargs';
import { mismatch } from '../process/identity.js';
import { ownerFile, reapRun, reapStale, scanRuns, type RunRecord } from '../process/registry.js';
import { scaled } from '../common/timeouts.js';
import { checkRunOption, ownerAlive } from './runs.js';

interface DownArgs {
  run?: string;
}

export const downCommand: CommandModule<object, DownArgs> = {
  command: 'down',
  describe: 'stop running testnets and reap stale processes',
  builder: (y) => y.option('run', { type: 'string', describe: 'only this run' }),
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
  const live = scanRuns().runs.filter((r) => ownerAlive(r) && (argv.run === undefined || r.runId === argv.run));
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
  if (stale.length === 0 && live.length === 0) say('nothing to stop');
}
