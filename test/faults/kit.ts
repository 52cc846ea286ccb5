// The fault-injection suite's machinery: a folder per case, `saltnet` run as a user runs it (every
// process it starts marked, so that whatever is left is found and counted), `up` until ready,
// the programs of a run found through the registry, a small disk, and the counts the suite prints.
//
// Each case runs in a folder of its own that is also its HOME, TMPDIR, state dir and (unless it
// needs another) cache dir: everything saltnet writes belongs there, or to a folder the case named.
// What the suite counts:
// - hangs: a command that did not end within its bound, or a case that did not;
// - stack traces: a JavaScript stack frame in anything saltnet printed;
// - data lost: what a case found missing after the fault (blocks, a wallet, a stored file);
// - files outside their folders: a file created, changed or removed in the suite's `outside`
//   folder (its canaries, and the targets of the symbolic links cases lay), or a path saltnet
//   reported (a workdir, a log, an archive) that is not under the case's folder;
// - foreign processes signalled: `sleep` processes saltnet never started, named by crafted
//   registries and locks, that are gone at the end.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa, type Result, type ResultPromise } from 'execa';
import { CLI } from '../cli/helpers.js';

/** A JavaScript stack frame (`    at fn (/x/y.js:1:2)`, `    at node:internal/…`), not a scenario location. */
export const STACK = /^\s+at (?:.+ \()?(?:file:\/\/|node:|\/)[^\s]*\.[cm]?[jt]s:\d+:\d+\)?$/m;

export type FaultKind =
  | 'freeze'
  | 'kill'
  | 'interrupt'
  | 'disk'
  | 'workdir'
  | 'ports'
  | 'writers'
  | 'registry'
  | 'half-sent'
  | 'config'
  | 'archive';

export interface FaultCase {
  id: string;
  kind: FaultKind;
  /** The longest the whole case may take before it counts as a hang (default 60 s). */
  boundMs?: number;
  /** Runs the fault; throws (an expect) where saltnet misbehaves. */
  run(ctx: FaultContext): Promise<void>;
}

export interface Counts {
  cases: number;
  hangs: number;
  stackTraces: number;
  dataLost: number;
  filesOutside: number;
  foreignSignalled: number;
}

export const counts: Counts = {
  cases: 0,
  hangs: 0,
  stackTraces: 0,
  dataLost: 0,
  filesOutside: 0,
  foreignSignalled: 0,
};

export interface CliResult {
  code: number | undefined;
  /** stdout and stderr interleaved. */
  out: string;
  stdout: string;
  ms: number;
}

export interface Up {
  proc: ResultPromise;
  /** Its ready line (once whenReady resolved). */
  ready: any;
  /** Wait for the ready line (rejects when it exits first, or after `ms`). */
  whenReady(ms?: number): Promise<any>;
  /** Everything it printed on stderr so far. */
  err(): string;
  /** The JSON lines after the ready line (its events), so far. */
  events(): any[];
  /** Resolves once stderr matches `re` (or rejects after `ms`). */
  waitErr(re: RegExp, ms?: number): Promise<string>;
  /** Resolves with the first event `pred` accepts. */
  waitEvent(pred: (e: any) => boolean, ms?: number): Promise<any>;
  /** Its exit (after a fault that ends it). */
  exit(ms?: number): Promise<{ code: number | undefined; signal: string | undefined }>;
}

/** The folder the suite's cases share: `outside` (canaries nothing may touch) and a warm chain cache. */
export interface Suite {
  root: string;
  outside: string;
  cache: string;
  foreign: number[];
  mark: string;
}

export class FaultContext {
  readonly dir: string;
  readonly env: Record<string, string>;
  private readonly outputs: string[] = [];
  private readonly running: ResultPromise[] = [];

