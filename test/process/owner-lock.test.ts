// One writer per folder: a lock file naming its holder (pid, identity, run), refused to a second
// writer while the holder lives, taken over once it is dead or not the process recorded.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { identityOf } from '../../harness/process/identity.js';
import { LockedError, liveHolder, takeOwnerLock } from '../../harness/process/owner-lock.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const dir = tempDir('saltnet-lock-');
afterAll(() => cleanup(dir));

it('is refused to a second writer with the holder named, and given up by its release only', async () => {
  const file = join(dir, 'one.lock');
  const lock = await takeOwnerLock(file, '--workdir /w', { what: 'saltnet up', runId: 'run-1' });
  expect(lock.held()).toBe(true);
  expect(liveHolder(file)).toMatchObject({ pid: process.pid, runId: 'run-1', what: 'saltnet up' });
  const second = takeOwnerLock(file, '--workdir /w', { what: 'saltnet up' });
  await expect(second).rejects.toBeInstanceOf(LockedError);
  await expect(second).rejects.toThrow(`--workdir /w is in use by saltnet up (pid ${process.pid}, run run-1, since `);
  lock.release();
  expect(existsSync(file)).toBe(false);
  (await takeOwnerLock(file, 'x', { what: 'y' })).release();
});

it('dies with its holder: a dead, recycled or bent holder, or a file that is no lock, is taken over', async () => {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((r) => child.once('spawn', r));
  for (let i = 0; i < 100 && identityOf(child.pid!)?.exe !== 'sleep'; i++) await new Promise((r) => setTimeout(r, 10));
  const id = identityOf(child.pid!)!;
  const holder = (owner: object): string =>
    JSON.stringify({ pid: child.pid, owner, what: 'another', since: 'then', nonce: 'n' });
  const file = join(dir, 'two.lock');
  try {
    writeFileSync(file, holder(id));
    await expect(takeOwnerLock(file, 'it', { what: 'me' })).rejects.toThrow(
      `it is in use by another (pid ${child.pid}`,
    );
    for (const bad of [holder({ ...id, startTime: '1' }), holder({ ...id, argsHash: 'f'.repeat(64) }), '{"pid":', '']) {
      writeFileSync(file, bad);
      const lock = await takeOwnerLock(file, 'it', { what: 'me' });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, what: 'me' });
      lock.release();
    }
    // None of it signalled the holder that was alive.
    expect(child.exitCode).toBeNull();
  } finally {
    child.kill('SIGKILL');
  }
});
