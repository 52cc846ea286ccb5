// `saltnet install --from <archive|folder>`: a release already on this machine, installed like a
// download — its programs checked (they link, they run, the archive's own SHA256SUMS agrees), the
// version they print recorded — and every refusal leaving nothing installed.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InstallError } from '../../harness/install/errors.js';
import { installSalvium, MARKER_FILE, type InstallOptions } from '../../harness/install/install.js';
import { platformFor } from '../../harness/install/platform.js';
import { expectedFormat } from '../../harness/install/program-format.js';
import { TRUST_FILE } from '../../harness/install/trust.js';
import { fakeElf } from './fake-elf.js';
import {
  bytesOf,
  cleanupDirs,
  fakeLdd,
  fakeProgram,
  programs,
  sha256,
  sha256sums,
  tarGz,
  tempDir,
  writeProgramsFolder,
  type FakeEntry,
} from './helpers.js';

/** What a real salviumd prints: the tag, a commit, the Monero base. */
const PRINTED = 'v1.2.3-0abc123, based on Monero 0.18.4.0-release';
const ASSET = 'salvium-v1.2.3-linux-x64-debian12.tar.gz';

afterEach(cleanupDirs);

/** The release tarball's layout: salvium-v1.2.3/ with the programs, LICENSE and SHA256SUMS. */
function release(extra: FakeEntry[] = [], version = PRINTED): FakeEntry[] {
  const progs = programs('salvium-v1.2.3/', 0o755, version);
  return [
    { path: 'salvium-v1.2.3/', type: 'dir' },
    ...progs,
    { path: 'salvium-v1.2.3/LICENSE', body: 'BSD-3' },
    sha256sums(progs, 'salvium-v1.2.3/'),
    ...extra,
  ];
}

function world(): { root: string; bin: string; opts: (from: string, extra?: InstallOptions) => InstallOptions } {
  const root = tempDir();
  const cache = join(root, 'cache');
  return {
    root,
    bin: join(cache, 'bin'),
    opts: (from, extra = {}) => ({ from, env: { SALTNET_CACHE_DIR: cache }, ldd: fakeLdd().ldd, ...extra }),
  };
}

function file(root: string, name: string, bytes: Buffer): string {
  const p = join(root, name);
  writeFileSync(p, bytes);
  return p;
}

async function refusal(p: Promise<unknown>): Promise<InstallError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InstallError);
  return err as InstallError;
}

