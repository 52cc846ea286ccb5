// The reaper watchdog process (see reaper.ts): node reaper-main.js <runId> <ownerPid> <ownerStartTime>,
// with SALTNET_STATE_DIR set by the owner. Detached from the harness's session and stdio.
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { REAPER_GRACE_MS as GRACE_MS, REAPER_POLL_MS as POLL_MS } from './reaper.js';
import { isAlive, readRun, reapRun } from './registry.js';

const [runId, ownerPidText, ownerStartTime] = process.argv.slice(2);
const ownerPid = Number(ownerPidText);
if (!runId || !Number.isInteger(ownerPid)) {
  process.exitCode = 2;
} else {
  process.title = `saltnet-reaper ${runId}`;
  // Terminal signals are not ours to obey: only the owner's death or the record's removal end us.
  for (const sig of ['SIGINT', 'SIGHUP', 'SIGPIPE'] as const) process.on(sig, () => undefined);

  let busy = false;
  const check = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      const record = readRun(runId);
      if (!record || record.ownerPid !== ownerPid || record.owner.startTime !== ownerStartTime) process.exit(0);
      if (isAlive(ownerPid, ownerStartTime)) return;
      // A temporary workdir goes with the run (reapRun), unless the run asked to keep it: then the log says so, in it.
      // The log is written before the record goes: its removal says the reaping, log included, is done.
      const notes: string[] = [];
      const writeLog = (killed: string[]): void => {
        try {
          if (existsSync(record.workdir)) {
            const lines = [
              `owner ${ownerPid} of run ${runId} died; reaped: ${killed.join(', ') || 'nothing left'}`,
              ...notes,
            ];
            appendFileSync(
              join(record.workdir, 'saltnet-reaper.log'),
              lines.map((l) => `${new Date().toISOString()} ${l}\n`).join(''),
            );
          }
        } catch {
          /* best effort */
        }
      };
      await reapRun(record, { graceMs: GRACE_MS, log: (l) => notes.push(l), beforeRemove: writeLog });
      process.exit(0);
    } finally {
      busy = false;
    }
  };
  setInterval(() => void check(), POLL_MS);
  process.stdin.on('data', () => undefined);
  process.stdin.on('end', () => void check());
  process.stdin.on('error', () => void check());
  void check();
}
