// Sending signals to a process, its tree and its process group, ignoring the ones already gone.
// Every program the harness starts leads its own process group (spawned detached), so a signal to
// the group also reaches grandchildren that were re-parented after their parent died.
import treeKill from 'tree-kill';
import { descendants, readStat } from './procfs.js';

/** process.kill() that treats "no such process" as done. Returns whether a signal was delivered. */
export function signal(pid: number, sig: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false; // ESRCH (gone) or EPERM (not ours)
  }
}

/** Signal the process group led by `pgid` (a harness child's pid). */
export function signalGroup(pgid: number, sig: NodeJS.Signals): boolean {
  if (!Number.isInteger(pgid) || pgid <= 1) return false;
  return signal(-pgid, sig);
}

/**
 * `sig` to `pid` and all its descendants (tree-kill, which walks the tree with `ps`; /proc if that
 * fails), then to its process group. Resolves once the signals are sent, not once they are dead.
 */
export async function killTree(pid: number, sig: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!Number.isInteger(pid) || pid <= 1) return;
  // Snapshot the tree from /proc first: tree-kill sends its signals only after `ps` answered, and
  // by then a dying parent's children may already hang off init.
  const snapshot = descendants(pid);
  await new Promise<void>((resolve) => {
    try {
      treeKill(pid, sig, () => resolve());
    } catch {
      resolve();
    }
  });
  signal(pid, sig);
  for (const d of snapshot) if (readStat(d.pid)?.startTime === d.startTime) signal(d.pid, sig);
  signalGroup(pid, sig);
}