describe('--from an archive', () => {
  it('installs it under the version the programs print, records its hash, and a second run finds it', async () => {
    const { root, bin, opts } = world();
    const bytes = tarGz(release());
    const tarball = file(root, ASSET, bytes);
    const r = await installSalvium(opts(tarball));
    const installDir = join(bin, 'salvium-v1.2.3');
    expect(r).toMatchObject({
      version: 'v1.2.3',
      asset: ASSET,
      sha256: sha256(bytes),
      hashFrom: 'local',
      from: tarball,
      installDir,
      binDir: installDir,
      programVersion: `salviumd: Salvium 'Fake' (${PRINTED})`,
      alreadyInstalled: false,
    });
    // the programs are where the docs say, <cacheDir>/bin/salvium-<version>/: the archive's top folder is not kept
    expect(readdirSync(installDir).sort()).toEqual(
      [MARKER_FILE, 'LICENSE', 'SHA256SUMS', 'salvium-wallet-cli', 'salvium-wallet-rpc', 'salviumd'].sort(),
    );
    expect(readFileSync(join(r.binDir, 'LICENSE'), 'utf8')).toBe('BSD-3');
    const marker = JSON.parse(readFileSync(join(installDir, MARKER_FILE), 'utf8'));
    expect(marker.programs.walletRpc).toBe(sha256(Buffer.from(fakeProgram('salvium-wallet-rpc', PRINTED))));
    const trust = JSON.parse(readFileSync(join(bin, TRUST_FILE), 'utf8'));
    expect(trust.entries).toEqual([expect.objectContaining({ version: 'v1.2.3', asset: ASSET, how: 'local' })]);
    expect(readdirSync(bin).sort()).toEqual(['salvium-v1.2.3', TRUST_FILE]); // no staging folder, no archive copy

    expect(await installSalvium(opts(tarball))).toMatchObject({ alreadyInstalled: true, binDir: r.binDir });
  });

  it('--version must agree with what the programs print', async () => {
    const { root, bin, opts } = world();
    const tarball = file(root, ASSET, tarGz(release()));
    const err = await refusal(installSalvium(opts(tarball, { version: 'v1.2.4' })));
    expect(err.code).toBe('BAD_OPTIONS');
    expect(err.message).toContain(`--version v1.2.4 does not match ${ASSET}`);
    expect(err.message).toContain(PRINTED);
    expect(readdirSync(bin)).toEqual([]);
    expect(await installSalvium(opts(tarball, { version: '1.2.3-0abc123' }))).toMatchObject({
      version: 'v1.2.3-0abc123',
    });
  });

  it('programs that print no version need --version', async () => {
    const { root, opts } = world();
    const tarball = file(root, ASSET, tarGz(programs('', 0o755, 'a build of my own')));
    const err = await refusal(installSalvium(opts(tarball)));
    expect(err.message).toContain('cannot tell the version');
    expect(await installSalvium(opts(tarball, { version: 'v0.0.1-mine' }))).toMatchObject({ version: 'v0.0.1-mine' });
  });

  it("a program that differs from the archive's own SHA256SUMS: refused, nothing installed", async () => {
    const { root, bin, opts } = world();
    const entries = release().map((e) =>
      e.path.endsWith('/salviumd') ? { ...e, body: Buffer.concat([bytesOf(e.body), Buffer.from('altered')]) } : e,
    );
    const err = await refusal(installSalvium(opts(file(root, ASSET, tarGz(entries)))));
    expect(err.code).toBe('BAD_ARCHIVE');
    expect(err.message).toMatch(/its SHA256SUMS lists salviumd with sha256 [0-9a-f]{64}, but the file's is/);
    expect(readdirSync(bin)).toEqual([]);
  });

  it('another archive of the same name and version later: refused, naming both hashes; the install stays', async () => {
    const { root, opts } = world();
    const first = tarGz(release());
    const r = await installSalvium(opts(file(root, ASSET, first)));
    mkdirSync(join(root, 'other'));
    const second = tarGz(release([{ path: 'salvium-v1.2.3/NEWS', body: 'changed' }]));
    const err = await refusal(installSalvium(opts(file(join(root, 'other'), ASSET, second))));
    expect(err.code).toBe('HASH_MISMATCH');
    for (const s of [sha256(first), sha256(second), TRUST_FILE]) expect(err.message).toContain(s);
    expect(existsSync(join(r.binDir, 'NEWS'))).toBe(false);
    expect(JSON.parse(readFileSync(join(r.installDir, MARKER_FILE), 'utf8')).sha256).toBe(sha256(first));
  });

  it('an archive whose entries declare more than the cap: refused naming the entry and the cap; nothing left', async () => {
    const { root, bin, opts } = world();
    const tarball = file(root, ASSET, tarGz(release([{ path: 'salvium-v1.2.3/blob', body: 'x'.repeat(10_000) }])));
    const err = await refusal(installSalvium(opts(tarball, { maxUnpackedBytes: 4096 })));
    expect(err.code).toBe('BAD_ARCHIVE');
    expect(err.message).toContain(
      `refusing ${ASSET}: its entries declare more content than the cap of 4096 bytes, passed at entry "salvium-v1.2.3/blob" (10000 bytes`,
    );
    expect(readdirSync(bin)).toEqual([]); // no staging folder, no install, no recorded hash
  });

  it('--sha256 checks the archive', async () => {
    const { root, bin, opts } = world();
    const bytes = tarGz(release());
    const tarball = file(root, ASSET, bytes);
    const err = await refusal(installSalvium(opts(tarball, { sha256: 'ab'.repeat(32) })));
    expect(err.code).toBe('HASH_MISMATCH');
    expect(err.message).toContain(sha256(bytes));
    expect(readdirSync(bin)).toEqual([]);
    expect(await installSalvium(opts(tarball, { sha256: sha256(bytes) }))).toMatchObject({ hashFrom: 'sha256-option' });
  });
});

describe('--from a folder', () => {
  it('copies the files beside the programs (not sub-folders) and records the programs’ hashes', async () => {
    const { root, bin, opts } = world();
    const build = join(root, 'build');
    const at = writeProgramsFolder(build, PRINTED, 'release/bin');
    writeFileSync(join(at, 'README'), 'hi');
    mkdirSync(join(at, 'unrelated'));
    writeFileSync(join(at, 'unrelated', 'big'), 'x');
    const r = await installSalvium(opts(build));
    expect(r).toMatchObject({
      version: 'v1.2.3',
      sha256: null,
      hashFrom: 'local',
      from: at,
      binDir: join(bin, 'salvium-v1.2.3'),
      programVersion: `salviumd: Salvium 'Fake' (${PRINTED})`,
    });
    expect(readdirSync(r.binDir).sort()).toEqual(
      [MARKER_FILE, 'README', 'salvium-wallet-cli', 'salvium-wallet-rpc', 'salviumd'].sort(),
    );
    expect(await installSalvium(opts(at))).toMatchObject({ alreadyInstalled: true });
    writeFileSync(join(at, 'salviumd'), fakeProgram('salviumd', `${PRINTED} rebuilt`), { mode: 0o755 });
    expect(await installSalvium(opts(at))).toMatchObject({
      alreadyInstalled: false,
      programVersion: `salviumd: Salvium 'Fake' (${PRINTED} rebuilt)`,
    });
  });

  it('a folder without the programs, a path that is not there, and options that do not apply are refused', async () => {
    const { root, opts } = world();
    mkdirSync(join(root, 'empty'));
    const none = await refusal(installSalvium(opts(join(root, 'empty'))));
    expect(none.code).toBe('MISSING_BINARIES');
    expect(none.message).toContain('give the folder that holds the programs');
    const missing = await refusal(installSalvium(opts(join(root, 'nope'))));
    expect(missing.message).toContain(`--from ${join(root, 'nope')}: no such file or folder`);
    const clash = await refusal(installSalvium(opts(join(root, 'empty'), { mirror: 'http://127.0.0.1:9' })));
    expect(clash.message).toContain('it takes no --mirror');
  });
});

describe('programs that cannot run here', () => {
  it('a missing shared library: named with its program and Debian package; nothing installed', async () => {
    const { root, bin, opts } = world();
    const fake = fakeLdd(['libboost_chrono.so.1.74.0', 'libsodium.so.23', 'libmystery.so.9']);
    const tarball = file(root, ASSET, tarGz(release()));
    const err = await refusal(installSalvium(opts(tarball, { ldd: fake.ldd })));
    expect(err.code).toBe('MISSING_LIBRARIES');
    expect(err.message).toContain(
      'lacks the shared libraries libboost_chrono.so.1.74.0 (salviumd, salvium-wallet-cli, salvium-wallet-rpc), libsodium.so.23',
    );
    expect(err.message).toContain(
      'sudo apt-get install -y libboost-chrono1.74.0 libsodium23 (Debian 12 package names)',
    );
    expect(err.message).toContain('libmystery.so.9 (`apt-file search <name>` finds it)');
    expect(err.message).toContain('Nothing was installed');
    expect(fake.calls.map((p) => p.split('/').pop())).toEqual(['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc']);
    expect(readdirSync(bin)).toEqual([]); // no install, no recorded hash
  });

  it('a program whose --version fails: named with its exit code and what it said; nothing installed', async () => {
    const { root, bin, opts } = world();
    const entries = release().filter((e) => !e.path.endsWith('SHA256SUMS'));
    const broken = entries.map((e) =>
      e.path.endsWith('salvium-wallet-rpc')
        ? { ...e, body: fakeElf({ stderr: 'salvium-wallet-rpc: cannot open libfoo\n', exitCode: 3 }) }
        : e,
    );
    const err = await refusal(installSalvium(opts(file(root, ASSET, tarGz(broken)))));
    expect(err.code).toBe('PROGRAM_FAILED');
    expect(err.message).toContain(
      'salvium-wallet-rpc of salvium-v1.2.3-linux-x64-debian12.tar.gz does not run here: `salvium-wallet-rpc --version` exited with 3: salvium-wallet-rpc: cannot open libfoo',
    );
    expect(readdirSync(bin)).toEqual([]);
  });
});

describe('programs that are not executables of this platform', () => {
  /** A shell script that leaves a file behind when it runs. */
  const script = (ran: string): string => `#!/bin/sh\ntouch ${ran}\necho "salviumd: Salvium 'Fake' (${PRINTED})"\n`;

  it('--from an archive whose salviumd is a shell script: refused naming the file and what it is; it never ran', async () => {
    const { root, bin, opts } = world();
    const ran = join(root, 'script-ran');
    const entries = release()
      .filter((e) => !e.path.endsWith('SHA256SUMS'))
      .map((e) => (e.path.endsWith('/salviumd') ? { ...e, body: script(ran) } : e));
    const err = await refusal(installSalvium(opts(file(root, ASSET, tarGz(entries)))));
    expect(err.code).toBe('FOREIGN_PROGRAM');
    expect(err.message).toContain(
      `refusing ${ASSET}: salvium-v1.2.3/salviumd is a shell script (#!/bin/sh); a program for ${platformFor()} must be ${expectedFormat(platformFor())}.`,
    );
    expect(err.message).toContain('Nothing was run and nothing was installed');
    expect(existsSync(ran)).toBe(false);
    expect(readdirSync(bin)).toEqual([]);
  });

  it('--from a folder with a text file and an executable for another CPU: both named where they are', async () => {
    const { root, bin, opts } = world();
    const at = writeProgramsFolder(join(root, 'build'), PRINTED);
    writeFileSync(join(at, 'salvium-wallet-cli'), 'just some notes\n', { mode: 0o755 });
    const other = Buffer.from(readFileSync(join(at, 'salvium-wallet-rpc')));
    const otherCpu = other.readUInt16LE(18) === 0x3e ? 0xb7 : 0x3e;
    other.writeUInt16LE(otherCpu, 18);
    writeFileSync(join(at, 'salvium-wallet-rpc'), other, { mode: 0o755 });
    const err = await refusal(installSalvium(opts(at)));
    expect(err.code).toBe('FOREIGN_PROGRAM');
    expect(err.message).toContain(
      `refusing --from ${at}: ${join(at, 'salvium-wallet-cli')} is a text file; ${join(at, 'salvium-wallet-rpc')} is an ELF executable for ${otherCpu === 0xb7 ? 'AArch64' : 'x86-64'}; a program for ${platformFor()} must be ${expectedFormat(platformFor())}.`,
    );
    expect(readdirSync(bin)).toEqual([]);
  });
});
