// The simulated wallet's files: sealed with a key scrypt derives from the password, at the cost the file records; a
// file written before the cost was recorded (scrypt at 2^14) still opens with its password, and only with it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deriveKey, InvalidPassword, keysPath, readKeys, writeKeys } from '../../../harness/sim/wallet/files.js';
import { cleanup, tempDir } from '../../helpers/sim.js';

const dir = tempDir('saltnet-sim-files-');
afterAll(() => cleanup(dir));

describe('simulated wallet files', () => {
  it('records the cost of a new key, and opens with the password only', () => {
    const path = join(dir, 'new');
    writeKeys(path, deriveKey('pw-new'), 'secret seed');
    expect(JSON.parse(readFileSync(keysPath(path), 'utf8')).n).toBe(1024);
    expect(readKeys(path, 'pw-new').plaintext).toBe('secret seed');
    expect(() => readKeys(path, 'pw-other')).toThrow(InvalidPassword);
  });

  it('opens a file written at 2^14 that does not say its cost, and keeps that cost for its key', () => {
    const path = join(dir, 'old');
    writeKeys(path, deriveKey('pw-old', { salt: Buffer.alloc(16, 7), n: 1 << 14 }), 'old seed');
    const env = JSON.parse(readFileSync(keysPath(path), 'utf8')) as Record<string, unknown>;
    delete env.n;
    writeFileSync(keysPath(path), JSON.stringify(env));
    const opened = readKeys(path, 'pw-old');
    expect(opened.plaintext).toBe('old seed');
    expect(opened.key.n).toBe(1 << 14);
    expect(deriveKey('pw-old', opened.key).key.equals(opened.key.key)).toBe(true);
    expect(() => readKeys(path, 'pw-new')).toThrow(InvalidPassword);
  });
});
