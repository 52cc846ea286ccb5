// Ctrl-C / SIGTERM stop `saltnet run` in the middle of a step of a hostile scenario: with the
// scenario's regular expressions on RE2 nothing blocks the event loop, so the supervisor's signal
// handler runs, stops the testnet and exits. (With JavaScript's RegExp this scenario spun at 100 %
// CPU for ever and ignored SIGTERM.)
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { descendants } from '../../harness/process/procfs.js';
import { isAlive } from '../../harness/process/registry.js';
import { cleanup, runsIn, tempDir, waitFor } from '../helpers/sim.js';
import { CLI } from '../cli/helpers.js';

const HOSTILE = `name: hostile wait
steps:
  - name: spin on the address
    wait:
      call: { method: get_address }
      until: { result.address: { matches: "^([A-Za-z0-9]+)+!$" } }
      seconds: 600
`;

let dir: string;
const procs: ResultPromise[] = [];
const started: number[] = [];

beforeAll(() => {
  dir = tempDir('saltnet-signals-');
  mkdirSync(join(dir, 'state'));
  writeFileSync(join(dir, 'hostile.yaml'), HOSTILE);
});

afterAll(() => {
  // Whatever a failed run left behind.
  for (const pid of [...procs.map((p) => p.pid), ...started]) if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
  cleanup(dir);
});

/** `saltnet run <args>` in the test's folder, on its own state dir; killed in afterAll if a test leaves it. */
function runCli(args: string[]): ResultPromise {
  const proc = execa(process.execPath, [CLI, 'run', ...args], {
    cwd: dir,
    env: { SALTNET_SIM_HASHRATE: '250000', SALTNET_STATE_DIR: join(dir, 'state'), CI: '1' },
    reject: false,
    all: true,
  });
  procs.push(proc);
  return proc;
}

/** How many times the scenario's transcript shows the wait's call. */
function tries(art: string): number {
  if (!existsSync(art)) return 0;
  return readdirSync(art)
    .map((d) => join(art, d, 'transcript.jsonl'))
    .filter((f) => existsSync(f))
    .reduce(
      (n, f) =>
        n +
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((l) => l.includes('get_address')).length,
      0,
    );
}

it.each([
  ['SIGTERM', 143],
  ['SIGINT', 130],
] as const)(
  '%s mid-step ends the run within seconds and leaves no process behind',
  async (signal, code) => {
    const art = join(dir, `artifacts-${signal}`);
    const proc = runCli(['hostile.yaml', '--backend', 'sim', '--artifacts', art]);
    // The wait has asked at least once, and is now in its step.
    await waitFor('the wait step to run', async () => tries(art) >= 1, 120_000, 100);
    await new Promise((r) => setTimeout(r, 1000));
    const mine = descendants(proc.pid!).map((p) => p.pid);
    started.push(...mine);
    expect(mine.length).toBeGreaterThanOrEqual(3); // the reaper, the daemon, the wallet RPCs
    const t0 = Date.now();
    proc.kill(signal);
    const exited = await Promise.race([proc, new Promise<undefined>((r) => setTimeout(() => r(undefined), 10_000))]);
    expect(exited, `saltnet run still running 10 s after ${signal}`).toBeDefined();
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(exited!.exitCode).toBe(code);
    await waitFor('every process of the run to be gone', async () => mine.every((p) => !isAlive(p)), 10_000, 50).catch(
      () => undefined,
    );
    expect(mine.filter((p) => isAlive(p))).toEqual([]);
  },
  180_000,
);

/** The daemons among `pids` (their command line names salviumd). */
const daemons = (pids: number[]): number[] =>
  pids.filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'latin1').includes('salviumd');
    } catch {
      return false;
    }
  });

it('SIGINT in a fresh-isolation run stops the testnets the pool started ahead too', async () => {
  for (const n of [1, 2, 3])
    writeFileSync(join(dir, `hostile-${n}.yaml`), HOSTILE.replace('hostile wait', `hostile ${n}`));
  const art = join(dir, 'artifacts-pool');
  const files = ['hostile-1.yaml', 'hostile-2.yaml', 'hostile-3.yaml'];
  const proc = runCli([...files, '--backend', 'sim', '--isolation', 'fresh', '--pool', '3', '--artifacts', art]);
  // The first scenario is in its step, and the pool has started the next ones' testnets beside it.
  await waitFor('the wait step to run', async () => tries(art) >= 1, 120_000, 100);
  await waitFor(
    'three daemons (one per scenario)',
    async () => daemons(descendants(proc.pid!).map((p) => p.pid)).length >= 3,
    60_000,
    100,
  );
  const mine = descendants(proc.pid!).map((p) => p.pid);
  started.push(...mine);
  const workdirs = runsIn(join(dir, 'state')).map((r) => r.workdir);
  expect(workdirs.length).toBeGreaterThanOrEqual(3);
  proc.kill('SIGINT');
  const exited = await Promise.race([proc, new Promise<undefined>((r) => setTimeout(() => r(undefined), 15_000))]);
  expect(exited, 'saltnet run still running 15 s after SIGINT').toBeDefined();
  expect(exited!.exitCode).toBe(130);
  await waitFor('every process of the run to be gone', async () => mine.every((p) => !isAlive(p)), 10_000, 50).catch(
    () => undefined,
  );
  expect(mine.filter((p) => isAlive(p))).toEqual([]);
  // Their temporary folders too, the ones the pool was still starting included.
  await waitFor(
    'every workdir of the run to be gone',
    async () => workdirs.every((d) => !existsSync(d)),
    10_000,
    50,
  ).catch(() => undefined);
  expect(workdirs.filter((d) => existsSync(d))).toEqual([]);
}, 180_000);
