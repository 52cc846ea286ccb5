// What Linux's /proc says about a pid: its state, parent, process group and start time (field 22
// of /proc/<pid>/stat, in clock ticks since boot). A pid plus its start time names one process for
// good: a recycled pid has a later start time. Elsewhere (macOS) these return undefined and callers
// fall back to kill(pid, 0).
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  /** R running, S sleeping, D disk wait, T stopped (SIGSTOP), t stopped by a debugger, Z zombie, … */
  state: string;
  ppid: number;
  pgrp: number;
  startTime: string;
  /** CPU time used so far (user + system), in clock ticks (100 per second on Linux). */
  cpuTicks: number;
}

export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
  //  cutime cstime priority nice num_threads itrealvalue starttime ..."; comm may hold spaces and ')'.
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const f = text.slice(close + 2).split(' ');
  const [state, ppid, pgrp, startTime] = [f[0], f[1], f[2], f[19]];
  if (state === undefined || ppid === undefined || pgrp === undefined || startTime === undefined) return undefined;
  const cpuTicks = Number(f[11] ?? 0) + Number(f[12] ?? 0);
  return { pid, state, ppid: Number(ppid), pgrp: Number(pgrp), startTime, cpuTicks };
}

/** Field 22 of /proc/<pid>/stat, or undefined where there is no /proc (or the pid is gone). */
export function procStartTime(pid: number): string | undefined {
  return readStat(pid)?.startTime;
}

export function hasProcfs(): boolean {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
}

/** Every process /proc lists (empty without /proc). */
export function listProcesses(): ProcStat[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: ProcStat[] = [];
  for (const n of names) {
    if (!/^\d+$/.test(n)) continue;
    const st = readStat(Number(n));
    if (st) out.push(st);
  }
  return out;
}

/** The descendants of `pid` (children, grandchildren, …) with their start times, from /proc. */
export function descendants(pid: number): ProcStat[] {
  const all = listProcesses();
  const byParent = new Map<number, ProcStat[]>();
  for (const p of all) {
    const list = byParent.get(p.ppid);
    if (list) list.push(p);
    else byParent.set(p.ppid, [p]);
  }
  const out: ProcStat[] = [];
  const queue = [pid];
  const seen = new Set<number>([pid]);
  while (queue.length) {
    const parent = queue.shift()!;
    for (const c of byParent.get(parent) ?? []) {
      if (seen.has(c.pid)) continue;
      seen.add(c.pid);
      out.push(c);
      queue.push(c.pid);
    }
  }
  return out;
}

/** The pid of the debugger that traces `pid` (TracerPid of /proc/<pid>/status), 0 when none (or unknown). */
export function tracerPid(pid: number): number {
  try {
    return Number(/^TracerPid:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}
