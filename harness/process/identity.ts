// Who a pid is: proven before saltnet sends it a signal. A pid alone names nobody for long (pids are
// recycled), and a record in the run registry may be stale, half-written or crafted; so saltnet
// records for each process it starts (and for itself, the owner) its start time and its command
// line, and signals a pid only when both still match.
//
// The command line is recorded as the program's name and a hash of its arguments: what runs may
// show the arguments after an interpreter (`node bin/salviumd --testnet …`, a script's `#!`) or a
// launcher, so a live process matches when its argument list ends with the recorded arguments and
// the program's name is one of the words before them. Only the hash is kept: a command line never
// lands in the registry in clear (it could hold a path a user would rather not share; no secret goes
// on a command line anyway).
//
// Linux reads /proc/<pid>/stat and /proc/<pid>/cmdline. Elsewhere `ps` gives the start time and the
// command as one string (matched the same way, on words).
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { hasProcfs, readStat } from './procfs.js';

/** What saltnet records of a process it started (or of itself) to know it again. */
export interface ProcessIdentity {
  /** Field 22 of /proc/<pid>/stat (clock ticks since boot), or `ps -o lstart` where there is no /proc. */
  startTime: string;
  /** The program's file name (`salviumd`, `node`). */
  exe: string;
  /** How many arguments follow it, and their hash (sha256 of the arguments joined by NUL). */
  argc: number;
  argsHash: string;
}

const hashArgs = (args: readonly string[]): string => createHash('sha256').update(args.join('\0')).digest('hex');

interface Seen {
  state: string;
  startTime: string;
  argv: string[];
}

function psField(pid: number, field: string): string | undefined {
  try {
    const out = execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    return out.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The process under `pid` now: its state, start time and arguments; undefined when there is none. */
function look(pid: number): Seen | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (hasProcfs()) {
    const st = readStat(pid);
    if (!st) return undefined;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      return undefined;
    }
    if (argv.at(-1) === '') argv.pop();
    return { state: st.state, startTime: st.startTime, argv };
  }
  const startTime = psField(pid, 'lstart');
  const command = psField(pid, 'command');
  if (!startTime || command === undefined) return undefined;
  // `ps` joins the words with spaces: compared word by word, as well as that allows.
  return { state: psField(pid, 'state')?.[0] ?? 'S', startTime, argv: command.split(' ') };
}

/**
 * What a process started as `command args` runs once it is going: `nice [-n N] program args…` (a full-mode daemon,
 * testnet/programs/daemon.ts) execs the program, in the same process, under the same start time: known by that command
 * line.
 */
export function execTarget(command: string, args: readonly string[]): [string, readonly string[]] {
  if (basename(command) !== 'nice') return [command, args];
  const skip = args[0] === '-n' ? 2 : /^(-n?-?\d+|--adjustment=.*)$/.test(args[0] ?? '') ? 1 : 0;
  return args.length > skip ? [args[skip]!, args.slice(skip + 1)] : [command, args];
}

/** The identity of a process just started as `command args` (see execTarget). Undefined when it is already gone. */
export function identityOfStarted(pid: number, command: string, args: readonly string[]): ProcessIdentity | undefined {
  const seen = look(pid);
  if (!seen) return undefined;
  const [exe, argv] = execTarget(command, args);
  return { startTime: seen.startTime, exe: basename(exe), argc: argv.length, argsHash: hashArgs(argv) };
}

/** The identity of the process under `pid` as it runs now (its whole command line); undefined when there is none. */
export function identityOf(pid: number): ProcessIdentity | undefined {
  const seen = look(pid);
  if (!seen || seen.argv.length === 0) return undefined;
  return {
    startTime: seen.startTime,
    exe: basename(seen.argv[0]!),
    argc: seen.argv.length - 1,
    argsHash: hashArgs(seen.argv.slice(1)),
  };
}

/** This process's own identity (the owner of a run). */
export function selfIdentity(): ProcessIdentity {
  const id = identityOf(process.pid);
  if (id) return id;
  const argv = [process.execPath, ...process.argv.slice(1)];
  return { startTime: '?', exe: basename(process.execPath), argc: argv.length - 1, argsHash: hashArgs(argv.slice(1)) };
}

/** The environment variable every program of a run is started with (its value: the run id). */
export const RUN_ENV = 'SALTNET_RUN';

/** Whether /proc says `pid` was started with RUN_ENV=runId (true where there is no /proc to ask). */
function startedFor(pid: number, runId: string): boolean {
  if (!hasProcfs()) return true;
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`${RUN_ENV}=${runId}`);
  } catch {
    return false;
  }
}

/**
 * Every process started for the run but this one (its programs, and anything they left behind: a child that escaped
 * to a session of its own, `setsid`, inherits RUN_ENV), by /proc (none without it).
 */
export function runStrays(runId: string): number[] {
  if (!hasProcfs()) return [];
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  return names
    .filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid)
    .map(Number)
    .filter((pid) => startedFor(pid, runId));
}

/** Whether /proc says `pid` holds `file` open (true where there is no /proc to ask). */
function holds(pid: number, file: string): boolean {
  if (!hasProcfs()) return true;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** What proves a process of a run beyond its identity: the run marker it was started with, or a file it holds open. */
export type Proof = { runId: string } | { holds: string };

/**
 * Why the process under `pid` is not the one `id` describes; undefined when it is: alive, the same start time, the
 * same command line, and the `proof` (a program of a run: started with RUN_ENV set to that run; the owner of a run:
 * holding its owner file open, see registry.ts).
 */
export function mismatch(pid: number, id: ProcessIdentity, proof?: Proof | string): string | undefined {
  const p: Proof | undefined = typeof proof === 'string' ? { runId: proof } : proof;
  const seen = look(pid);
  if (!seen) return 'no such process';
  if (seen.state === 'Z' || seen.state === 'X') return 'it has exited';
  if (seen.startTime !== id.startTime) return `it started at ${seen.startTime}, not ${id.startTime} (another process)`;
  const n = seen.argv.length - id.argc;
  if (n < 1 || hashArgs(seen.argv.slice(n)) !== id.argsHash) return 'its command line is not the one recorded';
  if (!seen.argv.slice(0, n).some((w) => basename(w) === id.exe)) return `it does not run ${id.exe}`;
  if (p && 'runId' in p && !startedFor(pid, p.runId)) return `it was not started by run ${p.runId}`;
  if (p && 'holds' in p && !holds(pid, p.holds)) return `it does not hold ${p.holds} open (not the run's owner)`;
  return undefined;
}

/** Whether the process under `pid` is the one `id` describes (see mismatch). */
export function isSameProcess(pid: number, id: ProcessIdentity, proof?: Proof | string): boolean {
  return mismatch(pid, id, proof) === undefined;
}
