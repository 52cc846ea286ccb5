// installSalvium against a release server on 127.0.0.1: what gets installed, what is refused, and
// that a refusal leaves nothing behind.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InstallError } from '../../harness/install/errors.js';
import { installSalvium, MARKER_FILE, type InstallOptions } from '../../harness/install/install.js';
import { guessAssetName, platformFor } from '../../harness/install/platform.js';
import {
  closedPort,
  cleanupDirs,
  fakeProgram,
  programs,
  serveReleases,
  sha256,
  tarGz,
  tempDir,
  VERSION,
  writeTable,
  zip,
  type ReleaseServer,
} from './helpers.js';

const PLATFORM = platformFor();
const TAR = `salvium-${VERSION}-test-${PLATFORM}.tar.gz`;
const ZIP = `salvium-${VERSION}-test-${PLATFORM}.zip`;
const servers: ReleaseServer[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  cleanupDirs();
});

async function serve(files: Record<string, Buffer>): Promise<ReleaseServer> {
  const s = await serveReleases(
    Object.fromEntries(Object.entries(files).map(([name, b]) => [`/${VERSION}/${name}`, b])),
  );
  servers.push(s);
  return s;
}

/** A fresh cache (nested one level, so a `../../../x` entry would land in `root`) and its table. */
function setup(assets: { name: string; bytes: Buffer }[]): {
  root: string;
  cache: string;
  table: string;
  opts: (extra?: InstallOptions) => InstallOptions;
} {
  const root = tempDir();
  const cache = join(root, 'cache');
  const table = writeTable(
    root,
    assets.map((a) => ({ ...a, platform: PLATFORM })),
  );
  return {
    root,
    cache,
    table,
    opts: (extra = {}) => ({ version: VERSION, releasesFile: table, env: { SALTNET_CACHE_DIR: cache }, ...extra }),
  };
}

const binRoot = (cache: string): string => join(cache, 'bin');

async function refusal(p: Promise<unknown>): Promise<InstallError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InstallError);
  return err as InstallError;
}

