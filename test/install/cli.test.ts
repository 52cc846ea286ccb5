// `saltnet install` as users run it: the compiled CLI (dist/), a release server on 127.0.0.1, and
// a SIGKILL halfway through a download.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type Options } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { platformFor } from '../../harness/install/platform.js';
import { waitFor } from '../helpers/sim.js';
import {
  cleanupDirs,
  closedPort,
  programs,
  serveReleases,
  sha256,
  tarGz,
  tempDir,
  VERSION,
  writeTable,
  type ReleaseServer,
} from './helpers.js';
import { TRUST_FILE } from '../../harness/install/trust.js';

const CLI = fileURLToPath(new URL('../../dist/harness/cli/main.js', import.meta.url));
const ASSET = `salvium-${VERSION}-${platformFor()}.tar.gz`;
const PATH = `/${VERSION}/${ASSET}`;
const servers: ReleaseServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  cleanupDirs();
});

/** A cache, a table pinning `bytes`, and a server for it; `env` is all the CLI sees. */
async function world(
  bytes: Buffer,
  served: Buffer = bytes,
): Promise<{ cache: string; table: string; server: ReleaseServer; env: Record<string, string> }> {
  const dir = tempDir();
  const cache = join(dir, 'cache');
  const table = writeTable(dir, [{ name: ASSET, bytes, platform: platformFor() }]);
  const server = await serveReleases({ [PATH]: served });
  servers.push(server);
  return {
    cache,
    table,
    server,
    env: { PATH: process.env.PATH ?? '', HOME: dir, SALTNET_CACHE_DIR: cache, SALTNET_STATE_DIR: join(dir, 'state') },
  };
}

const saltnet = (args: string[], env: Record<string, string>, opts: Options = {}) =>
  execa(process.execPath, [CLI, ...args], { env, extendEnv: false, reject: false, ...opts });

