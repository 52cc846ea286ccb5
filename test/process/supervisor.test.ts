import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExitInfo } from '../../harness/process/errors.js';
import type { ManagedProcess } from '../../harness/process/managed.js';
import { waitUntilReady } from '../../harness/process/ready.js';
import { isAlive, listRuns, readRun } from '../../harness/process/registry.js';
import { createSupervisor, type Supervisor } from '../../harness/process/supervisor.js';
import { cleanup, FAKE, HARNESS, NODE, sleep, tempDir, waitGone } from './helpers.js';

interface Pids {
  harness: number;
  runId: string;
  reaper: number;
  children: number[];
  grandchildren: number[];
}

let stateDir: string;
let savedStateDir: string | undefined;
let harnesses: ResultPromise[] = [];
let pidsSeen: Pids[] = [];
let supervisors: Supervisor[] = [];

beforeEach(() => {
  savedStateDir = process.env['SALTNET_STATE_DIR'];
  stateDir = tempDir();
  process.env['SALTNET_STATE_DIR'] = stateDir;
});

afterEach(async () => {
  // Whatever a failed test left behind.
  for (const h of harnesses) h.kill('SIGKILL');
  for (const p of pidsSeen)
    for (const pid of [...p.children, ...p.grandchildren, p.reaper]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  await Promise.all(harnesses.map((h) => h.catch(() => undefined)));
  await Promise.all(supervisors.map((s) => s.stopAll()));
  harnesses = [];
  pidsSeen = [];
  supervisors = [];
  if (savedStateDir === undefined) delete process.env['SALTNET_STATE_DIR'];
  else process.env['SALTNET_STATE_DIR'] = savedStateDir;
  await cleanup();
});

/** Start the fixture harness and wait until it wrote its pids. */
async function startHarness(mode?: string): Promise<{ h: ResultPromise; pids: Pids; workdir: string }> {
  const workdir = tempDir();
  const pidfile = join(workdir, 'pids.json');
  const h = execa(NODE, [HARNESS, workdir, pidfile, ...(mode ? [mode] : [])], {
    reject: false,
    all: true,
    env: { SALTNET_STATE_DIR: stateDir },
  });
  harnesses.push(h);
  const t0 = Date.now();
  while (!existsSync(pidfile)) {
    if (h.exitCode !== null || Date.now() - t0 > 15_000)
      throw new Error(`the fixture harness did not start:\n${(await h).all}`);
    await sleep(20);
  }
  const pids = JSON.parse(readFileSync(pidfile, 'utf8')) as Pids;
  pidsSeen.push(pids);
  expect(pids.children).toHaveLength(2);
  expect(pids.grandchildren).toHaveLength(1);
  for (const pid of [...pids.children, ...pids.grandchildren, pids.reaper]) expect(isAlive(pid)).toBe(true);
  const rec = readRun(pids.runId);
  expect(rec?.processes.map((p) => p.pid)).toEqual(pids.children);
  expect(rec?.ownerPid).toBe(pids.harness);
  expect(rec?.info).toEqual({ note: 'fixture' });
  return { h, pids, workdir };
}

describe('a harness that is stopped', () => {
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`by ${sig} stops every process it started, removes its run record and exits ${code}`, async () => {
      const { h, pids } = await startHarness();
      h.kill(sig);
      const r = await h;
      expect(r.exitCode).toBe(code);
      expect(r.all).toContain(`saltnet: ${sig} received`);
      await waitGone([...pids.children, ...pids.grandchildren], 1000); // the harness waited for them before exiting
      expect(readRun(pids.runId)).toBeUndefined();
      await waitGone([pids.reaper], 2000); // the watchdog saw the record go
    });
  }

  it('by a second SIGINT kills at once instead of waiting for the grace period', async () => {
    const { h, pids } = await startHarness('stubborn'); // 'plain' ignores SIGTERM and has 3 s of grace
    const t0 = Date.now();
    h.kill('SIGINT');
    await sleep(300);
    expect(isAlive(pids.children[1]!)).toBe(true); // still in its grace period
    h.kill('SIGINT');
    const r = await h;
    expect(Date.now() - t0).toBeLessThan(2500);
    expect(r.exitCode).toBe(130);
    expect(r.all).toContain('SIGINT again, killing every process now');
    await waitGone([...pids.children, ...pids.grandchildren], 1000);
    expect(readRun(pids.runId)).toBeUndefined();
    await waitGone([pids.reaper], 2000);
  });

  it('by SIGKILL is reaped by the watchdog within 5 s', async () => {
    const { h, pids, workdir } = await startHarness();
    h.kill('SIGKILL');
    const took = await waitGone([...pids.children, ...pids.grandchildren], 5000);
    expect(took).toBeLessThan(5000);
    await waitGone([pids.reaper], 3000);
    expect(readRun(pids.runId)).toBeUndefined();
    expect((await h).signal).toBe('SIGKILL');
    expect(readFileSync(join(workdir, 'saltnet-reaper.log'), 'utf8')).toMatch(
      new RegExp(
        `owner ${pids.harness} of run ${pids.runId} died; reaped: plain \\(pid ${pids.children[1]}\\), with-grandchild \\(pid ${pids.children[0]}\\)`,
      ),
    );
  });

  it('by SIGKILL, with a child that ignores SIGTERM, is still reaped within 5 s', async () => {
    const { h, pids } = await startHarness('stubborn');
    h.kill('SIGKILL');
    const took = await waitGone([...pids.children, ...pids.grandchildren], 5000);
    expect(took).toBeGreaterThanOrEqual(1500); // the watchdog's 2 s grace ran out first
    expect(took).toBeLessThan(5000);
    await waitGone([pids.reaper], 3000);
    expect(readRun(pids.runId)).toBeUndefined();
  });

  for (const mode of ['throw', 'reject']) {
    it(`by an ${mode === 'throw' ? 'uncaught exception' : 'unhandled rejection'} stops everything and exits 1`, async () => {
      const { h, pids } = await startHarness(mode);
      const r = await h;
      expect(r.exitCode).toBe(1);
      expect(r.all).toContain(mode === 'throw' ? 'bug in the harness' : 'forgotten promise');
      await waitGone([...pids.children, ...pids.grandchildren], 1000);
      expect(readRun(pids.runId)).toBeUndefined();
      await waitGone([pids.reaper], 2000);
    });
  }
});

