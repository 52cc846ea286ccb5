// A testnet's workdir has one writer: the `up` (or run, or library call) that holds its lock
// (`<workdir>/.saltnet-lock`, process/owner-lock.ts). A second one is refused at once, naming the
// holder; the lock of a holder that died is taken over.
//
// And the workdir must stay where it was: removed (or replaced by another folder) under a running
// testnet, its programs would be started again on nothing — an empty chain at height 1 that looks
// healthy. So the guard looks every second; once the folder is gone it says so, no program is
// started again, and the testnet stops.
import { statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import { takeOwnerLock, type OwnerLock } from '../process/owner-lock.js';
import { WORKDIR_LOCK } from '../process/workdir.js';

/** How often the guard looks (not scaled: a poll interval). */
const WORKDIR_POLL_MS = 1000;

export interface WorkdirGuard {
  /** Why the workdir is not the one the testnet started in any more (gone, replaced, its lock lost), if so. */
  gone(): string | undefined;
  /** Stop looking and give the lock up. */
  release(): void;
}

const inode = (dir: string): string | undefined => {
  try {
    const st = statSync(dir);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
};

/**
 * Take the workdir's lock (LockedError naming the holder if another live process has it), then watch the folder:
 * `onGone` is told once, with why, when it disappears.
 */
export async function guardWorkdir(
  workdir: string,
  o: { given: boolean; runId: string; what: string; onGone: (why: string) => void },
): Promise<WorkdirGuard> {
  const label = o.given ? `--workdir ${workdir}` : `the workdir ${workdir}`;
  const lock: OwnerLock = await takeOwnerLock(join(workdir, WORKDIR_LOCK), label, { what: o.what, runId: o.runId });
  const was = inode(workdir);
  let told = false;
  const gone = (): string | undefined => {
    const now = inode(workdir);
    if (now === undefined) return `${label} was removed while the testnet ran`;
    if (now !== was) return `${label} was replaced by another folder while the testnet ran`;
    if (!lock.held()) return `the lock ${join(workdir, WORKDIR_LOCK)} was removed or taken while the testnet ran`;
    return undefined;
  };
  const timer = setInterval(() => {
    const why = gone();
    if (!why || told) return;
    told = true;
    o.onGone(why);
  }, WORKDIR_POLL_MS).unref();
  return {
    gone,
    release() {
      clearInterval(timer);
      lock.release();
    },
  };
}

/** What a run is in messages about its lock: `saltnet up`, `saltnet run`, or the program that uses the library. */
export function selfDescription(): string {
  const script = process.argv[1] ?? '';
  if (/[\\/](cli[\\/]main\.[jt]s|saltnet)$/.test(script)) return `saltnet ${process.argv[2] ?? ''}`.trim();
  return `${process.argv0} ${script}`.trim();
}

/** Less free space than this on the workdir's disk: full (a program that crashed on it would crash again). */
const FULL_BYTES = 1 << 20;

/** Why no program should be started again in `dir` for lack of space, if so. */
export function diskFull(dir: string): string | undefined {
  try {
    const s = statfsSync(dir);
    const free = s.bavail * s.bsize;
    if (free < FULL_BYTES) return `the disk of ${dir} is full (${free} bytes free): free some space`;
  } catch {
    /* gone: gone() says so */
  }
  return undefined;
}