describe('saltnet install', () => {
  it('--json prints one object; the second run reports the install without downloading; doctor finds the binaries', async () => {
    const bytes = tarGz(programs(`salvium-${VERSION}/`, 0o644));
    const { cache, table, server, env } = await world(bytes);
    const r = await saltnet(
      ['install', '--version', VERSION, '--releases', table, '--mirror', server.url, '--json'],
      env,
    );
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const out = JSON.parse(String(r.stdout));
    const binDir = join(cache, 'bin', `salvium-${VERSION}`);
    expect(out).toMatchObject({
      version: VERSION,
      asset: ASSET,
      sha256: sha256(bytes),
      binDir,
      alreadyInstalled: false,
    });
    expect(String(r.stderr)).toContain(`downloading Salvium ${VERSION} (${ASSET}) from ${server.url}${PATH}`);

    // Env instead of flags, and the human line.
    const again = await saltnet(['install', '--version', VERSION], {
      ...env,
      SALTNET_RELEASES_FILE: table,
      SALTNET_RELEASE_MIRROR: server.url,
    });
    expect(again.exitCode, String(again.stderr)).toBe(0);
    expect(String(again.stdout).split('\n')).toEqual([
      `saltnet install: Salvium ${VERSION} already installed in ${binDir}`,
      `  programs: salviumd: Salvium 'Fake' (${VERSION})`,
      `  sha256 ${sha256(bytes)} (matches the pinned table; recorded in the marker)`,
      '  `saltnet up` runs it (auto: the newest installed release, unless --bin-dir, SALTNET_BIN_DIR or PATH has salviumd)',
    ]);
    expect(server.requests).toEqual([PATH]);

    const doctor = await saltnet(['doctor', '--json', '--bin-dir', binDir], env);
    expect(JSON.parse(String(doctor.stdout)).backends.salvium).toMatchObject({
      found: true,
      daemon: join(binDir, 'salviumd'),
      version: expect.stringContaining(VERSION),
    });
  });

  it('a tampered archive: exit 1, both hashes, the URL and the version on stderr, nothing installed', async () => {
    const good = tarGz(programs('', 0o755));
    const bad = tarGz(programs('', 0o777));
    const { cache, table, server, env } = await world(good, bad);
    const r = await saltnet(['install', '--version', VERSION, '--releases', table, '--mirror', server.url], env);
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toBe('');
    expect(String(r.stderr)).toContain(
      `saltnet: refusing ${ASSET} of Salvium ${VERSION} from ${server.url}${PATH}: its sha256 is ${sha256(bad)}, but the pinned table ${table} expects ${sha256(good)}`,
    );
    expect(readdirSync(join(cache, 'bin'))).toEqual([]);
  });

  it('a SIGKILL halfway through the download leaves no install, and the next run cleans up and installs', async () => {
    const bytes = tarGz([...programs('', 0o755), { path: 'padding', body: 'x'.repeat(256 * 1024) }]);
    const { cache, table, server, env } = await world(bytes);
    let sentHalf = false;
    // First answer: half the archive, then nothing (the socket stays open until the server closes).
    server.routes.set(PATH, (_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-length': bytes.length });
      res.write(bytes.subarray(0, bytes.length >> 1), () => (sentHalf = true));
    });
    const proc = saltnet(['install', '--version', VERSION, '--releases', table, '--mirror', server.url], env);
    const bin = join(cache, 'bin');
    const staging = await waitFor('the download to be under way', async () => {
      if (proc.exitCode !== null) throw new Error(`saltnet install exited early: ${String((await proc).stderr)}`);
      const tmp = existsSync(bin) ? readdirSync(bin).find((n) => n.startsWith('.tmp-')) : undefined;
      return sentHalf && tmp && existsSync(join(bin, tmp, ASSET)) ? tmp : undefined;
    });
    proc.kill('SIGKILL');
    expect((await proc).signal).toBe('SIGKILL');
    expect(readdirSync(bin)).toEqual([staging]); // only the abandoned temp folder: no half install

    server.routes.set(PATH, bytes);
    const r = await saltnet(
      ['install', '--version', VERSION, '--releases', table, '--mirror', server.url, '--json'],
      env,
    );
    expect(r.exitCode, String(r.stderr)).toBe(0);
    expect(JSON.parse(String(r.stdout))).toMatchObject({ alreadyInstalled: false, sha256: sha256(bytes) });
    expect(readdirSync(bin)).toEqual([`salvium-${VERSION}`]);
  });

  it('SIGTERM or Ctrl-C (SIGINT) during a download: exit 143 / 130 saying so, and no temporary folder is left', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { cache, table, server, env } = await world(bytes);
    // A mirror that sends a byte now and then: the download is under way for as long as the test needs.
    server.routes.set(PATH, (_req, res: ServerResponse) => {
      res.writeHead(200, { 'content-length': 100_000_000 });
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const bin = join(cache, 'bin');
    for (const [sig, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      const proc = saltnet(['install', '--version', VERSION, '--releases', table, '--mirror', server.url], env);
      await waitFor('the download to be under way', async () => {
        if (proc.exitCode !== null) throw new Error(`saltnet install exited early: ${String((await proc).stderr)}`);
        return (
          existsSync(bin) && readdirSync(bin).some((n) => n.startsWith('.tmp-') && existsSync(join(bin, n, ASSET)))
        );
      });
      proc.kill(sig);
      const r = await proc;
      expect(r.exitCode, String(r.stderr)).toBe(code);
      expect(String(r.stderr)).toContain(
        `saltnet install: interrupted by ${sig}: nothing was installed, and its temporary files were removed`,
      );
      expect(String(r.stdout)).toBe('');
      expect(readdirSync(bin)).toEqual([]);
    }
  });

  it('errors go to stderr with exit 1: unknown version, refused connection', async () => {
    const { table, env } = await world(tarGz(programs('', 0o755)));
    const unknown = await saltnet(['install', '--version', 'v0.0.0', '--releases', table], env);
    expect(unknown.exitCode).toBe(1);
    expect(String(unknown.stderr)).toMatch(
      /^saltnet: Salvium v0\.0\.0 is not in the pinned table .*known versions: v9\.9\.9-test.*pin-release/,
    );
    const mirror = `http://127.0.0.1:${await closedPort()}`;
    const refused = await saltnet(['install', '--version', VERSION, '--releases', table, '--mirror', mirror], env);
    expect(refused.exitCode).toBe(1);
    expect(String(refused.stderr)).toContain(`could not download ${mirror}${PATH}: connection refused`);
    expect(String(refused.stderr)).toContain('fix: check --mirror');
  });

  it('--from a tarball whose programs lack a library (an `ldd` that says so): exit 1, the library and its package named, nothing installed; then it installs', async () => {
    const bytes = tarGz(programs(`salvium-${VERSION}/`, 0o755));
    const { cache, table, env } = await world(bytes);
    const dir = join(cache, '..');
    const tarball = join(dir, ASSET);
    writeFileSync(tarball, bytes);
    const fakeBin = join(dir, 'fake-bin');
    mkdirSync(fakeBin);
    writeFileSync(
      join(fakeBin, 'ldd'),
      '#!/bin/sh\nprintf "\\tlinux-vdso.so.1 (0x0)\\n\\tlibzmq.so.5 => not found\\n\\tlibc.so.6 => /lib/libc.so.6 (0x0)\\n"\n',
      { mode: 0o755 },
    );
    const r = await saltnet(['install', '--from', tarball, '--version', VERSION], {
      ...env,
      PATH: `${fakeBin}:${env.PATH}`,
    });
    expect(r.exitCode).toBe(1);
    expect(String(r.stdout)).toBe('');
    expect(String(r.stderr)).toContain(
      `saltnet: the programs of ${ASSET} cannot run here: this machine lacks the shared libraries libzmq.so.5 (salviumd, salvium-wallet-cli, salvium-wallet-rpc). Nothing was installed.`,
    );
    expect(String(r.stderr)).toContain('fix: sudo apt-get install -y libzmq5 (Debian 12 package names)');
    expect(readdirSync(join(cache, 'bin'))).toEqual([]);

    const ok = await saltnet(['install', '--from', tarball, '--version', VERSION, '--releases', table, '--json'], env);
    expect(ok.exitCode, String(ok.stderr)).toBe(0);
    expect(JSON.parse(String(ok.stdout))).toMatchObject({
      version: VERSION,
      hashFrom: 'pinned', // the table of world() pins this very archive
      programVersion: `salviumd: Salvium 'Fake' (${VERSION})`,
    });
  });

  it('--trust-on-first-use prints and records the hash; a mirror that later serves another file is refused', async () => {
    const good = tarGz(programs('', 0o755));
    const { cache, server, env } = await world(good);
    mkdirSync(join(cache, '..', 'empty-table'));
    const table = writeTable(join(cache, '..', 'empty-table'), []);
    const args = ['install', '--version', VERSION, '--asset', ASSET, '--mirror', server.url, '--releases', table];
    const first = await saltnet([...args, '--trust-on-first-use'], env);
    expect(first.exitCode, String(first.stderr)).toBe(0);
    const file = join(cache, 'bin', TRUST_FILE);
    expect(String(first.stdout)).toContain(`  sha256 ${sha256(good)} (trust on first use; recorded in ${file})`);
    expect(String(first.stderr)).toContain(`has sha256 ${sha256(good)}; it will be recorded in ${file}`);

    const bad = tarGz(programs('', 0o700));
    server.routes.set(PATH, bad);
    const again = await saltnet([...args, '--force'], env);
    expect(again.exitCode).toBe(1);
    expect(String(again.stderr)).toContain(
      `its sha256 is ${sha256(bad)}, but the hash recorded on first use in ${file}`,
    );
    expect(String(again.stderr)).toContain(`expects ${sha256(good)}`);
  });
});
