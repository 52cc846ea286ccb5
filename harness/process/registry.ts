// The run registry: one JSON file per running testnet, naming the harness that owns it and every
// program it started (pid + start time), so that `saltnet down`, the next `saltnet up` and the
// reaper can find and kill what a dead harness left behind, and never a process that merely
// inherited a recycled pid.
import { readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { killTree, signal, signalGroup } from './kill.js';
import { descendants, hasProcfs, procStartTime, readStat, type ProcStat } from './procfs.js';
import { scaled } from '../common/timeouts.js';
import type { z } from 'zod';
import { isSameProcess, mismatch, runStrays } from './identity.js';
import { RUN_PROCESS, RUN_RECORD, recordProblem } from './run-record.js';
import { settleWorkdir } from './workdir.js';
import { makeDirs } from '../common/mkdir.js';

export { procStartTime } from './procfs.js';

/** A process of a run as recorded: its name, pid and identity (start time, program, arguments' hash). */
export type RunProcess = z.infer<typeof RUN_PROCESS>;

/** One run (one testnet) as recorded in the registry. */
export type RunRecord = z.infer<typeof RUN_RECORD>;

/**
 * The run registry's folder and where that choice came from: $SALTNET_STATE_DIR, else
 * $SALTNET_CACHE_DIR/runs, else $XDG_CACHE_HOME/saltnet/runs, else ~/.cache/saltnet/runs — the
 * `runs` folder of the cache folder saltnet uses by default. Only environment variables decide it
 * (never a flag or a config file), so that every command of a shell sees the same runs.
 */
export function resolveStateDir(env: NodeJS.ProcessEnv = process.env): { dir: string; source: string } {
  if (env['SALTNET_STATE_DIR']) return { dir: resolve(env['SALTNET_STATE_DIR']), source: 'env SALTNET_STATE_DIR' };
  if (env['SALTNET_CACHE_DIR'])
    return { dir: join(resolve(env['SALTNET_CACHE_DIR']), 'runs'), source: 'env SALTNET_CACHE_DIR (its runs folder)' };
  // The XDG spec says a relative $XDG_CACHE_HOME is invalid and must be ignored (as snapshot/cache-dir.ts does).
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg && isAbsolute(xdg))
    return { dir: join(xdg, 'saltnet', 'runs'), source: 'default ($XDG_CACHE_HOME/saltnet/runs)' };
  return {
    dir: join(env['HOME'] || homedir(), '.cache', 'saltnet', 'runs'),
    source: 'default (~/.cache/saltnet/runs)',
  };
}

/** The run registry's folder (created): see resolveStateDir. */
export function stateDir(): string {
  const { dir, source } = resolveStateDir();
  try {
    makeDirs(dir);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why =
      e.code === 'ENOTDIR' || e.code === 'EEXIST'
        ? 'a file is in the way'
        : e.code === 'EACCES' || e.code === 'EPERM'
          ? 'permission denied'
          : e.message;
    throw new Error(
      `cannot use ${dir} for the run registry (${source}): ${why}; set SALTNET_STATE_DIR to a folder you can write`,
      { cause: err },
    );
  }
  return dir;
}

const RUN_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Whether `runId` can name a run (and a file of the registry: no path separators, no leading dot). */
export function isRunId(runId: string): boolean {
  return RUN_ID.test(runId) && runId.length <= 200;
}

function checkRunId(runId: string): void {
  if (!isRunId(runId))
    throw new Error(`invalid run id ${JSON.stringify(runId)}: use letters, digits, '.', '_' and '-'`);
}

function runFile(runId: string): string {
  checkRunId(runId);
  return join(stateDir(), `${runId}.json`);
}

/** Write (atomically: a temporary file renamed over the record). */
export function writeRun(r: RunRecord): void {
  const file = runFile(r.runId);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(r, null, 2) + '\n', { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** The record of `runId`: valid, with a problem (a record saltnet did not write as it is), or none. */
export function readRunFile(runId: string): { record: RunRecord } | { problem: string } | undefined {
  let text: string;
  try {
    text = readFileSync(runFile(runId), 'utf8');
  } catch {
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'it is not JSON' };
  }
  const r = RUN_RECORD.safeParse(data);
  if (!r.success) return { problem: recordProblem(r.error) };
  if (r.data.runId !== runId) return { problem: `it names another run (${r.data.runId})` };
  return { record: r.data };
}

/** The valid record of `runId`, if there is one. */
export function readRun(runId: string): RunRecord | undefined {
  const r = readRunFile(runId);
  return r && 'record' in r ? r.record : undefined;
}

/** A file of the registry that is not a valid record: never acted upon, reported. */
export interface InvalidRun {
  file: string;
  problem: string;
}

/** Every valid record, oldest first, and the files that are not valid records. */
export function scanRuns(): { runs: RunRecord[]; invalid: InvalidRun[] } {
  const dir = stateDir();
  const runs: RunRecord[] = [];
  const invalid: InvalidRun[] = [];
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.json')) continue;
    const id = f.slice(0, -'.json'.length);
    const r = isRunId(id) ? readRunFile(id) : { problem: 'its name is not a run id' };
    if (r && 'record' in r) runs.push(r.record);
    else if (r) invalid.push({ file: join(dir, f), problem: r.problem });
  }
  runs.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  return { runs, invalid };
}

