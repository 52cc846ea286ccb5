// The watchdog that makes "every process we started is gone" hold even when the harness itself is
// SIGKILLed (or OOM-killed, or its terminal vanishes): a tiny detached node process per run that
// watches the owner and reaps the run once the owner is dead.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { programFile } from '../common/bundle.js';
import { stateDir, selfStartTime } from './registry.js';

/**
 * The compiled watchdog script (its bundle, when fresh: common/bundle.ts). Like harness/sim/index.ts's SIM_BIN_DIR:
 * from dist/ it is the sibling file; from the TypeScript sources (vitest) it is the build in dist/ (the vitest global
 * setup builds it).
 */
export const REAPER_SCRIPT = programFile(
  fileURLToPath(
    new URL(
      // ../process/: the same file from the saltnet CLI's bundle, one folder over (dist/harness/cli)
      import.meta.url.endsWith('.ts') ? '../../dist/harness/process/reaper-main.js' : '../process/reaper-main.js',
      import.meta.url,
    ),
  ),
);

/** How often the watchdog checks its owner and the run record. */
export const REAPER_POLL_MS = 250;
/** How long the watchdog lets a program handle SIGTERM before SIGKILL (fixed: the 5 s promise does not scale). */
export const REAPER_GRACE_MS = 2000;

export interface Reaper {
  /** The watchdog's pid. */
  readonly pid: number;
  /** Let the watchdog go (after the run record was removed it exits within one poll). */
  stop(): void;
}

/**
 * Start the watchdog of `runId` (whose record must already be written). It polls every 250 ms, and
 * also wakes at once when the pipe from its owner closes, i.e. when the owner dies: if the owner is
 * dead it reaps the run (SIGTERM, 2 s grace, SIGKILL to the trees) and exits; if the record is gone
 * (normal shutdown) it exits. It is detached, has no stdio of the harness and does not keep the
 * harness's event loop alive.
 */
export function startReaper(runId: string): Reaper {
  if (!existsSync(REAPER_SCRIPT))
    throw new Error(`saltnet reaper is not built (${REAPER_SCRIPT} is missing): run "npm run build"`);
  // NODE_OPTIONS could hold --inspect-brk or a loader meant for the harness, not for the watchdog.
  const env: NodeJS.ProcessEnv = { ...process.env, SALTNET_STATE_DIR: stateDir() };
  delete env['NODE_OPTIONS'];
  const child = spawn(process.execPath, [REAPER_SCRIPT, runId, String(process.pid), selfStartTime()], {
    detached: true,
    // stdin is a private pipe from us: EOF there means we are gone (or stop() was called).
    stdio: ['pipe', 'ignore', 'ignore'],
    env,
    cwd: '/',
  });
  child.on('error', () => undefined);
  child.stdin?.on('error', () => undefined);
  // It waits, mostly: its start (a node process) gives way to the programs a testnet's start is waiting for.
  if (child.pid !== undefined)
    try {
      setPriority(child.pid, 10);
    } catch {
      // a lower priority is a courtesy
    }
  child.unref();
  (child.stdin as unknown as Socket | null)?.unref?.();
  return {
    pid: child.pid ?? 0,
    stop() {
      child.stdin?.destroy();
    },
  };
}
