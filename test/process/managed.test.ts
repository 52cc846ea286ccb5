import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessExitedError, ProcessStartError, ReadinessTimeout } from '../../harness/process/errors.js';
import { startProcess } from '../../harness/process/managed.js';
import { isAlive } from '../../harness/process/registry.js';
import { cleanup, fake, FAKE, NODE, sleep, tempDir, waitGone } from './helpers.js';

afterEach(cleanup);

describe('startProcess', () => {
  it('redacts secrets from the command line, the log file and the tail; strips ANSI; logs stdout and stderr', async () => {
    const dir = tempDir();
    const logFile = join(dir, 'logs', 'nested', 'wallet.log'); // the folder is created
    const p = fake(
      [
        'say:password is hunter2',
        'say:\\u001b[1;32mgreen\\u001b[0m text',
        'err:on stderr',
        'raw:no newline at the end',
      ],
      {
        name: 'wallet',
        logFile,
        secrets: ['hunter2'],
        args: [
          FAKE,
          'say:password is hunter2',
          'say:\\u001b[1;32mgreen\\u001b[0m text',
          'err:on stderr',
          'raw:no newline at the end',
          '--password=hunter2',
        ],
      },
    );
    expect(p.commandLine).toContain('--password=***');
    expect(p.commandLine).not.toContain('hunter2');
    const exit = await p.exited;
    expect(exit).toEqual({ code: 0, signal: null, expected: false });
    expect(p.running).toBe(false);
    expect(p.tail()).toEqual(
      expect.arrayContaining(['password is ***', 'green text', 'on stderr', 'no newline at the end']),
    );
    expect(p.tail(1)).toHaveLength(1);
    const log = readFileSync(logFile, 'utf8');
    expect(log).not.toContain('hunter2');
    expect(log).not.toContain('\u001b');
    expect(log).toContain('password is ***\n');
    expect(log).toContain('green text\n');
    expect(log).toContain('on stderr\n');
    expect(log).toContain('no newline at the end\n'); // the final partial line
    expect(log).toMatch(/^=== saltnet \S+ start wallet \(pid \d+\): .* --password=\*\*\*\n/);
    expect(log).toMatch(/=== saltnet \S+ wallet \(pid \d+\) exited with code 0\n$/);
  });

  it('appends to an existing log file, sets TERM=dumb and passes env over process.env', async () => {
    const logFile = join(tempDir(), 'x.log');
    writeFileSync(logFile, 'earlier run\n');
    const p = fake(['env:TERM', 'env:SALTNET_TEST_VAR', 'env:PATH'], {
      logFile,
      env: { SALTNET_TEST_VAR: 'yes', TERM: 'xterm-256color' },
    });
    await p.exited;
    expect(p.tail()).toEqual(
      expect.arrayContaining(['TERM=dumb', 'SALTNET_TEST_VAR=yes', `PATH=${process.env['PATH']}`]),
    );
    expect(readFileSync(logFile, 'utf8')).toMatch(/^earlier run\n=== saltnet/);
  });

  it('keeps only tailLines lines and calls onLine for each line', async () => {
    const seen: string[] = [];
    const p = fake(
      Array.from({ length: 20 }, (_, i) => `say:line ${i}`),
      { tailLines: 5 },
    );
    const off = p.onLine((l) => seen.push(l));
    await p.exited;
    off();
    expect(seen).toHaveLength(20);
    expect(p.tail()).toEqual(['line 15', 'line 16', 'line 17', 'line 18', 'line 19']);
    expect(p.output()).toBe('line 15\nline 16\nline 17\nline 18\nline 19');
  });

  it('throws a clear error naming the path for a missing or non-executable program', () => {
    const dir = tempDir();
    expect(() =>
      startProcess({ name: 'daemon', command: join(dir, 'salviumd'), args: [], logFile: join(dir, 'd.log') }),
    ).toThrow(
      new ProcessStartError({
        processName: 'daemon',
        path: join(dir, 'salviumd'),
        code: 'ENOENT',
        reason: 'does not exist',
      }),
    );
    const notExec = join(dir, 'salvium-wallet-rpc');
    writeFileSync(notExec, '#!/bin/sh\n');
    chmodSync(notExec, 0o644);
    expect(() => startProcess({ name: 'wallet-rpc', command: notExec, args: [], logFile: join(dir, 'w.log') })).toThrow(
      /cannot start wallet-rpc: .*salvium-wallet-rpc is not executable .*\(EACCES\)/,
    );
    expect(() =>
      startProcess({ name: 'x', command: 'saltnet-no-such-program', args: [], logFile: join(dir, 'x.log') }),
    ).toThrow(/saltnet-no-such-program was not found in PATH \(ENOENT\)/);
  });

  it('throws for a working directory that does not exist', () => {
    const dir = tempDir();
    expect(() =>
      startProcess({ name: 'daemon', command: NODE, args: [], cwd: join(dir, 'nope'), logFile: join(dir, 'd.log') }),
    ).toThrow(/cannot start daemon: .*nope \(its working directory\) is not a directory \(ENOENT\)/);
  });

  it('reports an exit by signal', async () => {
    const p = fake(['say:about to crash', 'signal:SIGSEGV']);
    expect(await p.exited).toEqual({ code: null, signal: 'SIGSEGV', expected: false });
  });
});