  constructor(
    readonly suite: Suite,
    readonly id: string,
    index: number,
  ) {
    this.dir = join(suite.root, `case-${index}`);
    for (const d of ['home', 'tmp', 'state']) mkdirSync(join(this.dir, d), { recursive: true });
    this.env = {
      HOME: join(this.dir, 'home'),
      TMPDIR: join(this.dir, 'tmp'),
      SALTNET_STATE_DIR: join(this.dir, 'state'),
      SALTNET_CACHE_DIR: suite.cache,
      SALTNET_FAULT_MARK: `${suite.mark}-${index}`,
      CI: '1',
      NO_COLOR: '1',
    };
  }

  /** Everything saltnet printed in this case (the suite looks for stack traces in it). */
  printed(): string[] {
    return [...this.outputs];
  }

  /** `saltnet <args>` in the case's folder (under `wrap`, a command and its arguments, if given), started. */
  private launch(args: string[], o: { env?: Record<string, string>; timeoutMs?: number; wrap?: string[] }) {
    const [cmd, ...pre] = [...(o.wrap ?? []), process.execPath];
    return execa(cmd!, [...pre, CLI, ...args], {
      cwd: this.dir,
      env: { ...this.env, ...o.env },
      extendEnv: true,
      reject: false,
      all: true,
      timeout: o.timeoutMs ?? HANG_MS,
    });
  }

  /** How a launched command ended: its CliResult, or a hang (counted) when it ran past `timeoutMs`. */
  private ended(args: string[], o: { timeoutMs?: number }, r: Result, t0: number): CliResult {
    const out = String(r.all ?? '');
    this.outputs.push(out);
    if (r.timedOut) {
      counts.hangs++;
      throw new Error(`saltnet ${args.join(' ')} hung (still running after ${o.timeoutMs ?? HANG_MS} ms):\n${out}`);
    }
    return { code: r.exitCode, out, stdout: String(r.stdout ?? ''), ms: Date.now() - t0 };
  }

  /** `saltnet <args>` in the case's folder; a command still running after `timeoutMs` is a hang (and killed). */
  async cli(
    args: string[],
    o: { env?: Record<string, string>; timeoutMs?: number; wrap?: string[] } = {},
  ): Promise<CliResult> {
    const t0 = Date.now();
    return this.ended(args, o, await this.launch(args, o), t0);
  }

  /**
   * `saltnet <args>` in the case's folder, started (to signal it while it runs); its end is a CliResult, a hang
   * (counted) after `timeoutMs`.
   */
  startCli(
    args: string[],
    o: { env?: Record<string, string>; timeoutMs?: number } = {},
  ): { proc: ResultPromise; stderr(): string; result: Promise<CliResult> } {
    const t0 = Date.now();
    const proc = this.launch(args, o);
    this.running.push(proc);
    let err = '';
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    return { proc, stderr: () => err, result: proc.then((r) => this.ended(args, o, r, t0)) };
  }

  /** `saltnet up <args> --json` (sim, height 30, nothing unlocked unless given), until its ready line. */
  async up(
    args: string[] = [],
    o: { env?: Record<string, string>; timeoutMs?: number; wrap?: string[] } = {},
  ): Promise<Up> {
    const u = this.start(args, o);
    await u.whenReady(o.timeoutMs);
    return u;
  }