describe('createSupervisor (in process)', () => {
  it('records its processes, stores info, stops in reverse order and removes the record; idempotent', async () => {
    const workdir = tempDir();
    const sup = createSupervisor({ workdir, trapSignals: false, reaper: false });
    supervisors.push(sup);
    expect(readRun(sup.runId)?.processes).toEqual([]);
    const order: string[] = [];
    const start = (name: string): ManagedProcess => {
      const p = sup.start({
        name,
        command: NODE,
        args: [FAKE, 'on-term:30', 'say:up', 'forever', '--password=pw1'],
        logFile: join(workdir, `${name}.log`),
        secrets: ['pw1'],
      });
      void p.exited.then(() => order.push(name));
      return p;
    };
    const daemon = start('daemon');
    const wallet = start('wallet-rpc');
    await Promise.all(
      [daemon, wallet].map((p) => waitUntilReady(p, [{ kind: 'log', patterns: ['up'] }], { timeoutMs: 5000 })),
    );
    sup.setInfo({ daemonRpc: 'http://127.0.0.1:1' });
    const rec = readRun(sup.runId)!;
    expect(rec.processes.map((p) => [p.name, p.pid])).toEqual([
      ['daemon', daemon.pid],
      ['wallet-rpc', wallet.pid],
    ]);
    expect(rec.processes[0]!.startTime).toMatch(/^\d+$/);
    expect(rec.processes[0]!.commandLine).toContain('--password=***');
    expect(rec.info).toEqual({ daemonRpc: 'http://127.0.0.1:1' });
    expect(sup.processes()).toEqual([daemon, wallet]);

    const unexpected: string[] = [];
    sup.onUnexpectedExit((p) => unexpected.push(p.name));
    const stopping = sup.stopAll();
    expect(sup.stopAll()).toBe(stopping);
    await stopping;
    expect(order).toEqual(['wallet-rpc', 'daemon']);
    expect(unexpected).toEqual([]);
    expect((await daemon.exited).expected).toBe(true);
    expect(readRun(sup.runId)).toBeUndefined();
    expect(() => start('late')).toThrow(/is stopping/);
  });

  it('stops what a program left in a session of its own (setsid), by the run id in its environment', async () => {
    const workdir = tempDir();
    const sup = createSupervisor({ workdir, trapSignals: false, reaper: false });
    supervisors.push(sup);
    const pidFile = join(workdir, 'escaped.pid');
    // A program that daemonizes a child: it leaves the program's process group and session, and outlives it.
    const p = sup.start({
      name: 'daemonizing',
      command: 'sh',
      args: ['-c', `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 997' & echo up; exec sleep 998`],
      logFile: join(workdir, 'd.log'),
    });
    await waitUntilReady(p, [{ kind: 'log', patterns: ['up'] }], { timeoutMs: 5000 });
    // The shell creates the file before it writes the pid: wait for the pid itself.
    const pidIn = (): number => (existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0);
    const t0 = Date.now();
    while (!(pidIn() > 0) && Date.now() - t0 < 5000) await sleep(20);
    const escaped = pidIn();
    expect(escaped).toBeGreaterThan(0);
    expect(isAlive(escaped)).toBe(true);
    await sup.stopAll();
    await waitGone([escaped], 2000);
  });

  it('fires onUnexpectedExit at once when a child crashes, with its exit info', async () => {
    const workdir = tempDir();
    const sup = createSupervisor({ workdir, trapSignals: false, reaper: false });
    supervisors.push(sup);
    const calls: { name: string; exit: ExitInfo; at: number }[] = [];
    sup.onUnexpectedExit((p, exit) => calls.push({ name: p.name, exit, at: Date.now() }));
    const ok = sup.start({ name: 'daemon', command: NODE, args: [FAKE, 'forever'], logFile: join(workdir, 'd.log') });
    const crash = sup.start({
      name: 'wallet-rpc',
      command: NODE,
      args: [FAKE, 'say:up', 'sleep:200', 'err:segfault imminent', 'signal:SIGSEGV'],
      logFile: join(workdir, 'w.log'),
    });
    const t0 = Date.now();
    while (crash.running) await sleep(5);
    const died = Date.now();
    while (calls.length === 0 && Date.now() - t0 < 5000) await sleep(5);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.name).toBe('wallet-rpc');
    expect(calls[0]!.exit).toEqual({ code: null, signal: 'SIGSEGV', expected: false });
    expect(calls[0]!.at - died).toBeLessThan(500);
    expect(crash.tail()).toContain('segfault imminent');
    expect(ok.running).toBe(true);
    await sup.stopAll();
    expect(calls).toHaveLength(1); // the processes we stopped do not count
  });

  it('traps signals only while it runs, so many supervisors can come and go', async () => {
    const before = ['SIGINT', 'SIGTERM', 'SIGHUP', 'uncaughtException', 'unhandledRejection'].map((e) =>
      process.listenerCount(e),
    );
    const a = createSupervisor({ workdir: tempDir(), reaper: false });
    const b = createSupervisor({ workdir: tempDir(), reaper: false });
    expect(process.listenerCount('SIGINT')).toBe(before[0]! + 1); // one shared handler
    await a.stopAll();
    expect(process.listenerCount('SIGINT')).toBe(before[0]! + 1);
    await b.stopAll();
    expect(
      ['SIGINT', 'SIGTERM', 'SIGHUP', 'uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e)),
    ).toEqual(before);
    expect(listRuns()).toEqual([]);
  });

  it('its reaper exits by itself once the run is stopped', async () => {
    const sup = createSupervisor({ workdir: tempDir(), trapSignals: false });
    supervisors.push(sup);
    const reaper = sup.reaperPid;
    expect(reaper).toBeGreaterThan(0);
    await sleep(300);
    expect(isAlive(reaper)).toBe(true);
    await sup.stopAll();
    await waitGone([reaper], 2000);
  });
});
