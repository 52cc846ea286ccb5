// The `saltnet` command as users run it: up/status/mine/down, Ctrl-C, SIGTERM and SIGKILL of the
// harness itself (nothing of the run may survive), and errors that name the problem and the fix.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../harness/process/registry.js';
import { startTestnet } from '../../harness/testnet/testnet.js';
import { cleanup, tempDir, waitFor } from '../helpers/sim.js';
import { CLI, startUntilReady, stopStarted } from './helpers.js';

let state: string;
const env = (): Record<string, string> => ({ SALTNET_STATE_DIR: state, SALTNET_SIM_HASHRATE: '250000', CI: '1' });
const running: ResultPromise[] = [];

function saltnet(args: string[]): ResultPromise {
  const p = execa(process.execPath, [CLI, ...args], { env: env(), reject: false, all: true, buffer: true });
  running.push(p);
  return p;
}

/** Start `saltnet up --json` and wait for its ready line. */
async function up(extra: string[] = []): Promise<{ proc: ResultPromise; ready: any }> {
  return startUntilReady(['up', '--backend', 'sim', '--height', '30', '--unlocked', '0', ...extra], env(), running);
}

const pidsOf = (ready: any): number[] => [ready.daemon.pid, ready.wallet.pid];

beforeAll(() => {
  state = tempDir('saltnet-state-');
});
afterEach(() => stopStarted(running, env()));
afterAll(() => cleanup(state));

describe('saltnet up, status, mine', { timeout: 150_000 }, () => {
  it('prints endpoints and addresses, shows in status, mines on request, stops on Ctrl-C', async () => {
    const { proc, ready } = await up();
    expect(ready).toMatchObject({
      event: 'ready',
      backend: 'sim',
      daemon: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) },
      wallet: { url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) },
    });
    expect(ready.height).toBeGreaterThanOrEqual(30);
    const st = await saltnet(['status', '--json']);
    const runs = JSON.parse(st.stdout as string);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: ready.runId, state: 'running', backend: 'sim' });
    const mined = await saltnet(['mine', '5']);
    expect(mined.exitCode).toBe(0);
    const height = Number(/height (\d+)/.exec(mined.stdout as string)?.[1]);
    expect(height).toBeGreaterThanOrEqual(runs[0].height + 5);
    // mine returns once the main wallet has refreshed to the new height (its own refresh is every 20 s)
    const wallet = await fetch(`${ready.wallet.url}/json_rpc`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'get_height' }),
    });
    expect(((await wallet.json()) as any).result.height).toBe(height);
    proc.kill('SIGINT');
    const r = await proc;
    expect(r.exitCode).toBe(130);
    expect(pidsOf(ready).filter((p) => isAlive(p))).toEqual([]);
    expect(JSON.parse((await saltnet(['status', '--json'])).stdout as string)).toEqual([]);
  });
});