  /** `saltnet up <args> --json` (sim, height 30, nothing unlocked unless given), started: it may not be ready yet. */
  start(args: string[] = [], o: { env?: Record<string, string>; wrap?: string[] } = {}): Up {
    const [cmd, ...pre] = [...(o.wrap ?? []), process.execPath];
    const defaults = ['--height', '30', '--unlocked', '0'].filter(
      (a, i, all) => !args.includes(a.startsWith('--') ? a : all[i - 1]!),
    );
    const proc = execa(cmd!, [...pre, CLI, 'up', '--backend', 'sim', ...defaults, ...args, '--json'], {
      cwd: this.dir,
      env: { ...this.env, ...o.env },
      reject: false,
      buffer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    });
    this.running.push(proc);
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    let exited: { code: number | undefined; signal: string | undefined } | undefined;
    void proc.then((r) => {
      exited = { code: r.exitCode, signal: r.signal };
      this.outputs.push(`${out}\n${err}`);
    });
    const lines = (): string[] => out.split('\n').filter((l) => l.startsWith('{'));
    const events = (): any[] =>
      lines()
        .slice(1)
        .map((l) => JSON.parse(l));
    const u: Up = {
      proc,
      ready: undefined,
      async whenReady(ms = 60_000) {
        const line = await until(
          'saltnet up to be ready',
          () => lines()[0] ?? (exited ? `exited ${JSON.stringify(exited)}` : undefined),
          ms,
        );
        if (!line.startsWith('{')) throw new Error(`saltnet up ${line} before it was ready:\n${err}`);
        u.ready = JSON.parse(line);
        return u.ready;
      },
      err: () => err,
      events,
      waitErr: (re, ms = 30_000) =>
        withErr(
          until(`stderr to match ${re}`, () => re.exec(err)?.[0], ms),
          () => err,
        ),
      waitEvent: (pred, ms = 30_000) =>
        withErr(
          until('the event', () => events().find(pred), ms),
          () => err,
        ),
      exit: (ms = 30_000) =>
        withErr(
          until('saltnet up to exit', () => exited, ms),
          () => err,
        ),
    };
    return u;
  }

  /** The run record of the only run of this case (its programs' pids now are in info.programs). */
  run(): any {
    const dir = this.env['SALTNET_STATE_DIR']!;
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    if (files.length !== 1) throw new Error(`expected one run in ${dir}, found ${files.length}`);
    return JSON.parse(readFileSync(join(dir, files[0]!), 'utf8'));
  }

  /** The run record of the only run of this case, or undefined while there is none (yet). */
  runOrUndefined(): any {
    try {
      return this.run();
    } catch {
      return undefined;
    }
  }

  /** The pid a program of the run has now (daemon, wallet-rpc, wallet-cli-main, …). */
  pid(program: string): number {
    const r = this.run();
    const p = r.info?.programs?.[program]?.pid ?? r.processes.find((x: any) => x.name === program)?.pid;
    if (!p) throw new Error(`no ${program} in run ${r.runId}`);
    return p as number;
  }

  /** The pid of a program of the run once it has one (a program that starts during `up`), polled every 10 ms. */
  waitPid(program: string, ms = 30_000): Promise<number> {
    return until(
      `the ${program}`,
      () => {
        try {
          return this.pid(program);
        } catch {
          return undefined;
        }
      },
      ms,
      10,
    );
  }

  /** A path saltnet reported: it must be under the case's folder (or one the case named). */
  inside(path: string, also: string[] = []): void {
    const abs = resolve(path);
    if ([this.dir, ...also].some((d) => abs === d || abs.startsWith(`${d}/`))) return;
    counts.filesOutside++;
    throw new Error(`${abs} is outside the case's folder ${this.dir}`);
  }

  /** Data the fault must not have cost, found lost: counted, and the case fails. */
  lost(what: string): never {
    counts.dataLost++;
    throw new Error(`data lost: ${what}`);
  }

  /** Stop what the case left running: its `up`s (SIGINT, then SIGKILL), `saltnet down`, and any marked process. */
  async cleanup(): Promise<void> {
    for (const p of this.running.splice(0)) {
      p.kill('SIGINT');
      const t = setTimeout(() => p.kill('SIGKILL'), 15_000);
      await p.catch(() => undefined);
      clearTimeout(t);
    }
    // `saltnet down` for what a killed `up` left in the registry (nothing to do, nothing to run, when it is empty).
    if (readdirSync(this.env['SALTNET_STATE_DIR']!).some((f) => f.endsWith('.json')))
      await execa(process.execPath, [CLI, 'down'], { env: { ...this.env }, reject: false, timeout: 60_000 });
  }
}

