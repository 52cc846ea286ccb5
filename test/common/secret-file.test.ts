// A secret file is never written through a link put in its place, and is always the owner's alone (0600), whether it
// is new, replaces a looser file, or replaces a symlink to someone else's file.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSecretFile } from '../../harness/common/secret-file.js';
import { walletPassword, walletPasswordFile } from '../../harness/testnet/programs/secrets.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'saltnet-secret-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('writeSecretFile', () => {
  it('replaces a symlink with a file of its own: the link’s target keeps its text and its mode', () => {
    const target = join(dir, 'target.txt');
    writeFileSync(target, 'keep me');
    chmodSync(target, 0o644);
    const token = join(dir, '.control-token');
    symlinkSync(target, token);
    writeSecretFile(token, 'secret');
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    expect(statSync(target).mode & 0o777).toBe(0o644);
    expect(lstatSync(token).isSymbolicLink()).toBe(false);
    expect(readFileSync(token, 'utf8')).toBe('secret');
    expect(statSync(token).mode & 0o777).toBe(0o600);
  });

  it('makes a file kept with looser permissions 0600 again, and a dangling link is not followed either', () => {
    const loose = join(dir, 'loose');
    writeFileSync(loose, 'old');
    chmodSync(loose, 0o666);
    writeSecretFile(loose, 'new');
    expect(statSync(loose).mode & 0o777).toBe(0o600);
    const dangling = join(dir, 'dangling');
    symlinkSync(join(dir, 'nowhere'), dangling);
    writeSecretFile(dangling, 'x');
    expect(() => statSync(join(dir, 'nowhere'))).toThrow();
    expect(readFileSync(dangling, 'utf8')).toBe('x');
  });
});

describe('the wallets’ password file', () => {
  it('refuses a symlink in its place, naming it, rather than reading or chmod-ing what it points to', () => {
    const target = join(dir, 'elsewhere');
    writeFileSync(target, 'not a password');
    chmodSync(target, 0o644);
    const file = walletPasswordFile(dir);
    rmSync(file, { force: true });
    mkdirSync(join(dir, 'wallets'), { recursive: true });
    symlinkSync(target, file);
    expect(() => walletPassword(dir)).toThrow(/\.password is a symbolic link/);
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });
});
