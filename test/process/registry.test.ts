import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isAlive,
  listRuns,
  procStartTime,
  readRun,
  reapRun,
  reapStale,
  removeRun,
  scanRuns,
  selfStartTime,
  stateDir,
  writeRun,
  type RunRecord,
} from '../../harness/process/registry.js';
import { execTarget, identityOf, identityOfStarted, RUN_ENV, selfIdentity } from '../../harness/process/identity.js';
import { waitUntilReady } from '../../harness/process/ready.js';
import { isTempWorkdirPath, newTempWorkdir } from '../../harness/process/workdir.js';
import { cleanup, fake, sleep, tempDir, waitGone } from './helpers.js';

let savedStateDir: string | undefined;
beforeEach(() => {
  savedStateDir = process.env['SALTNET_STATE_DIR'];
  process.env['SALTNET_STATE_DIR'] = tempDir();
});
afterEach(async () => {
  if (savedStateDir === undefined) delete process.env['SALTNET_STATE_DIR'];
  else process.env['SALTNET_STATE_DIR'] = savedStateDir;
  await cleanup();
});

function record(runId: string, over: Partial<RunRecord> = {}): RunRecord {
  return {
    runId,
    ownerPid: process.pid,
    owner: selfIdentity(),
    startedAt: new Date().toISOString(),
    workdir: '/tmp/x',
    processes: [],
    ...over,
  };
}

/** A fake started as a program of `runId` is (the supervisor marks each program so). */
const ofRun = (runId: string): { env: Record<string, string> } => ({ env: { [RUN_ENV]: runId } });

/** A pid and start time of a process that has exited. */
async function deadProcess(): Promise<{ pid: number; startTime: string }> {
  const c = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 100)'], { stdio: 'ignore' });
  await new Promise((r) => c.once('spawn', r));
  const startTime = procStartTime(c.pid!)!;
  await new Promise((r) => c.once('exit', r));
  return { pid: c.pid!, startTime };
}