/** `p`, or its rejection with what `up` printed on stderr so far (the story of a wait that timed out). */
function withErr<T>(p: Promise<T>, err: () => string): Promise<T> {
  return p.catch((e: unknown) => {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; saltnet up said:\n${err().slice(-4000)}`);
  });
}

/**
 * How long a saltnet command may run before it counts as a hang: well above what any case needs on a quiet machine
 * (under 25 s), so that two cases at a time on a loaded 2-core runner are not counted as hangs.
 */
export const HANG_MS = 60_000;

/** Poll `fn` until it gives a value; rejects after `ms` naming `what`. */
export async function until<T>(what: string, fn: () => T | undefined, ms: number, every = 50): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

export const signal = (pid: number, sig: NodeJS.Signals): void => {
  try {
    process.kill(pid, sig);
  } catch {
    /* gone */
  }
};

/** Processes of the suite (marked) still running: pid and command line. */
export function marked(mark: string): { pid: number; cmdline: string }[] {
  const out: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!`\0${readFileSync(`/proc/${name}/environ`, 'latin1')}`.includes(`\0SALTNET_FAULT_MARK=${mark}\0`)) continue;
      out.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' ') });
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

/** Whether `pid` runs and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** `n` foreign processes (`sleep`), unmarked: saltnet must never signal them. */
export function foreignProcesses(n: number): { pids: number[]; children: ChildProcess[] } {
  const children = Array.from({ length: n }, () => spawn('sleep', ['3600'], { stdio: 'ignore', detached: true }));
  for (const c of children) c.unref();
  return { pids: children.map((c) => c.pid!), children };
}

/** Files under `dir` with their size and mtime, to see that nothing changed there. */
export function fingerprint(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((d) => join(d.parentPath, d.name))
    .sort()
    .map((f) => {
      const s = statSync(f);
      return `${f} ${s.size} ${s.mtimeMs}`;
    })
    .join('\n');
}

/**
 * A small file system at `dir` (`mib` MiB): a tmpfs mounted as root, or with `sudo -n`; undefined where neither is
 * allowed (the disk cases then run under RLIMIT_FSIZE instead: see limitFileSize). Returns its unmount.
 */
export function smallDisk(dir: string, mib: number): (() => void) | undefined {
  mkdirSync(dir, { recursive: true });
  for (const sudo of process.getuid?.() === 0 ? [[]] : [['sudo', '-n']]) {
    try {
      const [cmd, ...pre] = [...sudo, 'mount'];
      execFileSync(cmd!, [...pre, '-t', 'tmpfs', '-o', `size=${mib}m`, 'tmpfs', dir], { stdio: 'ignore' });
      return () => {
        const [c, ...p] = [...sudo, 'umount'];
        execFileSync(c!, [...p, '-l', dir], { stdio: 'ignore' });
      };
    } catch {
      /* not permitted here */
    }
  }
  return undefined;
}

/** The `saltnet` command line under RLIMIT_FSIZE (`prlimit`): no file it or its programs write grows past `bytes`. */
export function limitFileSize(bytes: number): string[] {
  return ['prlimit', `--fsize=${bytes}`, '--'];
}

/** Write a file (creating its folder). */
export function put(file: string, text: string): string {
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/**
 * Send a request's head and part of its body (Content-Length says 1000), then go away (`hold`: false) or keep the
 * connection open without sending more (`hold`: true; returns its closer).
 */
export async function halfSend(
  url: string,
  path: string,
  o: { headers?: Record<string, string>; hold?: boolean } = {},
): Promise<() => void> {
  const { hostname, port } = new URL(url);
  const sock = connect(Number(port), hostname);
  sock.on('error', () => undefined);
  await new Promise<void>((ok, fail) => sock.once('connect', ok).once('error', fail));
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Content-Type: application/json',
    'Content-Length: 1000',
    ...Object.entries(o.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ];
  sock.write(`${head.join('\r\n')}\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"get_`);
  await sleep(100);
  if (!o.hold) {
    sock.destroy();
    return () => undefined;
  }
  return () => sock.destroy();
}