describe('a good archive', () => {
  it('tar.gz with nested binaries that lost their execute bit: installed, runnable, and not downloaded twice', async () => {
    const bytes = tarGz([
      { path: `salvium-${VERSION}/`, type: 'dir' },
      { path: `salvium-${VERSION}/README`, body: 'hi' },
      ...programs(`salvium-${VERSION}/bin/`, 0o644),
    ]);
    const { cache, opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const r = await installSalvium(opts({ mirror: server.url }));
    const installDir = join(binRoot(cache), `salvium-${VERSION}`);
    expect(r).toMatchObject({
      version: VERSION,
      platform: PLATFORM,
      asset: TAR,
      sha256: sha256(bytes),
      hashFrom: 'pinned',
      installDir,
      binDir: join(installDir, 'bin'),
      alreadyInstalled: false,
      from: `${server.url}/${VERSION}/${TAR}`,
    });
    for (const p of Object.values(r.binaries)) accessSync(p, constants.X_OK);
    expect(execFileSync(r.binaries.daemon, ['--version'], { encoding: 'utf8' })).toContain(
      `salviumd: Salvium 'Fake' (${VERSION})`,
    );
    expect(JSON.parse(readFileSync(join(installDir, MARKER_FILE), 'utf8'))).toMatchObject({
      sha256: sha256(bytes),
      binDir: 'bin',
      programVersion: `salviumd: Salvium 'Fake' (${VERSION})`,
      programs: { daemon: sha256(Buffer.from(fakeProgram('salviumd'))) },
    });
    expect(r.programVersion).toBe(`salviumd: Salvium 'Fake' (${VERSION})`);
    expect(readdirSync(binRoot(cache))).toEqual([`salvium-${VERSION}`]); // no temp folder, no archive left
    expect(readFileSync(join(installDir, 'README'), 'utf8')).toBe('hi'); // the archive's top folder is the install
    expect(existsSync(join(installDir, TAR))).toBe(false);
    expect(server.requests).toEqual([`/${VERSION}/${TAR}`]);

    const again = await installSalvium(opts({ mirror: server.url }));
    expect(again).toMatchObject({ alreadyInstalled: true, binDir: r.binDir, sha256: r.sha256 });
    expect(server.requests).toHaveLength(1);
  });

  it('zip made on Windows (no Unix modes) with the binaries at the top: chmod +x restores them', async () => {
    const bytes = zip([...programs(''), { path: 'docs', type: 'dir' }, { path: 'docs/LICENSE', body: 'BSD' }]);
    const { cache, opts } = setup([{ name: ZIP, bytes }]);
    const server = await serve({ [ZIP]: bytes });
    const r = await installSalvium(opts({ mirror: server.url }));
    expect(r.binDir).toBe(join(binRoot(cache), `salvium-${VERSION}`));
    for (const p of Object.values(r.binaries)) expect(statSync(p).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(r.binDir, 'docs', 'LICENSE'), 'utf8')).toBe('BSD');
  });

  it('--force downloads and installs again, replacing the folder', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const r = await installSalvium(opts({ mirror: server.url }));
    writeFileSync(join(r.installDir, 'stray'), 'left by hand');
    const forced = await installSalvium(opts({ mirror: server.url, force: true }));
    expect(forced.alreadyInstalled).toBe(false);
    expect(server.requests).toHaveLength(2);
    expect(existsSync(join(r.installDir, 'stray'))).toBe(false);
    expect(readdirSync(join(r.installDir, '..'))).toEqual([`salvium-${VERSION}`]);
  });

  it('SALTNET_RELEASE_MIRROR, and a local folder as an offline mirror', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { root, opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const viaEnv = await installSalvium({ ...opts(), env: { ...opts().env, SALTNET_RELEASE_MIRROR: server.url } });
    expect(viaEnv.from).toBe(`${server.url}/${VERSION}/${TAR}`);

    const folder = join(root, 'offline');
    mkdirSync(folder);
    writeFileSync(join(folder, TAR), bytes);
    const offline = await installSalvium({
      ...opts({ mirror: folder, force: true }),
      env: { SALTNET_CACHE_DIR: join(root, 'cache2') },
    });
    expect(offline).toMatchObject({ alreadyInstalled: false, from: join(folder, TAR), sha256: sha256(bytes) });
  });

  it('an unlisted version with --sha256 and --asset', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { opts } = setup([]);
    const server = await serve({ 'custom.tar.gz': bytes });
    const r = await installSalvium(
      opts({ mirror: server.url, sha256: sha256(bytes).toUpperCase(), asset: 'custom.tar.gz' }),
    );
    expect(r).toMatchObject({ hashFrom: 'sha256-option', asset: 'custom.tar.gz', sha256: sha256(bytes) });
    // Installed once, it is found again without the hash.
    expect(await installSalvium(opts({ mirror: server.url }))).toMatchObject({ alreadyInstalled: true });
    expect(server.requests).toHaveLength(1);
  });

  it('follows a redirect (GitHub answers with one) and retries a 503 once', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { opts } = setup([{ name: TAR, bytes }]);
    let failed = false;
    const server = await serve({});
    server.routes.set(`/${VERSION}/${TAR}`, (_req, res) => res.writeHead(302, { location: '/objects/blob' }).end());
    server.routes.set('/objects/blob', (_req, res) => {
      if (!failed) {
        failed = true;
        res.writeHead(503).end('busy');
      } else res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
    });
    expect(await installSalvium(opts({ mirror: server.url }))).toMatchObject({
      alreadyInstalled: false,
      sha256: sha256(bytes),
    });
    expect(server.requests).toEqual([`/${VERSION}/${TAR}`, '/objects/blob', `/${VERSION}/${TAR}`, '/objects/blob']);
  });

  it('a leftover temp folder of a killed install is removed by the next run', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { cache, opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number; // a pid that has exited
    const leftover = join(binRoot(cache), `.tmp-salvium-${VERSION}-${dead}-0badc0de`);
    mkdirSync(join(leftover, 'tree'), { recursive: true });
    writeFileSync(join(leftover, TAR), 'half an archive');
    await installSalvium(opts({ mirror: server.url }));
    expect(readdirSync(binRoot(cache))).toEqual([`salvium-${VERSION}`]);
  });
});

