// The hostile-input suite: every case of cases.ts runs `saltnet` as a user would, in a project
// folder of its own, and must end within 30 s (a hang never ends; a case takes about 5 s, but
// under strace on two loaded cores one took 10.3 s in CI) with the exit code and message it is expected to
// give — no stack trace, no process left behind, no file opened outside the allowed folders
// (traced with strace where it is installed; CI installs it), no password in any command line,
// output or artifact, and no canary text from outside the project anywhere.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/sim.js';
import { CLI } from '../cli/helpers.js';
import { CASES, type HostileCase } from './cases.js';

const HANG_MS = 30_000;
// A JavaScript stack frame (`    at fn (/x/y.js:1:2)`, `    at file:///x.js:1:2`, `    at node:internal/…`), not a scenario location (`at s.yaml:4:5`).
const STACK = /^\s+at (?:.+ \()?(?:file:\/\/|node:|\/)[^\s]*\.[cm]?[jt]s:\d+:\d+\)?$/m;
// strace's options: with --seccomp-bpf the kernel stops a case's processes only at the calls traced, not at every
// call (a case took 1.2 s instead of 2.1 s), where the kernel and strace allow it. undefined: tracing does not work.
const STRACE = ((): string[] | undefined => {
  for (const opts of [['--seccomp-bpf'], []]) {
    try {
      // Tracing itself must work (a container may forbid ptrace), not only the program be there.
      const o = ['-f', '-qq', ...opts, '-e', 'trace=open,openat,openat2'];
      execFileSync('strace', [...o, '-o', '/dev/null', 'true'], { stdio: 'ignore' });
      return o;
    } catch {
      /* try without, then give up */
    }
  }
  return undefined;
})();

let root: string;
let canary: string;
const CANARY_TEXT = `canary-${createHash('sha256').update(String(process.pid)).digest('hex').slice(0, 16)}`;

beforeAll(() => {
  root = tempDir('saltnet-hostile-');
  mkdirSync(join(root, 'outside'));
  canary = join(root, 'outside', 'canary.json');
  writeFileSync(canary, JSON.stringify({ secret: CANARY_TEXT }));
  // Without strace the canary check still catches a file from outside that was read and shown.
  if (!STRACE)
    console.warn(
      'hostile-input suite: strace cannot trace here; files opened are not checked (only what they would leak)',
    );
});
afterAll(() => cleanup(root));

/** Every process whose environment carries the case's mark: its command lines as seen, and which run now. */
function marked(mark: string): { pid: number; cmdline: string }[] {
  const out: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!`\0${readFileSync(`/proc/${name}/environ`, 'latin1')}`.includes(`\0SALTNET_HOSTILE_MARK=${mark}\0`))
        continue;
      out.push({ pid: Number(name), cmdline: readFileSync(`/proc/${name}/cmdline`, 'latin1').replaceAll('\0', ' ') });
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

/** Wallet passwords of the runs registered in `state` (read while they run: a temporary workdir goes at the end). */
function passwords(state: string, into: Set<string>): void {
  if (!existsSync(state)) return;
  for (const f of readdirSync(state)) {
    if (!f.endsWith('.json')) continue;
    try {
      const rec = JSON.parse(readFileSync(join(state, f), 'utf8')) as { workdir?: string };
      const pw = rec.workdir ? join(rec.workdir, 'wallets', '.password') : '';
      if (pw && existsSync(pw)) into.add(readFileSync(pw, 'utf8').trim());
    } catch {
      /* half-written or gone */
    }
  }
}

/** Files under `dir`, recursively (the artifacts and reports a run leaves). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

/** Paths the run opened successfully (strace -f of open/openat/openat2). */
function opened(trace: string): string[] {
  if (!existsSync(trace)) return [];
  const out: string[] = [];
  for (const l of readFileSync(trace, 'utf8').split('\n')) {
    const m =
      /open(?:at2?)?\((?:[A-Z_]+|\d+), "([^"]*)".*\) = (\d+)/.exec(l) ?? /^\d+\s+open\("([^"]*)".*\) = (\d+)/.exec(l);
    if (m) out.push(m[1]!);
  }
  return out;
}

