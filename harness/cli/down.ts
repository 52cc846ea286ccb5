// `saltnet down`: stop running testnets (their `up` stops gracefully) and reap anything stale.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandModule } from 'yargs';
import { reapRun, reapStale, listRuns } from '../process/registry.js';
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

async function down(argv: DownArgs): Promise<void> {
  checkRunOption(argv.run);
  const say = (l: string): void => void process.stdout.write(`${l}\n`);
  const stale = await reapStale({ log: say });
  for (const r of stale) say(`reaped stale run ${r.runId} (its saltnet had died)`);
  const live = listRuns().filter((r) => ownerAlive(r) && (argv.run === undefined || r.runId === argv.run));
  if (argv.run !== undefined && live.length === 0 && !stale.some((r) => r.runId === argv.run)) {
    throw new Error(`no run ${argv.run}; \`saltnet status\` lists them`);
  }
  for (const r of live) {
    try {
      process.kill(r.ownerPid, 'SIGTERM');
    } catch {
      /* it exited between the check and the signal */
    }
    // A graceful stop saves the wallets; give it time (scaled by --timeout-factor) before killing.
    const t0 = Date.now();
    while (ownerAlive(r) && Date.now() - t0 < scaled(60_000)) await sleep(100);
    if (ownerAlive(r)) {
      try {
        process.kill(r.ownerPid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
      await reapRun(r, { log: say });
    } else if (listRuns().some((x) => x.runId === r.runId)) {
      await reapRun(r, { log: say });
    }
    process.stdout.write(`stopped run ${r.runId}\n`);
  }
  if (stale.length === 0 && live.length === 0) process.stdout.write('nothing to stop\n');
}