describe('refusals', () => {
  it('a tampered archive: refused with both hashes, the URL and the version; nothing installed, download deleted', async () => {
    const good = tarGz(programs('', 0o755));
    const evil = tarGz([...programs('', 0o755), { path: 'backdoor', body: 'x' }]);
    const { cache, opts } = setup([{ name: TAR, bytes: good }]);
    const server = await serve({ [TAR]: evil });
    const err = await refusal(installSalvium(opts({ mirror: server.url })));
    expect(err.code).toBe('HASH_MISMATCH');
    for (const s of [sha256(good), sha256(evil), `${server.url}/${VERSION}/${TAR}`, VERSION])
      expect(err.message).toContain(s);
    expect(readdirSync(binRoot(cache))).toEqual([]);
  });

  it('--sha256 that contradicts the pinned hash', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { opts } = setup([{ name: TAR, bytes }]);
    const err = await refusal(installSalvium(opts({ mirror: 'http://127.0.0.1:9', sha256: 'ab'.repeat(32) })));
    expect(err.code).toBe('BAD_OPTIONS');
    expect(err.message).toContain(sha256(bytes));
  });

  it('an unknown version: lists the known ones and how to pin one', async () => {
    const { opts } = setup([{ name: TAR, bytes: Buffer.from('x') }]);
    const err = await refusal(installSalvium(opts({ version: 'v0.0.1' })));
    expect(err.code).toBe('UNKNOWN_VERSION');
    expect(err.message).toContain(`known versions: ${VERSION}`);
    expect(err.message).toContain('pin-release');
    expect(err.message).toContain('--sha256');
  });

  it('the shipped table pins nothing yet: without --version the error says how to pin', async () => {
    const cache = join(tempDir(), 'cache');
    const err = await refusal(installSalvium({ env: { SALTNET_CACHE_DIR: cache } }));
    expect(err.code).toBe('UNKNOWN_VERSION');
    expect(err.message).toMatch(
      /no Salvium release is pinned in .*fixtures\/releases\/salvium\.json: install a release you have with `saltnet install --from <archive or folder>`/,
    );
    expect(err.message).toContain('--trust-on-first-use');
  });

  it('no network (connection refused): names the URL and suggests --mirror and an offline folder', async () => {
    const { cache, opts } = setup([{ name: TAR, bytes: Buffer.from('x') }]);
    const url = `http://127.0.0.1:${await closedPort()}`;
    const err = await refusal(installSalvium(opts({ mirror: url })));
    expect(err.code).toBe('DOWNLOAD_FAILED');
    expect(err.message).toContain(`could not download ${url}/${VERSION}/${TAR}: connection refused (ECONNREFUSED)`);
    expect(err.message).toContain('--mirror');
    expect(err.message).toContain('offline');
    expect(readdirSync(binRoot(cache))).toEqual([]);
  });

  it('HTTP 404: names the URL and suggests --asset', async () => {
    const { cache, opts } = setup([{ name: TAR, bytes: Buffer.from('x') }]);
    const server = await serve({});
    const err = await refusal(installSalvium(opts({ mirror: server.url })));
    expect(err.code).toBe('DOWNLOAD_FAILED');
    expect(err.message).toContain(`${server.url}/${VERSION}/${TAR}: HTTP 404`);
    expect(err.message).toContain('--asset');
    expect(server.requests).toHaveLength(1); // a 404 is not retried
    expect(readdirSync(binRoot(cache))).toEqual([]);
  });

  it('a download larger than the limit, declared or not, is cut off', async () => {
    const bytes = tarGz(programs('', 0o755));
    const max = bytes.length - 1;
    const { cache, opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const declared = await refusal(installSalvium(opts({ mirror: server.url, maxBytes: max })));
    expect(declared).toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: expect.stringContaining(`larger than ${max} bytes`),
    });
    server.routes.set(`/${VERSION}/${TAR}`, (_req, res) => {
      res.writeHead(200); // chunked: no content-length to judge by
      res.end(bytes);
    });
    const streamed = await refusal(installSalvium(opts({ mirror: server.url, maxBytes: max })));
    expect(streamed).toMatchObject({
      code: 'DOWNLOAD_FAILED',
      message: expect.stringContaining(`larger than ${max} bytes`),
    });
    expect(readdirSync(binRoot(cache))).toEqual([]);
  });

  it('a path-traversal entry: refused before anything is written, nothing lands outside', async () => {
    const bytes = tarGz([...programs('', 0o755), { path: '../../../evil.txt', body: 'pwned' }]);
    const { root, cache, opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const err = await refusal(installSalvium(opts({ mirror: server.url })));
    expect(err.code).toBe('BAD_ARCHIVE');
    expect(err.message).toContain('"../../../evil.txt"');
    expect(existsSync(join(root, 'evil.txt'))).toBe(false);
    expect(readdirSync(binRoot(cache))).toEqual([]);
  });

  it('an archive without the programs: says which are missing', async () => {
    const bytes = tarGz(programs('', 0o755).slice(0, 2));
    const { cache, opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const err = await refusal(installSalvium(opts({ mirror: server.url })));
    expect(err.code).toBe('MISSING_BINARIES');
    expect(err.message).toContain('salvium-wallet-rpc');
    expect(err.message).toContain('found only salviumd, salvium-wallet-cli');
    expect(readdirSync(binRoot(cache))).toEqual([]);
  });

  it('--check-hashes-file that disagrees with the pin: nothing is downloaded', async () => {
    const bytes = tarGz(programs('', 0o755));
    const { root, opts } = setup([{ name: TAR, bytes }]);
    const server = await serve({ [TAR]: bytes });
    const hashes = join(root, 'SHA256SUMS');
    writeFileSync(hashes, `${'0'.repeat(64)}  ${TAR}\n`);
    const err = await refusal(installSalvium(opts({ mirror: server.url, checkHashesFile: hashes })));
    expect(err.code).toBe('HASHES_FILE_MISMATCH');
    expect(server.requests).toEqual([]);
    writeFileSync(hashes, `${sha256(bytes)} *${TAR}\n`);
    expect(await installSalvium(opts({ mirror: server.url, checkHashesFile: hashes }))).toMatchObject({
      alreadyInstalled: false,
    });
  });

  it('a version string that could climb out of the cache is not a version', async () => {
    const { opts } = setup([]);
    const err = await refusal(installSalvium(opts({ version: '../../etc', sha256: 'ab'.repeat(32) })));
    expect(err.code).toBe('BAD_OPTIONS');
  });

  it('the guessed asset name of an unlisted version is the one the 404 names', async () => {
    const { opts } = setup([]);
    const server = await serve({});
    const err = await refusal(installSalvium(opts({ mirror: server.url, sha256: 'ab'.repeat(32) })));
    expect(err.message).toContain(`/${VERSION}/${guessAssetName(VERSION, PLATFORM)}: HTTP 404`);
  });
});
