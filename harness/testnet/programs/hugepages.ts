// Huge pages for RandomX's full mode. salviumd asks for its dataset, caches and scratchpads in huge
// pages first and falls back to normal pages when the kernel has none reserved (rx-slow-hash.c:
// RANDOMX_FLAG_LARGE_PAGES, then without). With them, a full-mode miner hashes about 1.5× faster and
// builds its dataset sooner. Measured on real v1.1.3c, two cores, difficulty 500, two threads: 331 H/s
// and the first block 55 s after start without; 514 H/s and 44 s with 1300 pages reserved. One such
// daemon took 1299 pages of 2 MiB (docs/difficulty.md#huge-pages). saltnet never reserves them itself:
// that is the machine's setting (`sysctl vm.nr_hugepages`), and it only says what it finds.
import { readFileSync } from 'node:fs';

/** The kernel's huge page pool, from /proc/meminfo. */
export interface HugePages {
  total: number;
  free: number;
  /** The size of one page in KiB (2048 on x86-64). */
  sizeKiB: number;
}

/** 2 MiB pages one full-mode daemon takes (1299 measured, mining with two threads; its 2080 MiB dataset is 1040). */
export const PAGES_PER_FULL_DAEMON = 1300;

/** The huge page pool, or undefined where there is none to read (not Linux). */
export function readHugePages(meminfo = '/proc/meminfo'): HugePages | undefined {
  let text: string;
  try {
    text = readFileSync(meminfo, 'utf8');
  } catch {
    return undefined;
  }
  const field = (name: string): number | undefined => {
    const m = new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : undefined;
  };
  const total = field('HugePages_Total');
  const free = field('HugePages_Free');
  const sizeKiB = field('Hugepagesize');
  if (total === undefined || free === undefined || sizeKiB === undefined) return undefined;
  return { total, free, sizeKiB };
}

/** Huge pages of this size the processes hold (/proc/<pid>/status, HugetlbPages); one gone or unreadable: 0. */
export function heldPages(pids: readonly number[], sizeKiB: number, proc = '/proc'): number {
  let kib = 0;
  for (const pid of pids) {
    try {
      const m = /^HugetlbPages:\s+(\d+) kB/m.exec(readFileSync(`${proc}/${pid}/status`, 'utf8'));
      kib += m ? Number(m[1]) : 0;
    } catch {
      // gone, or not Linux
    }
  }
  return Math.floor(kib / sizeKiB);
}

/**
 * The pool as our own daemons found it: the pages they hold already count as free (a daemon takes its pages as it
 * starts, before the testnet says how it mines).
 */
export function poolBefore(hp: HugePages | undefined, pids: readonly number[], proc = '/proc'): HugePages | undefined {
  return hp && { ...hp, free: Math.min(hp.total, hp.free + heldPages(pids, hp.sizeKiB, proc)) };
}

/** Pages of this size that `daemons` full-mode daemons take. */
export function pagesFor(daemons: number, sizeKiB = 2048): number {
  return Math.ceil((daemons * PAGES_PER_FULL_DAEMON * 2048) / sizeKiB);
}

/**
 * What `up` says about huge pages when its daemons mine in full mode: enough free for all of them, for some, or none
 * (then how to reserve them). Undefined where the machine has no huge page pool to read.
 */
export function hugePagesNote(daemons: number, hp: HugePages | undefined): string | undefined {
  if (!hp) return undefined;
  const need = pagesFor(daemons, hp.sizeKiB);
  const each = pagesFor(1, hp.sizeKiB);
  const fit = Math.floor(hp.free / each);
  const daemonsText = (n: number): string => `${n} full-mode daemon${n === 1 ? '' : 's'}`;
  if (fit >= daemons) return `huge pages: ${hp.free} free, enough for ${daemonsText(fit)}`;
  const reserve = `sudo sysctl -w vm.nr_hugepages=${hp.total - hp.free + need}`;
  if (fit > 0) return `huge pages: ${hp.free} free, enough for ${daemonsText(fit)} of ${daemons} (${reserve} for all)`;
  return `no huge pages free: RandomX hashes ~1.5x faster with them (${reserve}; docs/difficulty.md#huge-pages)`;
}
