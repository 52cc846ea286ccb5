// Pinning: reading hashes files, naming platforms, scripts/pin-release.ts end to end (offline, from a
// local file), and the shipped table.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { parseHashesFile } from '../../harness/install/hashes-file.js';
import { installSalvium } from '../../harness/install/install.js';
import { entryFromHashes } from '../../harness/install/pin.js';
import { classifyAssetName, platformFor, PLATFORMS } from '../../harness/install/platform.js';
import { DEFAULT_TABLE_FILE, loadReleaseTable } from '../../harness/install/releases.js';
import { cleanupDirs, programs, serveReleases, sha256, tarGz, tempDir } from './helpers.js';

const PIN = fileURLToPath(new URL('../../dist/scripts/pin-release.js', import.meta.url));
const H = (c: string): string => c.repeat(64);

afterEach(cleanupDirs);

describe('hashes files', () => {
  it('reads sha256sum text and binary lines, --tag lines and Monero-style lines; skips the rest', () => {
    const text = [
      '-----BEGIN PGP SIGNED MESSAGE-----',
      'Hash: SHA256',
      '',
      `${H('a')}  salvium-v1.2.3-linux-x86_64.zip`,
      `${H('B')} *out/salvium-v1.2.3-win64.zip`,
      `SHA256 (salvium-v1.2.3-macos-arm64.tar.gz) = ${H('c')}`,
      `salvium-v1.2.3-linux-aarch64.tar.gz, ${H('d')}`,
      '# a comment',
      '-----BEGIN PGP SIGNATURE-----',
    ].join('\n');
    const { lines, skipped } = parseHashesFile(text);
    expect(lines).toEqual([
      { name: 'salvium-v1.2.3-linux-x86_64.zip', sha256: H('a') },
      { name: 'salvium-v1.2.3-win64.zip', sha256: H('b') },
      { name: 'salvium-v1.2.3-macos-arm64.tar.gz', sha256: H('c') },
      { name: 'salvium-v1.2.3-linux-aarch64.tar.gz', sha256: H('d') },
    ]);
    expect(skipped).toEqual(['-----BEGIN PGP SIGNED MESSAGE-----', 'Hash: SHA256', '-----BEGIN PGP SIGNATURE-----']);
  });

  it('names the platform of an asset from its words', () => {
    expect(
      Object.fromEntries(
        [
          'salvium-v1.1.3c-ubuntu22.04-linux-x86_64.zip',
          'salvium-v1.1.3c-ubuntu22.04-linux-aarch64.zip',
          'salvium-v1.1.3c-macos-x86_64.zip',
          'salvium-v1.1.3c-macos-aarch64.zip',
          'salvium-darwin-arm64-v1.0.tar.gz',
          'salvium-v1.1.3c-win64.zip',
          'salvium-linux-x64-v1.0.7.tar.gz',
          'salvium-v1.1.3c-win32.zip',
          'salvium-v1.1.3c-linux-i686.zip',
          'salvium-gui-v1.1.3c-linux-x86_64.zip',
          'salvium-v1.1.3c-source.tar.gz',
        ].map((n) => [n, classifyAssetName(n) ?? null]),
      ),
    ).toEqual({
      'salvium-v1.1.3c-ubuntu22.04-linux-x86_64.zip': 'linux-x86_64',
      'salvium-v1.1.3c-ubuntu22.04-linux-aarch64.zip': 'linux-aarch64',
      'salvium-v1.1.3c-macos-x86_64.zip': 'macos-x86_64',
      'salvium-v1.1.3c-macos-aarch64.zip': 'macos-arm64',
      'salvium-darwin-arm64-v1.0.tar.gz': 'macos-arm64',
      'salvium-v1.1.3c-win64.zip': 'windows-x64',
      'salvium-linux-x64-v1.0.7.tar.gz': 'linux-x86_64',
      'salvium-v1.1.3c-win32.zip': null,
      'salvium-v1.1.3c-linux-i686.zip': null,
      'salvium-gui-v1.1.3c-linux-x86_64.zip': null,
      'salvium-v1.1.3c-source.tar.gz': null,
    });
  });

  it('maps Node platforms, and names the supported ones for any other', () => {
    expect(platformFor('linux', 'x64')).toBe('linux-x86_64');
    expect(platformFor('linux', 'arm64')).toBe('linux-aarch64');
    expect(platformFor('darwin', 'x64')).toBe('macos-x86_64');
    expect(platformFor('darwin', 'arm64')).toBe('macos-arm64');
    expect(platformFor('win32', 'x64')).toBe('windows-x64');
    let msg = '';
    try {
      platformFor('freebsd', 'x64');
    } catch (err) {
      expect(err).toMatchObject({ code: 'UNSUPPORTED_PLATFORM' });
      msg = (err as Error).message;
    }
    expect(msg).toContain('freebsd x64');
    for (const p of PLATFORMS) expect(msg).toContain(p);
  });
});

