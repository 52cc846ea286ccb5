// The workdir's errors, one per cause (the permission cases cannot be made for real as root).
import { describe, expect, it } from 'vitest';
import { workdirProblem } from '../../harness/testnet/workdir.js';

const err = (code: string, path?: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: something, mkdir '${path ?? '/x'}'`), { code, ...(path ? { path } : {}) });

describe('workdirProblem', () => {
  it('names the folder, the cause and the fix', () => {
    expect(workdirProblem(err('EACCES', '/srv/w'), '/srv/w/run', true)).toBe(
      '--workdir /srv/w/run cannot be created or written: permission denied on /srv/w: give another --workdir',
    );
    expect(workdirProblem(err('EPERM'), '/srv/w', false)).toBe(
      'the temporary workdir /srv/w cannot be created or written: permission denied: set TMPDIR to a folder you can write, or give --workdir',
    );
    expect(workdirProblem(err('EROFS'), '/ro/w', true)).toBe(
      '--workdir /ro/w is on a read-only file system: give another --workdir',
    );
    expect(workdirProblem(err('ENOSPC'), '/full/w', true)).toBe(
      '--workdir /full/w: no space left on the device: free some space or give another --workdir',
    );
    expect(workdirProblem(err('EIO'), '/bad/w', true)).toBe(
      "--workdir /bad/w cannot be created: EIO: something, mkdir '/x'",
    );
  });
});
