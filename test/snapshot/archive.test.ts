// exportSnapshot / importArchive: one .tar.gz file per snapshot, verified on the way in.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { exportSnapshot, importArchive, loadSnapshot, saveSnapshot } from '../../harness/snapshot/store.js';
import { END_OF_ARCHIVE, tarEntry } from './craft.js';
import { cleanup, manifestInput, readTree, sampleSources, tempDir } from './helpers.js';

afterEach(cleanup);

const KEY = 'sim-d500-h1201-e0e0e0e0e0e0';

function hasTar(): boolean {
  try {
    execFileSync('tar', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function exported(): Promise<{ cache: string; file: string; src: { daemon: string; wallets: string } }> {
  const cache = tempDir('cache');
  const src = sampleSources(tempDir('src'));
  await saveSnapshot({
    cacheDir: cache,
    key: KEY,
    sources: [
      { name: 'daemon', dir: src.daemon },
      { name: 'wallets', dir: src.wallets },
    ],
    manifest: manifestInput(),
  });
  const file = join(tempDir('out'), 'bug-report.tar.gz');
  await exportSnapshot(cache, KEY, file);
  return { cache, file, src };
}

/** Rewrite the (uncompressed) archive and gzip it again. */
function tamper(file: string, edit: (tar: Buffer) => Buffer): string {
  const out = `${file}.tampered.tar.gz`;
  writeFileSync(out, gzipSync(edit(gunzipSync(readFileSync(file)))));
  return out;
}

function expectNothingImported(cache: string): void {
  const dir = join(cache, 'snapshots');
  expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
}

describe('export and import', () => {
  it('round-trips a snapshot through one archive into another cache', async () => {
    const { file, src } = await exported();
    const other = tempDir('cache2');
    const m = await importArchive(other, file);
    expect(m.key).toBe(KEY);
    expect(readdirSync(join(other, 'snapshots'))).toEqual([KEY]);
    const out = tempDir('restored');
    const r = await loadSnapshot({
      cacheDir: other,
      key: KEY,
      targets: { daemon: join(out, 'd'), wallets: join(out, 'w') },
    });
    expect('manifest' in r).toBe(true);
    expect(readTree(join(out, 'd'))).toEqual(readTree(src.daemon));
    expect(readTree(join(out, 'w'))).toEqual(readTree(src.wallets));
    // Importing again replaces it (atomically, like a save).
    await importArchive(other, file);
    expect(readdirSync(join(other, 'snapshots'))).toEqual([KEY]);
  });

  it('writes the archive readable by its owner only (it holds the wallets and their password file), even over a 0644 file', async () => {
    const { cache, file } = await exported();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const loose = join(tempDir('out2'), 'loose.tar.gz');
    writeFileSync(loose, 'old', { mode: 0o644 });
    await exportSnapshot(cache, KEY, loose);
    expect(statSync(loose).mode & 0o777).toBe(0o600);
  });

  it.runIf(hasTar())('is a plain .tar.gz that GNU tar lists and extracts to <key>/', async () => {
    const { file, cache } = await exported();
    const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).trim().split('\n');
    expect(listing[0]).toBe(`${KEY}/`);
    expect(listing[1]).toBe(`${KEY}/manifest.json`);
    expect(listing).toContain(`${KEY}/daemon/testnet/empty-dir/`);
    expect(listing).toContain(`${KEY}/daemon/ünïcode name.txt`);
    expect(listing.some((l) => l.endsWith('a-rather-long-file-name-to-need-a-pax-header.bin'))).toBe(true);
    const x = tempDir('x');
    execFileSync('tar', ['-xzf', file, '-C', x]);
    expect(readTree(join(x, KEY)).files).toEqual(readTree(join(cache, 'snapshots', KEY)).files);
  });

  it.runIf(hasTar())('imports an archive that GNU tar re-created from an extracted snapshot', async () => {
    const { file } = await exported();
    const x = tempDir('x');
    execFileSync('tar', ['-xzf', file, '-C', x]);
    const again = join(x, 'again.tar.gz');
    // manifest.json first, as the importer requires; GNU format for the long name.
    execFileSync('tar', ['-czf', again, '-C', x, `${KEY}/manifest.json`, '--exclude', 'manifest.json', KEY]);
    const other = tempDir('cache2');
    expect((await importArchive(other, again)).key).toBe(KEY);
  });

  const tampered: [string, (tar: Buffer) => Buffer, RegExp][] = [
    [
      'a changed byte in a file',
      (t) => {
        const at = t.indexOf(Buffer.from('wallet A'));
        t[at] = 'W'.charCodeAt(0);
        return t;
      },
      /wallets\/main differs from the manifest/,
    ],
    [
      'a changed byte in a header',
      (t) => {
        const at = t.indexOf(Buffer.from(`${KEY}/wallets/main.keys`));
        t[at + KEY.length + 2] = 'W'.charCodeAt(0);
        return t;
      },
      /checksum failure/,
    ],
    ['a truncated archive', (t) => t.subarray(0, Math.floor(t.length / 2)), /Truncated input|missing file/],
    [
      'an archive without a file the manifest lists',
      (t) => {
        const at = t.indexOf(Buffer.from(`${KEY}/wallets/main.keys`));
        return Buffer.concat([t.subarray(0, at), t.subarray(at + 1024)]); // its header and one block of content
      },
      /missing file wallets\/main\.keys/,
    ],
    [
      'a renamed entry',
      (t) => {
        const at = t.indexOf(Buffer.from(`${KEY}/wallets/main.keys`));
        // Turn that entry's name into one that is not in the manifest (and fix the header checksum).
        const hdr = at;
        t.write('X', hdr + KEY.length + 1 + 'wallets/main.'.length, 'ascii');
        fixChecksum(t, hdr);
        return t;
      },
      /extra file wallets\/main\.Xeys/,
    ],
  ];

  it.each(tampered)('refuses %s, importing nothing', async (_name, edit, problem) => {
    const { file } = await exported();
    const bad = tamper(file, edit);
    const other = tempDir('cache2');
    await expect(importArchive(other, bad)).rejects.toMatchObject({
      code: 'BAD_ARCHIVE',
      message: expect.stringMatching(problem),
    });
    expectNothingImported(other);
  });

  it('writes the same bytes for the same snapshot', async () => {
    const { cache, file } = await exported();
    const again = join(tempDir('out'), 'again.tar.gz');
    await exportSnapshot(cache, KEY, again);
    expect(readFileSync(again).equals(readFileSync(file))).toBe(true);
  });

  it('refuses links, devices, unknown entry types, absolute paths and oversized pax records, importing nothing', async () => {
    const { cache } = await exported();
    const m = tarEntry(`${KEY}/manifest.json`, readFileSync(join(cache, 'snapshots', KEY, 'manifest.json')));
    const cases: [string, Buffer, RegExp][] = [
      [
        'symlink',
        tarEntry(`${KEY}/daemon/link`, '', { type: 'SymbolicLink', linkpath: '/etc/passwd' }),
        /daemon\/link is a SymbolicLink entry/,
      ],
      [
        'hard link',
        tarEntry(`${KEY}/wallets/main`, '', { type: 'Link', linkpath: `${KEY}/wallets/main.keys` }),
        /wallets\/main is a Link entry/,
      ],
      ['device', tarEntry(`${KEY}/daemon/null`, '', { type: 'CharacterDevice' }), /is a CharacterDevice entry/],
      ['FIFO', tarEntry(`${KEY}/daemon/fifo`, '', { type: 'FIFO' }), /is a FIFO entry/],
      ['unknown type', tarEntry(`${KEY}/daemon/sparse`, 'x', { type: 'SparseFile' }), /unsupported entry type \(S\)/],
      ['absolute path', tarEntry('/tmp/escape.txt', 'x'), /\/tmp\/escape\.txt lies outside/],
      [
        'oversized pax record',
        tarEntry('PaxHeader', Buffer.alloc((1 << 20) + 1, 'x'), { type: 'ExtendedHeader' }),
        /oversized ExtendedHeader entry/,
      ],
    ];
    const dir = tempDir('bad');
    for (const [name, entry, problem] of cases) {
      const bad = join(dir, `${name}.tar.gz`);
      writeFileSync(bad, gzipSync(Buffer.concat([m, entry, END_OF_ARCHIVE])));
      const other = tempDir('cache2');
      await expect(importArchive(other, bad), name).rejects.toMatchObject({
        code: 'BAD_ARCHIVE',
        message: expect.stringMatching(problem),
      });
      expectNothingImported(other);
    }
  });

  it('refuses a file that is not gzip or is cut short, and paths that leave the snapshot', async () => {
    const dir = tempDir('bad');
    const other = tempDir('cache2');
    writeFileSync(join(dir, 'plain.txt'), 'not an archive at all');
    await expect(importArchive(other, join(dir, 'plain.txt'))).rejects.toMatchObject({
      code: 'BAD_ARCHIVE',
      message: expect.stringMatching(/not a valid gzip file/),
    });

    const { cache, file } = await exported();
    const gz = readFileSync(file);
    writeFileSync(join(dir, 'cut.tar.gz'), gz.subarray(0, gz.length - 100));
    await expect(importArchive(other, join(dir, 'cut.tar.gz'))).rejects.toMatchObject({
      code: 'BAD_ARCHIVE',
      message: expect.stringMatching(/not a valid gzip file/),
    });
    expectNothingImported(other);

    const m = readFileSync(join(cache, 'snapshots', KEY, 'manifest.json'));
    const evil = Buffer.concat([
      tarEntry(`${KEY}/manifest.json`, m),
      tarEntry(`${KEY}/../../escape.txt`, 'x'),
      END_OF_ARCHIVE,
    ]);
    writeFileSync(join(dir, 'evil.tar.gz'), gzipSync(evil));
    await expect(importArchive(other, join(dir, 'evil.tar.gz'))).rejects.toThrow(/unsafe or unexpected path/);
    expectNothingImported(other);
    expect(existsSync(join(other, 'escape.txt'))).toBe(false);
  });
});

function fixChecksum(t: Buffer, at: number): void {
  t.fill(0x20, at + 148, at + 156);
  let sum = 0;
  for (let i = at; i < at + 512; i++) sum += t[i] as number;
  t.write(`${sum.toString(8).padStart(6, '0')}\0 `, at + 148, 8, 'ascii');
}