describe('entryFromHashes', () => {
  const base = { version: 'v1.2.3', pinnedFrom: 'test', today: '2025-01-01' };

  it('refuses two archives for one platform until one is chosen with --asset', () => {
    const text = `${H('a')}  salvium-v1.2.3-linux-x86_64.zip\n${H('b')}  salvium-v1.2.3-linux-x86_64.tar.gz\n${H('c')}  salvium-v1.2.3-linux-x86_64.tar.bz2\n`;
    expect(() => entryFromHashes(text, base)).toThrow(
      /more than one archive looks like linux-x86_64.*--asset linux-x86_64=<name>/,
    );
    const { entry, warnings } = entryFromHashes(text, {
      ...base,
      assets: ['linux-x86_64=salvium-v1.2.3-linux-x86_64.tar.gz'],
    });
    expect(entry.assets).toEqual([
      { name: 'salvium-v1.2.3-linux-x86_64.zip', sha256: H('a') },
      { name: 'salvium-v1.2.3-linux-x86_64.tar.gz', sha256: H('b'), platform: 'linux-x86_64' },
    ]);
    expect(warnings.join('\n')).toContain('salvium-v1.2.3-linux-x86_64.tar.bz2');
  });

  it('refuses a file with no archive it can place, and one listing a name twice with two hashes', () => {
    expect(() => entryFromHashes(`${H('a')}  notes.txt\n`, base)).toThrow(/no archive saltnet can unpack/);
    expect(() =>
      entryFromHashes(`${H('a')}  salvium-v1.2.3-linux-x86_64.zip\n${H('b')}  salvium-v1.2.3-linux-x86_64.zip\n`, base),
    ).toThrow(/2 different hashes/);
  });
});

describe('scripts/pin-release.ts', () => {
  it('pins from a local hashes file, keeps the table newest first, and the pinned archive installs', async () => {
    const dir = tempDir();
    const table = join(dir, 'releases.json');
    const archive = tarGz(programs('', 0o755));
    const platform = platformFor();
    // Our own platform's asset carries the words the classifier knows.
    const mine = `salvium-v2.0.0-${{ 'linux-x86_64': 'linux-x86_64', 'linux-aarch64': 'linux-aarch64', 'macos-x86_64': 'macos-x86_64', 'macos-arm64': 'macos-arm64', 'windows-x64': 'win64' }[platform]}.tar.gz`;
    const other = platform === 'windows-x64' ? 'salvium-v2.0.0-linux-x86_64.zip' : 'salvium-v2.0.0-win64.zip';
    const hashes = join(dir, 'SHA256SUMS');
    writeFileSync(hashes, `${sha256(archive)}  ${mine}\n${H('e')}  ${other}\n`);
    const r = await execa(process.execPath, [PIN, 'v2.0.0', hashes, '--table', table], { reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain(`added v2.0.0 in ${table}`);
    writeFileSync(join(dir, 'old'), `${H('f')}  salvium-v1.9.0-linux-x86_64.zip\n`);
    expect(
      (await execa(process.execPath, [PIN, '1.9.0', join(dir, 'old'), '--table', table], { reject: false })).exitCode,
    ).toBe(0);
    const again = await execa(process.execPath, [PIN, 'v2.0.0', hashes, '--table', table], { reject: false });
    expect(again.stdout).toContain('replaced v2.0.0');

    const t = loadReleaseTable(table);
    expect(t.releases.map((x) => x.version)).toEqual(['v2.0.0', 'v1.9.0']);
    expect(t.releases[0]).toMatchObject({
      pinnedFrom: 'local file SHA256SUMS',
      assets: expect.arrayContaining([{ name: mine, sha256: sha256(archive), platform }]),
    });

    const server = await serveReleases({ [`/v2.0.0/${mine}`]: archive });
    try {
      // No --version: the newest pinned one.
      const installed = await installSalvium({
        releasesFile: table,
        mirror: server.url,
        env: { SALTNET_CACHE_DIR: join(dir, 'cache') },
      });
      expect(installed).toMatchObject({ version: 'v2.0.0', asset: mine, hashFrom: 'pinned' });
    } finally {
      await server.close();
    }
  });

  it('fails with a message (and leaves the table alone) on a file that is not a hashes file', async () => {
    const dir = tempDir();
    const table = join(dir, 'releases.json');
    writeFileSync(table, '{"releases":[]}\n');
    writeFileSync(join(dir, 'junk'), 'hello\n');
    const r = await execa(process.execPath, [PIN, 'v2.0.0', join(dir, 'junk'), '--table', table], { reject: false });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('pin-release: ');
    expect(r.stderr).toContain('lists no archive');
    expect(loadReleaseTable(table).releases).toEqual([]);
  });
});

it('the shipped table fits the schema', () => {
  expect(() => loadReleaseTable(DEFAULT_TABLE_FILE)).not.toThrow();
});