describe('run registry', () => {
  it('round-trips records atomically and lists them oldest first', () => {
    const dir = stateDir();
    expect(dir).toBe(process.env['SALTNET_STATE_DIR']);
    const a = record('run-a', { startedAt: '2025-01-01T00:00:00.000Z', info: { daemonRpc: 'http://127.0.0.1:1' } });
    const b = record('run-b', { startedAt: '2024-01-01T00:00:00.000Z' });
    writeRun(a);
    writeRun(b);
    expect(readRun('run-a')).toEqual(a);
    expect(listRuns().map((r) => r.runId)).toEqual(['run-b', 'run-a']);
    writeRun({ ...a, processes: [{ name: 'daemon', pid: 2, commandLine: 'salviumd', ...selfIdentity() }] });
    expect(readRun('run-a')?.processes).toHaveLength(1);
    expect(readdirSync(dir).sort()).toEqual(['run-a.json', 'run-b.json']); // no temporary files left
    removeRun('run-a');
    removeRun('run-a');
    expect(readRun('run-a')).toBeUndefined();
    expect(() => writeRun(record('../escape'))).toThrow(/invalid run id/);
  });

  it('isAlive detects dead pids and recycled pids by start time', async () => {
    expect(isAlive(process.pid)).toBe(true);
    expect(isAlive(process.pid, selfStartTime())).toBe(true);
    expect(isAlive(process.pid, String(Number(selfStartTime()) - 1))).toBe(false); // same pid, other process
    const dead = await deadProcess();
    expect(isAlive(dead.pid)).toBe(false);
    expect(isAlive(dead.pid, dead.startTime)).toBe(false);
    expect(isAlive(0)).toBe(false);
  });

  it('reapRun stops live identical processes (SIGTERM first, trees included) and removes the record', async () => {
    const polite = fake(['on-term:20', 'say:up', 'forever'], ofRun('run-reap'));
    const stubborn = fake(['ignore-term', 'grandchild', 'say:up', 'forever'], ofRun('run-reap'));
    const gc = Number((await stubborn.waitForText(/^grandchild \d+/, { timeoutMs: 5000 })).split(' ')[1]);
    await waitUntilReady(polite, [{ kind: 'log', patterns: ['up'] }], { timeoutMs: 5000 });
    const r = record('run-reap', {
      processes: [polite, stubborn].map((p) => ({
        name: p.name === 'fake' ? (p === polite ? 'polite' : 'stubborn') : p.name,
        pid: p.pid,
        commandLine: p.commandLine,
        ...identityOf(p.pid)!,
      })),
    });
    writeRun(r);
    const killed = await reapRun(r, { graceMs: 300 });
    expect(killed).toEqual([`stubborn (pid ${stubborn.pid})`, `polite (pid ${polite.pid})`]);
    expect(await polite.exited).toMatchObject({ code: 0 }); // it had its SIGTERM
    expect(polite.tail()).toContain('stopping');
    expect(await stubborn.exited).toMatchObject({ signal: 'SIGKILL' });
    await waitGone([gc], 2000);
    expect(readRun('run-reap')).toBeUndefined();
  });

  it('reapRun stops a program started under `nice` (a full-mode daemon), known by what nice ran', async () => {
    const args = ['-n', '5', process.execPath, '-e', 'setInterval(() => {}, 1000)'];
    const c = spawn('nice', args, { stdio: 'ignore', env: { ...process.env, [RUN_ENV]: 'run-nice' } });
    await new Promise((r) => c.once('spawn', r));
    const id = identityOfStarted(c.pid!, 'nice', args)!;
    expect(execTarget('nice', args)).toEqual([process.execPath, args.slice(3)]);
    const r = record('run-nice', { processes: [{ name: 'daemon', pid: c.pid!, commandLine: 'nice …', ...id }] });
    writeRun(r);
    // Once nice has run the program, in the same process: the record names it.
    await expect.poll(() => identityOf(c.pid!)?.exe).toBe(basename(process.execPath));
    expect(await reapRun(r, { graceMs: 300 })).toEqual([`daemon (pid ${c.pid})`]);
    await waitGone([c.pid!], 2000);
  });

  it('reapRun leaves alone a process whose pid was recycled', async () => {
    // Another program's process under the recorded pid: it was not started for the run (no SALTNET_RUN of it).
    const p = fake(['say:up', 'forever']);
    await p.waitForText('up', { timeoutMs: 5000 });
    const r = record('run-reused', {
      processes: [
        {
          name: 'daemon',
          pid: p.pid,
          commandLine: 'salviumd',
          ...identityOf(p.pid)!,
          startTime: String(Number(procStartTime(p.pid)) - 100),
        },
      ],
    });
    writeRun(r);
    expect(await reapRun(r, { graceMs: 200 })).toEqual([]);
    await sleep(100);
    expect(p.running).toBe(true);
    expect(readRun('run-reused')).toBeUndefined();
  });

  it('reapRun stops a process started for the run that its record does not list (one that left its tree)', async () => {
    const stray = fake(['say:up', 'forever'], ofRun('run-stray'));
    await stray.waitForText('up', { timeoutMs: 5000 });
    const r = record('run-stray', { processes: [] });
    writeRun(r);
    await reapRun(r, { graceMs: 200 });
    await stray.exited;
    expect(stray.running).toBe(false);
  });

  it('reapStale reaps only the runs whose owner is dead', async () => {
    const orphan = fake(['say:up', 'forever'], ofRun('run-stale'));
    await orphan.waitForText('up', { timeoutMs: 5000 });
    const owner = await deadProcess();
    writeRun(
      record('run-stale', {
        ownerPid: owner.pid,
        owner: { ...selfIdentity(), startTime: owner.startTime },
        processes: [{ name: 'daemon', pid: orphan.pid, commandLine: orphan.commandLine, ...identityOf(orphan.pid)! }],
      }),
    );
    writeRun(record('run-mine')); // owned by this live process
    const reaped = await reapStale({ graceMs: 1000 });
    expect(reaped.map((r) => r.runId)).toEqual(['run-stale']);
    expect((await orphan.exited).signal).toBe('SIGTERM');
    expect(readRun('run-stale')).toBeUndefined();
    expect(readRun('run-mine')).toBeDefined();
  });

  it('reapRun removes a temporary workdir the run created, and nothing else', async () => {
    const temp = newTempWorkdir();
    mkdirSync(join(temp, 'logs'), { recursive: true });
    writeFileSync(join(temp, 'logs', 'daemon.log'), 'x');
    expect(isTempWorkdirPath(temp)).toBe(true);
    const r = record('run-temp', { workdir: temp, tempWorkdir: true });
    writeRun(r);
    await reapRun(r, { graceMs: 100 });
    expect(existsSync(temp)).toBe(false);
    expect(readRun('run-temp')).toBeUndefined();
  });

  it('reapRun keeps a temporary workdir the run asked to keep, and says where', async () => {
    const temp = newTempWorkdir();
    mkdirSync(temp);
    try {
      const lines: string[] = [];
      const r = record('run-kept', { workdir: temp, tempWorkdir: true, keepWorkdir: true });
      writeRun(r);
      await reapRun(r, { graceMs: 100, log: (l) => lines.push(l) });
      expect(existsSync(temp)).toBe(true);
      expect(lines).toEqual([`saltnet: run run-kept: its workdir is kept for its logs: ${temp}`]);
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('reapRun never removes a workdir the run did not create, nor one outside the temp folder, nor a symlink', async () => {
    const user = newTempWorkdir(); // named like ours, but the record does not say the run created it (--workdir)
    mkdirSync(user);
    const elsewhere = mkdtempSync(join(tempDir(), 'saltnet-')); // flagged, but not directly in os.tmpdir()
    const target = mkdtempSync(join(tmpdir(), 'saltnet-target-'));
    const link = newTempWorkdir(); // flagged, named like ours, but a symlink to somewhere else
    symlinkSync(target, link);
    try {
      for (const [id, over] of [
        ['run-user', { workdir: user }],
        ['run-user2', { workdir: user, tempWorkdir: false }],
        ['run-elsewhere', { workdir: elsewhere, tempWorkdir: true }],
        ['run-link', { workdir: link, tempWorkdir: true }],
        ['run-parent', { workdir: tmpdir(), tempWorkdir: true }],
      ] as const) {
        const r = record(id, over);
        writeRun(r);
        await reapRun(r, { graceMs: 100 });
        expect(readRun(id)).toBeUndefined();
      }
      for (const d of [user, elsewhere, target, link, tmpdir()]) expect(existsSync(d), d).toBe(true);
    } finally {
      for (const d of [user, target, link]) rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('crafted records', () => {
  const sleeps: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const s of sleeps.splice(0)) s.kill('SIGKILL');
  });
  const sleeper = async (): Promise<number> => {
    const s = spawn('sleep', ['300'], { stdio: 'ignore' });
    sleeps.push(s);
    await new Promise((r) => s.once('spawn', r));
    await waitFor(() => identityOf(s.pid!)?.exe === 'sleep');
    return s.pid!;
  };
  const waitFor = async (ok: () => boolean): Promise<void> => {
    for (let i = 0; i < 100 && !ok(); i++) await sleep(20);
  };

  it('are reported, and not one of the unrelated processes they name is signalled', async () => {
    const [a, b, c, d, e] = [await sleeper(), await sleeper(), await sleeper(), await sleeper(), await sleeper()];
    const owner = await deadProcess();
    const deadOwner = { ownerPid: owner.pid, owner: { ...selfIdentity(), startTime: owner.startTime } };
    const entry = (pid: number) => ({ name: 'daemon', pid, commandLine: 'sleep 300', ...identityOf(pid)! });
    const dir = stateDir();
    const raw = (id: string, body: object): void => writeFileSync(join(dir, `${id}.json`), JSON.stringify(body));
    // An older saltnet's shape: no owner identity, a process without a start time.
    raw('old-shape', {
      runId: 'old-shape',
      ownerPid: owner.pid,
      startedAt: new Date().toISOString(),
      workdir: '/tmp/x',
      processes: [{ name: 'daemon', pid: a, commandLine: 'sleep 300' }],
    });
    // No workdir (`workdir undefined` was seen), the owner's start time missing.
    raw('no-workdir', { ...record('no-workdir', deadOwner), workdir: undefined, processes: [entry(a)] });
    raw('not-json', { x: 1 });
    writeFileSync(join(dir, 'half.json'), '{"runId": "half", "ownerPid": ');
    // Valid shapes, a dead owner: a start time that matches but another command line; a perfect copy of an unrelated
    // process's identity (it was not started by the run); a pid that is not there.
    writeRun(record('wrong-command', { ...deadOwner, processes: [{ ...entry(b), argsHash: 'f'.repeat(64) }] }));
    writeRun(record('copied', { ...deadOwner, processes: [entry(c)] }));
    // Its owner a live, unrelated process (copied identity): not stale, nothing reaped.
    writeRun(record('live-owner', { ownerPid: d, owner: identityOf(d)!, processes: [entry(e)] }));
    const { invalid } = scanRuns();
    expect(invalid.map((i) => i.file.replace(`${dir}/`, '')).sort()).toEqual([
      'half.json',
      'no-workdir.json',
      'not-json.json',
      'old-shape.json',
    ]);
    expect(invalid.find((i) => i.file.endsWith('old-shape.json'))!.problem).toMatch(/owner/);
    expect(invalid.find((i) => i.file.endsWith('no-workdir.json'))!.problem).toMatch(/^workdir: /);
    const told: string[] = [];
    const reaped = await reapStale({ graceMs: 300, log: (l) => told.push(l) });
    expect(reaped.map((r) => r.runId).sort()).toEqual(['copied', 'wrong-command']);
    expect(told.join('\n')).toContain(`pid ${b} (daemon) is not signalled: its command line is not the one recorded`);
    expect(told.join('\n')).toContain(`pid ${c} (daemon) is not signalled: it was not started by run copied`);
    await sleep(300);
    for (const pid of [a, b, c, d, e]) expect(isAlive(pid), `sleep ${pid}`).toBe(true);
  });
});
