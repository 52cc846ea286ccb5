// unpack(): every entry is checked before anything is written; unsafe archives are refused whole;
// both passes stream, so memory does not grow with what an archive unpacks to.
import {
  createWriteStream,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync, gzipSync } from 'node:zlib';
import { execa } from 'execa';
import { Header } from 'tar';
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
    expect(refused([f('a', 600), f('b', 600)], 1000)).toContain(
      'more content than the cap of 1000 bytes, passed at entry "b"',
    );
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

/** A tar header block for a file of `size` bytes. */
function tarHeader(path: string, size: number): Buffer {
  const block = Buffer.alloc(512);
  new Header({ path, mode: 0o644, size, type: 'File', mtime: new Date(0), uid: 0, gid: 0 }).encode(block, 0);
  return block;
}

describe('the content cap', () => {
  it('a .tar.gz entry declaring more than the cap is refused at its header, before its content is read', async () => {
    // The entry claims 10 MiB and the archive ends 1 KiB into it: reading on would fail as a damaged archive.
    const root = tempDir();
    const file = join(root, 'big.tar.gz');
    const head = tarGz(programs('', 0o755)); // a whole archive's worth of entries, without its end blocks:
    const entries = gunzipSync(head).subarray(0, -1024);
    writeFileSync(file, gzipSync(Buffer.concat([entries, tarHeader('big/blob', 10 * 2 ** 20), Buffer.alloc(1024, 7)])));
    const dest = join(root, 'dest');
    mkdirSync(dest);
    const err = await unpack(file, 'tar.gz', dest, 'big.tar.gz', 2 ** 20).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InstallError);
    expect((err as InstallError).code).toBe('BAD_ARCHIVE');
    expect((err as Error).message).toContain(
      'refusing big.tar.gz: its entries declare more content than the cap of 1 MiB (1048576 bytes), passed at entry "big/blob" (10485760 bytes',
    );
    expect((err as Error).message).toContain('nothing was unpacked');
    expect(readdirSync(dest)).toEqual([]);
  });

  it('a zip entry declaring more than the cap is refused from its central directory, nothing written', async () => {
    const root = tempDir();
    const file = join(root, 'big.zip');
    const bytes = zip([...programs('', 0o755), { path: 'blob', body: 'x'.repeat(2000) }]);
    writeFileSync(file, bytes);
    const dest = join(root, 'dest');
    mkdirSync(dest);
    await expect(unpack(file, 'zip', dest, 'big.zip', 1000)).rejects.toMatchObject({
      code: 'BAD_ARCHIVE',
      message: expect.stringContaining('the cap of 1000 bytes, passed at entry "blob" (2000 bytes'),
    });
    expect(readdirSync(dest)).toEqual([]);
  });
});

it('a .tar.gz of 256 MiB of zeros unpacks in a child process whose peak memory grows by far less than that', async () => {
  // The archive is a few hundred KiB; read whole and inflated in one call, its content would all be in memory at once.
  const MiB = 2 ** 20;
  const root = tempDir();
  const file = join(root, 'zeros.tar.gz');
  async function* content(): AsyncGenerator<Buffer> {
    yield tarHeader('zeros', 256 * MiB);
    const zero = Buffer.alloc(MiB);
    for (let i = 0; i < 256; i++) yield zero;
    yield Buffer.alloc(1024);
  }
  await pipeline(Readable.from(content()), createGzip({ level: 1 }), createWriteStream(file));
  const dest = join(root, 'dest');
  mkdirSync(dest);
  const unpackJs = new URL('../../dist/harness/install/unpack.js', import.meta.url).href;
  const script = `
    const { unpack } = await import(${JSON.stringify(unpackJs)});
    const before = process.resourceUsage().maxRSS;
    await unpack(${JSON.stringify(file)}, 'tar.gz', ${JSON.stringify(dest)}, 'zeros.tar.gz');
    process.stdout.write(JSON.stringify({ before, after: process.resourceUsage().maxRSS }));`;
  const r = await execa(process.execPath, ['--input-type=module', '-e', script], { reject: false });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const { before, after } = JSON.parse(String(r.stdout)) as { before: number; after: number }; // KiB
  expect(statSync(join(dest, 'zeros')).size).toBe(256 * MiB);
  expect((after - before) * 1024).toBeLessThan(96 * MiB);
});