async function runCase(c: HostileCase, index: number): Promise<void> {
  const dir = join(root, `case-${index}`);
  mkdirSync(dir);
  for (const [name, body] of Object.entries(c.files ?? {}))
    writeFileSync(join(dir, name), typeof body === 'string' ? body.replaceAll('{canary}', canary) : body);
  c.prepare?.(dir, canary);
  const state = join(dir, '.state');
  const mark = `${process.pid}-${index}`;
  const trace = join(dir, '.trace');
  const args = [CLI, ...c.args.map((a) => a.replaceAll('{dir}', dir).replaceAll('{canary}', canary))];
  const [cmd, argv] = STRACE
    ? ['strace', [...STRACE, '-o', trace, process.execPath, ...args]]
    : [process.execPath, args];
  const t0 = Date.now();
  const p = execa(cmd, argv as string[], {
    cwd: dir,
    env: { SALTNET_STATE_DIR: state, SALTNET_HOSTILE_MARK: mark, CI: '1', NO_COLOR: '1', ...c.env },
    reject: false,
    all: true,
  });
  // A hang: kill every process of the case (killing strace alone would leave its tracees running).
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    for (const m of marked(mark)) killQuietly(m.pid);
  }, HANG_MS);
  const cmdlines = new Set<string>();
  const pws = new Set<string>();
  const sampler = setInterval(() => {
    for (const m of marked(mark)) cmdlines.add(m.cmdline);
    passwords(state, pws);
  }, 100);
  const r = await p;
  clearTimeout(timer);
  clearInterval(sampler);
  const ms = Date.now() - t0;
  // What is left after its exit: give a reaper a moment, then count orphans (and kill them).
  let left = marked(mark).filter((m) => !m.cmdline.startsWith('strace'));
  for (let i = 0; i < 30 && left.length > 0; i++) {
    await new Promise((ok) => setTimeout(ok, 100));
    left = marked(mark);
  }
  for (const o of left) killQuietly(o.pid);
  const output = String(r.all ?? '');
  const artifacts = filesUnder(dir)
    .filter(
      (f) =>
        // a name that is not UTF-8 comes back from readdir with U+FFFD in it: that path names nothing
        existsSync(f) &&
        !f.endsWith('.trace') &&
        !Object.keys(c.files ?? {}).some((n) => f === join(dir, n)) &&
        statSync(f).size < 50 << 20,
    )
    .map((f) => ({ f, text: readFileSync(f, 'latin1') }));
  const forbidden = [
    '/etc/passwd',
    '/etc/shadow',
    '/dev/zero',
    '/proc/self/environ',
    canary,
    join(dir, 'link.json'),
    'link.json',
  ];
  const reads = opened(trace).filter(
    (f) => (forbidden.includes(f) || f.includes('/outside/')) && !c.mayOpen?.includes(f),
  );

  expect(hung, `hung past ${HANG_MS / 1000} s:\n${output.slice(-2000)}`).toBe(false);
  expect(ms).toBeLessThan(HANG_MS);
  expect(r.exitCode, output.slice(-3000)).toBe(c.exit ?? 1);
  for (const s of c.says) expect(output).toMatch(s);
  for (const s of c.never ?? []) expect(output).not.toMatch(s);
  if (c.maxOutput !== undefined) expect(output.length, 'the output is flooded').toBeLessThanOrEqual(c.maxOutput);
  expect(output, 'a stack trace').not.toMatch(STACK);
  expect(
    left.map((l) => l.cmdline),
    'orphans',
  ).toEqual([]);
  expect(reads, 'files opened outside the allowed folders').toEqual([]);
  for (const text of [output, ...artifacts.map((a) => a.text)])
    expect(text.includes(CANARY_TEXT), 'canary text leaked').toBe(false);
  for (const secret of [...pws, ...(c.secrets ?? [])]) {
    expect(
      [...cmdlines].filter((l) => l.includes(secret)),
      'a password on a command line',
    ).toEqual([]);
    expect(output.includes(secret), 'a secret in the output').toBe(false);
    expect(
      artifacts.filter((a) => a.text.includes(secret)).map((a) => a.f),
      'a secret in an artifact',
    ).toEqual([]);
  }
}

describe('hostile input', { timeout: 60_000 }, () => {
  it('has at least 50 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
  });
  CASES.forEach((c, i) => {
    it(c.id, () => runCase(c, i));
  });
});
