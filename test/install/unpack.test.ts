// unpack(): every entry is checked before anything is written; unsafe archives are refused whole.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InstallError } from '../../harness/install/errors.js';
import { archiveFormat, checkEntries, unpack, type ArchiveEntry } from '../../harness/install/unpack.js';
import { cleanupDirs, programs, tarGz, tempDir, zip, type FakeEntry } from './helpers.js';

afterEach(cleanupDirs);

const f = (path: string, size = 1): ArchiveEntry => ({ path, kind: 'file', typeName: 'File', size });
const l = (path: string, linkpath: string): ArchiveEntry => ({
  path,
  kind: 'symlink',
  typeName: 'SymbolicLink',
  linkpath,
  size: 0,
});

function refused(entries: ArchiveEntry[], maxBytes?: number): string {
  try {
    checkEntries(entries, 'test.tar.gz', maxBytes);
  } catch (err) {
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('BAD_ARCHIVE');
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(entries)}`);
}

describe('checkEntries', () => {
  it.each([
    ['an absolute path', [f('/etc/cron.d/x')], 'absolute path'],
    ['a Windows drive path', [f('C:\\Windows\\x')], 'absolute path'],
    ['a .. segment', [f('bin/../../x')], "'..'"],
    ['a .. segment behind backslashes', [f('bin\\..\\..\\x')], "'..'"],
    ['a symlink out of the folder', [l('bin/link', '../../etc')], 'outside the folder'],
    ['a symlink to an absolute path', [l('link', '/etc/passwd')], 'absolute path'],
    ['a file below a symlink', [l('s', 'sub'), f('s/x')], 'parent s is a symlink'],
    ['a symlink resolved through another symlink', [l('s', '.'), l('x', 's/../..')], 'through another symlink'],
    [
      'a device',
      [{ path: 'dev', kind: 'other', typeName: 'CharacterDevice', size: 0 } as ArchiveEntry],
      'CharacterDevice',
    ],
    [
      'a hard link out of the folder',
      [{ path: 'h', kind: 'hardlink', typeName: 'Link', linkpath: '../x', size: 0 } as ArchiveEntry],
      'hard link',
    ],
  ])('refuses %s', (_what, entries, why) => {
    expect(refused(entries)).toContain(why);
  });

  it('refuses more content than the limit', () => {
    expect(refused([f('a', 600), f('b', 600)], 1000)).toContain('more than 1000 bytes');
  });

  it('accepts ordinary trees and symlinks that stay inside', () => {
    expect(() =>
      checkEntries(
        [
          { path: './', kind: 'dir', typeName: 'Directory', size: 0 },
          f('./a/b'),
          l('a/c', '../d'),
          l('a/up', '..'),
          f('d'),
        ],
        'ok',
      ),
    ).not.toThrow();
  });

  it('knows the formats it can unpack', () => {
    expect(['x.tar.gz', 'x.TGZ', 'x.tar', 'x.zip', 'x.tar.bz2', 'x.7z'].map(archiveFormat)).toEqual([
      'tar.gz',
      'tar.gz',
      'tar',
      'zip',
      undefined,
      undefined,
    ]);
  });
});

async function unpackBytes(
  kind: 'tar.gz' | 'zip',
  entries: FakeEntry[],
): Promise<{ root: string; dest: string; result: Promise<unknown> }> {
  const root = tempDir();
  const file = join(root, `a.${kind}`);
  writeFileSync(file, kind === 'zip' ? zip(entries) : tarGz(entries));
  const dest = join(root, 'deep', 'dest');
  mkdirSync(dest, { recursive: true });
  return { root, dest, result: unpack(file, kind, dest, 'a test archive') };
}

describe.each(['tar.gz', 'zip'] as const)('unpack %s', (kind) => {
  it('unpacks files, folders, modes and an inside symlink', async () => {
    const { dest, result } = await unpackBytes(kind, [
      { path: 'd', type: 'dir' },
      ...programs('d/', 0o755),
      { path: 'd/current', type: 'symlink', linkpath: 'salviumd' },
    ]);
    await result;
    expect(readdirSync(join(dest, 'd')).sort()).toEqual([
      'current',
      'salvium-wallet-cli',
      'salvium-wallet-rpc',
      'salviumd',
    ]);
    expect(lstatSync(join(dest, 'd', 'salviumd')).mode & 0o100).toBe(0o100);
    expect(readlinkSync(join(dest, 'd', 'current'))).toBe('salviumd');
  });

  it.each([
    ['a ../ entry', [{ path: '../../evil.txt', body: 'pwned' }]],
    ['an absolute entry', [{ path: '/tmp/saltnet-evil-absolute.txt', body: 'pwned' }]],
    [
      'a symlink out of the folder',
      [
        { path: 'link', type: 'symlink', linkpath: '../../..' },
        { path: 'ok', body: 'x' },
      ],
    ],
    [
      'a file written through a symlink',
      [
        { path: 'link', type: 'symlink', linkpath: '.' },
        { path: 'link/x', body: 'x' },
      ],
    ],
  ] as [string, FakeEntry[]][])('refuses %s and writes nothing', async (_what, entries) => {
    const { root, dest, result } = await unpackBytes(kind, [...programs('', 0o755), ...entries]);
    const err = await result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('BAD_ARCHIVE');
    expect((err as Error).message).toMatch(/a test archive/);
    expect(readdirSync(dest)).toEqual([]);
    expect(existsSync(join(root, 'evil.txt'))).toBe(false);
    expect(existsSync('/tmp/saltnet-evil-absolute.txt')).toBe(false);
  });

  it('refuses a FIFO entry', async () => {
    const { dest, result } = await unpackBytes(kind, [{ path: 'pipe', type: 'fifo' }]);
    await expect(result).rejects.toThrow(/unsafe|FIFO|fifo|other/);
    expect(readdirSync(dest)).toEqual([]);
  });
});

it('a damaged archive is BAD_ARCHIVE, not a crash', async () => {
  const root = tempDir();
  for (const kind of ['tar.gz', 'zip'] as const) {
    const file = join(root, `bad.${kind}`);
    writeFileSync(file, Buffer.from('this is not an archive at all, just some text that is long enough'.repeat(20)));
    await expect(unpack(file, kind, root, `bad.${kind}`)).rejects.toMatchObject({
      code: 'BAD_ARCHIVE',
      message: expect.stringContaining(`bad.${kind}`),
    });
  }
  expect(readFileSync(join(root, 'bad.zip'), 'utf8')).toMatch(/^this is not/);
});
