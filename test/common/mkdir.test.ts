// makeDirs: `mkdir -p` without Node's recursive mkdir, which spins forever (deaf to signals) where a
// parent exists but the child can never be made, e.g. /proc/nope.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { makeDirs, makeDirsAsync } from '../../harness/common/mkdir.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const dir = tempDir('saltnet-mkdir-');
afterAll(() => cleanup(dir));

it('makes the missing folders with the mode asked for, and is fine with what exists', async () => {
  makeDirs(join(dir, 'a', 'b', 'c'), 0o700);
  expect(statSync(join(dir, 'a', 'b', 'c')).mode & 0o777).toBe(0o700);
  makeDirs(join(dir, 'a', 'b', 'c'));
  await makeDirsAsync(join(dir, 'x', 'y'));
  expect(existsSync(join(dir, 'x', 'y'))).toBe(true);
});

it('fails at once, naming the folder, under /proc and under a file', async () => {
  expect(() => makeDirs('/proc/nope/deeper')).toThrow(expect.objectContaining({ code: 'ENOENT', path: '/proc/nope' }));
  await expect(makeDirsAsync('/proc/nope')).rejects.toMatchObject({ code: 'ENOENT', path: '/proc/nope' });
  writeFileSync(join(dir, 'file'), 'x');
  expect(() => makeDirs(join(dir, 'file', 'sub'))).toThrow(
    expect.objectContaining({ code: 'ENOTDIR', path: join(dir, 'file') }),
  );
});