describe('saltnet up --detach, for CI scripts', { timeout: 150_000 }, () => {
  it('prints the ready line and exits 0; the testnet runs on until saltnet down', async () => {
    const r = await saltnet(['up', '--backend', 'sim', '--height', '30', '--unlocked', '0', '--detach', '--json']);
    expect(r.exitCode, r.all as string).toBe(0);
    const ready = JSON.parse((r.stdout as string).trim().split('\n').pop()!);
    expect(ready).toMatchObject({ event: 'ready', backend: 'sim', ownerPid: expect.any(Number) });
    expect([ready.ownerPid, ...pidsOf(ready)].map((p) => isAlive(p))).toEqual([true, true, true]);
    const runs = JSON.parse((await saltnet(['status', '--json'])).stdout as string);
    expect(runs).toMatchObject([{ runId: ready.runId, state: 'running' }]);
    expect((await saltnet(['mine', '2'])).exitCode).toBe(0);
    // Any operation by name, its body as JSON: the answer as JSON.
    const op = await saltnet(['operate', 'mine', '{"blocks": 1, "sync": false}']);
    expect([op.exitCode, JSON.parse(op.stdout as string)], op.all as string).toEqual([0, { height: 33, synced: [] }]);
    const typo = await saltnet(['operate', 'mien']);
    expect([typo.exitCode, typo.stderr]).toEqual([
      1,
      expect.stringContaining('no operation mien (did you mean mine?)'),
    ]);
    expect((await saltnet(['down'])).exitCode).toBe(0);
    await waitFor('the detached up and its programs to stop', async () =>
      [ready.ownerPid, ...pidsOf(ready)].every((p) => !isAlive(p)),
    );
    expect(existsSync(ready.workdir)).toBe(false);
  });

  it('for people: the ready summary says how to stop it', async () => {
    const r = await saltnet(['up', '--backend', 'sim', '--height', '30', '--unlocked', '0', '--detach']);
    expect(r.exitCode, r.all as string).toBe(0);
    expect(r.stdout).toMatch(/^saltnet is up \(/);
    expect(r.stdout).toContain('stop it with `saltnet down`');
    expect((await saltnet(['down'])).exitCode).toBe(0);
  });

  for (const [sig, code] of [
    ['SIGHUP', 129],
    ['SIGINT', 130],
  ] as const)
    it(`${sig} while it starts: says so, stops the testnet it was starting, exits ${code}`, async () => {
      const p = execa(
        process.execPath,
        [CLI, 'up', '--backend', 'sim', '--height', '30', '--unlocked', '0', '--detach'],
        {
          env: env(),
          reject: false,
          buffer: false,
          stdout: 'pipe',
          stderr: 'pipe',
        },
      );
      running.push(p);
      let err = '';
      p.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      // The background up has started: its first line came through this one.
      await waitFor('the background up to start', async () => err.includes('saltnet: sim backend') || undefined);
      p.kill(sig);
      const r = await p;
      expect(r.exitCode, err).toBe(code);
      const child = Number(
        /stopping the background saltnet up \(pid (\d+)\) and the testnet it is starting/.exec(err)?.[1],
      );
      expect(child, err).toBeGreaterThan(0);
      expect(err).toContain(
        `saltnet: the background saltnet up has ended (${sig}), and with it the testnet it was starting`,
      );
      expect(isAlive(child)).toBe(false);
      expect(JSON.parse((await saltnet(['status', '--json'])).stdout as string)).toEqual([]);
    });

  it('a testnet that cannot start: exit 1 with the reason, nothing left running', async () => {
    const r = await saltnet(['up', '--backend', 'salvium', '--bin-dir', join(state, 'nope'), '--detach']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/ended before it was ready[\s\S]*nope/);
    expect(JSON.parse((await saltnet(['status', '--json'])).stdout as string)).toEqual([]);
  });
});

describe('nothing survives the harness', { timeout: 150_000 }, () => {
  it('SIGTERM: stops every process and exits 143', async () => {
    const { proc, ready } = await up();
    proc.kill('SIGTERM');
    expect((await proc).exitCode).toBe(143);
    expect(pidsOf(ready).filter((p) => isAlive(p))).toEqual([]);
  });

  it('SIGKILL: the reaper kills the children and removes the temporary workdir within 5 s; `saltnet down` finds nothing left', async () => {
    const { proc, ready } = await up();
    expect(ready.workdir).toMatch(/\/saltnet-[0-9a-z]+-[0-9a-f]{6}$/);
    expect(existsSync(ready.workdir)).toBe(true);
    proc.kill('SIGKILL');
    await proc;
    const t0 = Date.now();
    // The requirement: within 5 s of the harness's SIGKILL, no process of the run is left, and no temporary folder.
    await waitFor(
      `children ${pidsOf(ready).join(', ')} to die`,
      async () => pidsOf(ready).every((p) => !isAlive(p)),
      5000,
      50,
    );
    await waitFor(
      `${ready.workdir} to be removed`,
      async () => !existsSync(ready.workdir),
      5000 - (Date.now() - t0),
      50,
    );
    expect(Date.now() - t0).toBeLessThan(5000);
    const down = await saltnet(['down']);
    expect(down.stdout, String(down.all)).toMatch(/nothing to stop|reaped stale run/);
  });

  it('SIGKILL after a program crashed: the reaper kills the rest and keeps the temporary workdir, saying so in it', async () => {
    const s = await startUntilReady(['up', '--backend', 'sim', '--height', '30', '--unlocked', '0'], env(), running);
    const old = s.ready.daemon.pid as number;
    process.kill(old, 'SIGKILL');
    await waitFor(
      'the restarted daemon',
      async () => s.events().find((e: any) => e.event === 'pid' && e.previousPid === old),
      20_000,
      20,
    );
    const record = JSON.parse(readFileSync(join(state, `${s.ready.runId}.json`), 'utf8'));
    expect(record).toMatchObject({ tempWorkdir: true, keepWorkdir: true });
    s.proc.kill('SIGKILL');
    await s.proc;
    await waitFor('the run record to go', async () => !existsSync(join(state, `${s.ready.runId}.json`)), 5000, 50);
    for (const p of record.processes as { pid: number; startTime: string }[])
      expect(isAlive(p.pid, p.startTime)).toBe(false);
    expect(existsSync(join(s.ready.workdir, 'logs', 'daemon.log'))).toBe(true);
    expect(readFileSync(join(s.ready.workdir, 'saltnet-reaper.log'), 'utf8')).toContain(
      `its workdir is kept for its logs: ${s.ready.workdir}`,
    );
    rmSync(s.ready.workdir, { recursive: true, force: true });
  });

  it('SIGKILL with --workdir: the processes go, the folder the user named stays', async () => {
    const workdir = join(state, 'kept-after-kill');
    const { proc, ready } = await up(['--workdir', workdir]);
    proc.kill('SIGKILL');
    await proc;
    await waitFor(
      `children ${pidsOf(ready).join(', ')} to die`,
      async () => pidsOf(ready).every((p) => !isAlive(p)),
      5000,
      50,
    );
    // The reaper is done once the run's record is gone: only then is "still there" a verdict.
    await waitFor(
      'the run record to go',
      async () => JSON.parse((await saltnet(['status', '--json'])).stdout as string).length === 0,
      5000,
      100,
    );
    expect(existsSync(join(workdir, 'wallets', 'main.keys'))).toBe(true);
    expect(existsSync(join(workdir, 'logs'))).toBe(true);
  });

  it('`saltnet down`, `mine` and `fund` act on the testnets of `saltnet up`, not on a test run’s', async () => {
    const before = process.env.SALTNET_STATE_DIR;
    process.env.SALTNET_STATE_DIR = state;
    // A test run's testnet (as a scenario run or a vitest fixture holds one), beside the user's `up`.
    const test = await startTestnet({
      backend: 'sim',
      height: 30,
      unlocked: 0n,
      log: () => undefined,
      trapSignals: false,
    });
    try {
      const { proc, ready } = await up();
      const listed = JSON.parse((await saltnet(['status', '--json'])).stdout as string) as Record<string, unknown>[];
      expect(listed.map((r) => [r.runId, r.holder])).toEqual(
        expect.arrayContaining([
          [ready.runId, 'up'],
          [test.runId, 'test'],
        ]),
      );
      const mined = await saltnet(['mine', '1']);
      expect(mined.exitCode, String(mined.all)).toBe(0);
      const down = await saltnet(['down']);
      expect(down.stdout, String(down.all)).toContain(`stopped run ${ready.runId}`);
      expect(down.stdout).toContain(
        `saltnet: left 1 test run alone (${test.runId}): each ends with its command; \`saltnet down --all\` stops it too`,
      );
      expect((await proc).exitCode).toBe(143);
      expect(await test.daemon.client.height()).toBeGreaterThanOrEqual(30);
      const none = await saltnet(['mine', '1']);
      expect(none.all).toContain(
        'no testnet of saltnet up is running: start one with `saltnet up` (1 held by test runs: choose one with --run;',
      );
    } finally {
      await test.stop();
      if (before === undefined) delete process.env.SALTNET_STATE_DIR;
      else process.env.SALTNET_STATE_DIR = before;
    }
  });

  it('`saltnet down` stops a running `saltnet up`', async () => {
    const { proc, ready } = await up();
    const down = await saltnet(['down']);
    expect(down.stdout, String(down.all)).toContain(`stopped run ${ready.runId}`);
    const r = await proc;
    expect(r.exitCode, `saltnet up: signal ${r.signal}`).toBe(143);
    expect(pidsOf(ready).filter((p) => isAlive(p))).toEqual([]);
  });
});

describe('errors name the problem and the fix', () => {
  it('a misspelt command: the command meant, and the commands there are', async () => {
    const r = await saltnet(['upp']);
    expect([r.exitCode, r.stderr]).toEqual([
      1,
      expect.stringMatching(/^saltnet: unknown command upp \(did you mean up\?\); the commands are up, down, status, /),
    ]);
  });

  it('a missing binary folder', async () => {
    const r = await saltnet(['up', '--backend', 'salvium', '--bin-dir', '/nonexistent/bin']);
    expect(r.exitCode).toBe(1);
    expect(r.all).toContain('saltnet: --bin-dir /nonexistent/bin does not exist');
    expect(r.all).toContain('--backend sim');
  });

  it('a wallet password that does not open the wallet', async () => {
    const workdir = join(state, 'pw');
    const { proc } = await up(['--workdir', workdir]);
    proc.kill('SIGINT');
    await proc;
    writeFileSync(join(workdir, 'wallets', '.password'), 'not-the-password');
    const r = await saltnet(['up', '--backend', 'sim', '--workdir', workdir, '--height', '30', '--unlocked', '0']);
    expect(r.exitCode).toBe(1);
    expect(r.all).toMatch(/wallet-rpc exited with code 1/);
    expect(r.all).toContain('Wallet initialization failed: invalid password');
    expect(r.all).toContain('fix: the wallet password does not open this wallet; use a fresh --workdir');
    expect(r.all).not.toContain('not-the-password');
  });

  it('bad arguments', async () => {
    expect((await saltnet(['mine'])).all).toContain('say how far: `saltnet mine 10` or `saltnet mine --to 1300`');
    expect((await saltnet(['mine', '2'])).all).toContain('no testnet is running: start one with `saltnet up`');
    expect((await saltnet(['frobnicate'])).exitCode).toBe(1);
    const tf = await saltnet(['up', '--timeout-factor', '-1']);
    expect(tf.exitCode).toBe(1);
    expect(tf.all).toContain('saltnet: --timeout-factor: -1 is too small: it must be at least 0.1');
  });

  it("--version is saltnet's own, from any working directory", async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const r = await execa(process.execPath, [CLI, '--version'], { cwd: tmpdir(), reject: false });
    expect(r.stdout).toBe(pkg.version);
  });

  it('doctor reports the backends and the node version', async () => {
    const r = await saltnet(['doctor', '--json']);
    expect(r.exitCode).toBe(0);
    const d = JSON.parse(r.stdout as string);
    expect(d.node).toBe(process.version);
    expect(d.backends.sim.found).toBe(true);
    expect(d.backends.sim.version).toMatch(/Salvium 'One' \(v1\.1\.3c-simulated/);
    expect(d.auto).toMatch(/sim|Salvium/);
  });
});