/** Every valid record, oldest first. */
export function listRuns(): RunRecord[] {
  return scanRuns().runs;
}

export function removeRun(runId: string): void {
  rmSync(runFile(runId), { force: true });
  rmSync(ownerFile(runId), { force: true });
}

/**
 * The file the owner of a run holds open while the run lives (`<runId>.owner` in the registry): proof that a pid is
 * the owner, beyond its start time and command line, before `saltnet down` signals it.
 */
export function ownerFile(runId: string): string {
  checkRunId(runId);
  return join(stateDir(), `${runId}.owner`);
}

/**
 * Whether `pid` is still the process we recorded: it exists, is not a zombie, and (when /proc and
 * `startTime` are available) started at `startTime`, i.e. the pid was not recycled.
 */
export function isAlive(pid: number, startTime?: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!hasProcfs()) return true;
  const st = readStat(pid);
  if (!st) return false; // exited between the two checks
  if (st.state === 'Z' || st.state === 'X') return false;
  return !startTime || st.startTime === startTime;
}

async function waitDead(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

export interface ReapOptions {
  graceMs?: number;
  /** Told where a temporary workdir was kept (the run asked to keep it), or that removing it failed. */
  log?: (line: string) => void;
  /**
   * Called with what was killed after the workdir is settled and before the record goes: whoever waits for the
   * record's removal (`saltnet down`, a test) then finds what this wrote (the reaper's log) already there.
   */
  beforeRemove?: (killed: string[]) => void;
}

/**
 * Stop every process of the run that is still alive and identical (pid and start time): SIGTERM to
 * all of them (last started first), then, after `graceMs` (default 5000, scaled) or as soon as all
 * have exited, SIGKILL to whatever is left of their trees and process groups. Then the run's
 * temporary workdir goes (unless the record says to keep it; a --workdir of the user's always
 * stays: see workdir.ts) and the record is removed.
 * Returns what was killed, e.g. ['wallet-rpc (pid 123)', 'daemon (pid 122)'].
 */
export async function reapRun(r: RunRecord, opts: ReapOptions = {}): Promise<string[]> {
  const grace = opts.graceMs ?? scaled(5000);
  // Only a process proven ours (start time and command line as recorded) is signalled; anything else is told.
  const targets: RunProcess[] = [];
  for (const p of [...r.processes].reverse()) {
    const why = mismatch(p.pid, p, r.runId);
    if (!why) targets.push(p);
    else if (why !== 'no such process' && why !== 'it has exited')
      opts.log?.(`saltnet: run ${r.runId}: pid ${p.pid} (${p.name}) is not signalled: ${why}`);
  }
  // Remember each tree now, while it is intact: once a parent dies its children hang off init.
  const trees = new Map<number, ProcStat[]>(targets.map((p) => [p.pid, descendants(p.pid)]));
  for (const p of targets) signal(p.pid, 'SIGTERM');
  const same = (p: RunProcess | ProcStat): boolean =>
    'argsHash' in p ? isSameProcess(p.pid, p, r.runId) : isAlive(p.pid, p.startTime);
  await waitDead(() => targets.every((p) => !same(p)), grace);
  for (const p of targets) {
    if (same(p)) await killTree(p.pid, 'SIGKILL');
    // Only signal the group and the remembered descendants of a process we verified above: a
    // process group id cannot be reused while the group has members.
    signalGroup(p.pid, 'SIGKILL');
    for (const d of trees.get(p.pid) ?? []) if (same(d)) signal(d.pid, 'SIGKILL');
  }
  await waitDead(() => targets.every((p) => !same(p)) && [...trees.values()].flat().every((d) => !same(d)), 2000);
  // What a program left outside its tree (a grandchild in a session of its own) carries the run's id.
  for (const pid of runStrays(r.runId)) signal(pid, 'SIGKILL');
  try {
    if (settleWorkdir(r) === 'kept')
      opts.log?.(`saltnet: run ${r.runId}: its workdir is kept for its logs: ${r.workdir}`);
  } catch (err) {
    opts.log?.(`saltnet: run ${r.runId}: cannot remove its temporary workdir ${r.workdir}: ${(err as Error).message}`);
  }
  const killed = targets.map((p) => `${p.name} (pid ${p.pid})`);
  opts.beforeRemove?.(killed);
  removeRun(r.runId);
  return killed;
}

/** Reap every run whose owning harness is dead (or a different process under a recycled pid). */
export async function reapStale(opts: ReapOptions = {}): Promise<RunRecord[]> {
  const stale = listRuns().filter((r) => !isAlive(r.ownerPid, r.owner.startTime));
  for (const r of stale) await reapRun(r, opts);
  return stale;
}

/** This process's own start time. */
export function selfStartTime(): string {
  return procStartTime(process.pid) ?? '';
}