describe('waitForText', () => {
  it('matches a prompt without a trailing newline, then answers it through stdin', async () => {
    const p = fake(
      ['say:Welcome', 'raw:Enter the number of the language: ', 'read', 'raw:Password: ', 'read', 'sleep:100'],
      { stdin: 'pipe', secrets: ['pw123'] },
    );
    expect(await p.waitForText('Enter the number', { timeoutMs: 5000 })).toBe('Enter the number of the language: ');
    p.write('1\n');
    expect(await p.waitForText(/got: 1$/, { timeoutMs: 5000 })).toBe('Enter the number of the language: got: 1');
    const password = p.waitForText(/Password: $/, { timeoutMs: 5000 });
    await password;
    p.write('pw123\n');
    expect(await p.waitForText('got:', { timeoutMs: 5000 })).toBe('Password: got: ***');
    p.endInput();
    await p.exited;
    expect(() => p.write('late\n')).toThrow(/has exited/);
  });

  it('only counts lines printed after the call, and a prompt only once', async () => {
    const p = fake(
      [
        'say:old news',
        'sleep:300',
        'say:fresh news',
        'raw:Password: ',
        'read',
        'sleep:300',
        'raw:Password again: ',
        'forever',
      ],
      { stdin: 'pipe' },
    );
    await p.waitForText('old news', { timeoutMs: 5000 });
    expect(await p.waitForText('news', { timeoutMs: 5000 })).toBe('fresh news');
    expect(await p.waitForText('Password', { timeoutMs: 5000 })).toBe('Password: ');
    p.write('x\n');
    // The answered prompt does not match again; the next one does.
    expect(await p.waitForText('Password', { timeoutMs: 5000 })).toBe('Password: got: x');
    expect(await p.waitForText('Password', { timeoutMs: 5000 })).toBe('Password again: ');
  });

  it('rejects with ProcessExitedError (exit code and last lines) if the process exits first', async () => {
    const p = fake(['say:loading', 'err:fatal: cannot open database', 'exit:3']);
    const err = await p.waitForText('never printed', { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProcessExitedError);
    const e = err as ProcessExitedError;
    expect(e.exit).toEqual({ code: 3, signal: null, expected: false });
    expect(e.message).toMatch(/^fake exited with code 3 before "never printed" appeared/);
    expect(e.message).toContain('fatal: cannot open database');
    expect(e.message).toContain(p.logFile);
    expect(e.tail).toEqual(['loading', 'fatal: cannot open database']);
    // Called after the exit: rejects at once.
    await expect(p.waitForText('x', { timeoutMs: 10_000 })).rejects.toBeInstanceOf(ProcessExitedError);
  });

  it('rejects with ReadinessTimeout at the deadline', async () => {
    const p = fake(['say:something else', 'forever']);
    // Printed before the deadline starts, however slow the machine: the tail must hold it.
    await p.waitForText('something else', { timeoutMs: 10_000 });
    const err = (await p.waitForText(/never/, { timeoutMs: 200 }).catch((e: unknown) => e)) as ReadinessTimeout;
    expect(err).toBeInstanceOf(ReadinessTimeout);
    expect(err.waitedMs).toBeGreaterThanOrEqual(190);
    expect(err.message).toMatch(/^fake did not print \/never\/ within \d+ ms/);
    expect(err.tail).toContain('something else');
  });
});

describe('stop', () => {
  it('stops gracefully with SIGTERM and marks the exit expected; idempotent', async () => {
    const p = fake(['on-term:50', 'say:up', 'forever']);
    await p.waitForText('up', { timeoutMs: 5000 });
    const first = p.stop();
    expect(p.stop()).toBe(first);
    const exit = await first;
    expect(exit).toEqual({ code: 0, signal: null, expected: true });
    expect(p.tail()).toContain('stopping');
  });

  it('uses a custom graceful step', async () => {
    const p = fake(['say:up', 'read', 'say:bye', 'exit:0'], { stdin: 'pipe' });
    await p.waitForText('up', { timeoutMs: 5000 });
    const exit = await p.stop({ graceful: async () => p.write('exit\n'), graceMs: 5000 });
    expect(exit).toEqual({ code: 0, signal: null, expected: true });
    expect(p.tail()).toEqual(['up', 'got: exit', 'bye']);
  });

  it('kills a program that ignores SIGTERM after the grace period, grandchild included', async () => {
    const p = fake(['ignore-term', 'grandchild', 'say:up', 'forever']);
    const gcLine = await p.waitForText(/^grandchild \d+/, { timeoutMs: 5000 });
    const grandchild = Number(gcLine.split(' ')[1]);
    expect(isAlive(grandchild)).toBe(true);
    const t0 = Date.now();
    const exit = await p.stop({ graceMs: 400 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(390);
    expect(exit).toEqual({ code: null, signal: 'SIGKILL', expected: true });
    expect(p.tail()).toContain('ignoring SIGTERM');
    await waitGone([p.pid, grandchild], 2000);
  });

  it('kills a grandchild left behind when its parent exits on its own', async () => {
    const p = fake(['grandchild', 'sleep:300', 'exit:0']);
    const gc = Number((await p.waitForText(/^grandchild \d+/, { timeoutMs: 5000 })).split(' ')[1]);
    expect((await p.exited).code).toBe(0);
    await waitGone([gc], 2000);
  });

  it('stop after the exit returns the exit as it happened', async () => {
    const p = fake(['exit:4']);
    await p.exited;
    expect(await p.stop()).toEqual({ code: 4, signal: null, expected: false });
  });

  it('a failing graceful step falls back to SIGTERM', async () => {
    const p = fake(['say:up', 'forever']);
    await p.waitForText('up', { timeoutMs: 5000 });
    const exit = await p.stop({ graceful: () => Promise.reject(new Error('rpc down')), graceMs: 5000 });
    expect(exit).toEqual({ code: null, signal: 'SIGTERM', expected: true });
    await sleep(0);
    expect(readFileSync(p.logFile, 'utf8')).toContain('graceful stop of fake failed (rpc down): sending SIGTERM');
  });
});
