// A version the table does not pin, downloaded from a mirror on 127.0.0.1 (SALTNET_RELEASE_MIRROR /
// --mirror with --asset, the way a release is had while nothing is pinned): --sha256, trust on first
// use and its record, and the ways a mirror fails — a wrong file, a truncated download, a mirror
// that accepts the connection and never answers. Every refusal leaves nothing installed.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resetTimeoutFactor, setTimeoutFactor } from '../../harness/common/timeouts.js';
import { downloadTo, MAX_REDIRECTS } from '../../harness/install/download.js';
import { InstallError } from '../../harness/install/errors.js';
import { installSalvium, type InstallOptions } from '../../harness/install/install.js';
import { TRUST_FILE } from '../../harness/install/trust.js';
import { waitFor } from '../helpers/sim.js';
import {
  cleanupDirs,
  fakeLdd,
  programs,
  serveReleases,
  sha256,
  tarGz,
  tempDir,
  VERSION,
  writeTable,
  type ReleaseServer,
} from './helpers.js';

const ASSET = `salvium-${VERSION}-linux-x64-debian12.tar.gz`;
const PATH = `/${VERSION}/${ASSET}`;
const GOOD = tarGz([{ path: `salvium-${VERSION}/`, type: 'dir' }, ...programs(`salvium-${VERSION}/`, 0o755)]);
const OTHER = tarGz([...programs('', 0o755), { path: 'extra', body: 'not the release' }]);
const servers: ReleaseServer[] = [];

afterEach(async () => {
  resetTimeoutFactor();
  for (const s of servers.splice(0)) await s.close();
  cleanupDirs();
});

/** An empty release table (nothing pinned), a cache, and a mirror serving `bytes` as the asset. */
async function world(bytes: Buffer = GOOD): Promise<{
  server: ReleaseServer;
  bin: string;
  logs: string[];
  opts: (extra?: InstallOptions) => InstallOptions;
}> {
  const root = tempDir();
  const table = writeTable(root, []);
  const server = await serveReleases({ [PATH]: bytes });
  servers.push(server);
  const cache = join(root, 'cache');
  const logs: string[] = [];
  const opts = (extra: InstallOptions = {}): InstallOptions => ({
    version: VERSION,
    asset: ASSET,
    releasesFile: table,
    env: { SALTNET_CACHE_DIR: cache, SALTNET_RELEASE_MIRROR: server.url },
    ldd: fakeLdd().ldd,
    log: (l) => logs.push(l),
    ...extra,
  });
  return { server, bin: join(cache, 'bin'), logs, opts };
}

async function refusal(p: Promise<unknown>): Promise<InstallError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InstallError);
  return err as InstallError;
}

const trustEntries = (bin: string): unknown[] =>
  (JSON.parse(readFileSync(join(bin, TRUST_FILE), 'utf8')) as { entries: unknown[] }).entries;

describe('an unpinned version from a mirror', () => {
  it('without a hash: refused before any request, saying how to get it', async () => {
    const { server, opts } = await world();
    const err = await refusal(installSalvium(opts()));
    expect(err.code).toBe('UNKNOWN_VERSION');
    expect(err.message).toContain(`Salvium ${VERSION} is not in the pinned table`);
    for (const way of ['saltnet install --from', '--sha256', '--trust-on-first-use'])
      expect(err.message).toContain(way);
    expect(server.requests).toEqual([]);
  });

  it('with --sha256: installed from the mirror, and the hash recorded for later installs', async () => {
    const { server, bin, opts } = await world();
    const r = await installSalvium(opts({ sha256: sha256(GOOD) }));
    expect(r).toMatchObject({
      version: VERSION,
      asset: ASSET,
      sha256: sha256(GOOD),
      hashFrom: 'sha256-option',
      from: `${server.url}${PATH}`,
      binDir: join(bin, `salvium-${VERSION}`),
      programVersion: `salviumd: Salvium 'Fake' (${VERSION})`,
      alreadyInstalled: false,
    });
    expect(trustEntries(bin)).toEqual([
      expect.objectContaining({ version: VERSION, asset: ASSET, sha256: sha256(GOOD), how: 'sha256-option' }),
    ]);
  });

  it('a wrong file (--sha256 differs): refused with both hashes, the URL and the version; nothing installed or recorded', async () => {
    const { server, bin, opts } = await world(OTHER);
    const err = await refusal(installSalvium(opts({ sha256: sha256(GOOD) })));
    expect(err.code).toBe('HASH_MISMATCH');
    for (const s of [sha256(GOOD), sha256(OTHER), `${server.url}${PATH}`, VERSION]) expect(err.message).toContain(s);
    expect(readdirSync(bin)).toEqual([]);
  });

  it('a truncated download (Content-Length larger than what is sent, then the connection closes): retried, then refused', async () => {
    const { server, bin, opts } = await world();
    server.routes.set(PATH, (_req, res) => {
      res.writeHead(200, { 'content-length': GOOD.length });
      res.write(GOOD.subarray(0, GOOD.length >> 1), () => res.destroy());
    });
    const err = await refusal(installSalvium(opts({ sha256: sha256(GOOD) })));
    expect(err.code).toBe('DOWNLOAD_FAILED');
    expect(err.message).toContain(`could not download ${server.url}${PATH}: the connection closed early`);
    expect(err.message).toContain(`check --mirror / SALTNET_RELEASE_MIRROR (${server.url})`);
    expect(server.requests).toEqual([PATH, PATH, PATH]); // the first try and two retries
    expect(readdirSync(bin)).toEqual([]);
  });

  it('a mirror that accepts the connection and never answers: given up after the (scaled) timeouts, nothing installed', async () => {
    const { server, bin, opts } = await world();
    server.routes.set(PATH, () => undefined); // no status line, ever
    setTimeoutFactor(0.01); // headers timeout 30 s → 0.3 s
    const err = await refusal(installSalvium(opts({ sha256: sha256(GOOD) })));
    expect(err.code).toBe('DOWNLOAD_FAILED');
    expect(err.message).toContain(
      `could not download ${server.url}${PATH}: no answer in time (UND_ERR_HEADERS_TIMEOUT)`,
    );
    expect(server.requests).toEqual([PATH, PATH, PATH]);
    expect(readdirSync(bin)).toEqual([]);
  });
});

/** Send `body`'s bytes one at a time, `everyMs` apart, until the connection closes (a mirror on its last legs). */
function trickle(res: ServerResponse, length: number, everyMs: number): void {
  res.writeHead(200, { 'content-length': length });
  const timer = setInterval(() => res.write('x'), everyMs);
  res.on('close', () => clearInterval(timer));
}

describe('a slow mirror', () => {
  it('a byte now and then under a large Content-Length: given up once below the least average rate, not retried', async () => {
    const { server, bin, logs, opts } = await world();
    server.routes.set(PATH, (_req, res) => trickle(res, 100_000_000, 20));
    const err = await refusal(
      installSalvium(opts({ sha256: sha256(GOOD), pace: { minBytesPerSecond: 1000, graceMs: 300, progressMs: 100 } })),
    );
    expect(err.code).toBe('DOWNLOAD_FAILED');
    expect(err.message).toMatch(
      new RegExp(
        `could not download ${server.url}${PATH}: too slow: \\d+ bytes of the 95\\.4 MiB announced in [\\d.]+ s ` +
          `\\(\\d+ bytes/s on average\\), below the least average rate of 1000 bytes/s a download must keep after its first 0\\.3 s`,
      ),
    );
    expect(err.message).toContain('raise --timeout-factor');
    expect(server.requests).toEqual([PATH]); // a slow mirror stays slow: no retry
    expect(logs.some((l) => /^saltnet install: \d+ bytes of 95\.4 MiB \(0%\) after [\d.]+ s, /.test(l))).toBe(true);
    expect(readdirSync(bin)).toEqual([]);
  });

  it('says how far a download is while it goes on', async () => {
    const { server, logs, opts } = await world();
    const progressed = (): boolean =>
      logs.some((l) => /^saltnet install: \d+ bytes of \d+ bytes \(\d+%\) after /.test(l));
    server.routes.set(PATH, async (_req, res) => {
      res.writeHead(200, { 'content-length': GOOD.length });
      res.write(GOOD.subarray(0, GOOD.length >> 1));
      for (let i = 0; i < 100 && !progressed(); i++) await sleep(50); // the rest once a line said how far it is
      res.end(GOOD.subarray(GOOD.length >> 1));
    });
    await installSalvium(opts({ sha256: sha256(GOOD), pace: { progressMs: 50 } }));
    expect(progressed()).toBe(true);
  });

  it('a redirect loop, and too many redirects: refused naming the URLs, not retried', async () => {
    const { server, bin, opts } = await world();
    server.routes.set(PATH, (_req, res) => res.writeHead(302, { location: '/elsewhere' }).end());
    server.routes.set('/elsewhere', (_req, res) => res.writeHead(302, { location: PATH }).end());
    const loop = await refusal(installSalvium(opts({ sha256: sha256(GOOD) })));
    expect(loop.code).toBe('DOWNLOAD_FAILED');
    expect(loop.message).toContain(
      `could not download ${server.url}${PATH}: a redirect loop: ${server.url}${PATH} → ${server.url}/elsewhere → ${server.url}${PATH} (HTTP 302 Found)`,
    );
    expect(server.requests).toEqual([PATH, '/elsewhere']);

    server.requests.length = 0;
    server.routes.set(PATH, (_req, res) => res.writeHead(302, { location: '/hop/1' }).end());
    for (let i = 1; i <= MAX_REDIRECTS + 1; i++)
      server.routes.set(`/hop/${i}`, (_req, res) => res.writeHead(307, { location: `/hop/${i + 1}` }).end());
    const far = await refusal(installSalvium(opts({ sha256: sha256(GOOD) })));
    expect(far.message).toContain(
      `could not download ${server.url}${PATH}: more than ${MAX_REDIRECTS} redirects: ${server.url}${PATH} → ${server.url}/hop/1 → `,
    );
    expect(server.requests).toHaveLength(MAX_REDIRECTS + 1);
    expect(readdirSync(bin)).toEqual([]);
  });

  it('an abort (the CLI aborts on Ctrl-C and SIGTERM) ends the download at once and removes its temporary files', async () => {
    const { server, bin, opts } = await world();
    server.routes.set(PATH, (_req, res) => trickle(res, 100_000_000, 20));
    const stop = new AbortController();
    const install = installSalvium(opts({ sha256: sha256(GOOD), signal: stop.signal }));
    await waitFor('the download to be under way', async () =>
      existsSync(bin)
        ? readdirSync(bin).find((n) => n.startsWith('.tmp-') && existsSync(join(bin, n, ASSET)))
        : undefined,
    );
    const reason = new Error('stopped by the test');
    stop.abort(reason);
    await expect(install).rejects.toBe(reason);
    expect(readdirSync(bin)).toEqual([]);
    expect(server.requests).toEqual([PATH]);
  });
});

describe('a mirror that closes its connection after each answer', () => {
  it('(HTTP/1.0 or `Connection: close`, like `python3 -m http.server`): every download completes, none crashes', async () => {
    // undici 7 crashed the process (an uncatchable AssertionError) when such a server's FIN reached a parser paused
    // for backpressure: nodejs/undici#5360. Two MiB sent in 64 KiB writes, 20 times, hit it every time before.
    const body = randomBytes(2 * 2 ** 20);
    const server = await serveReleases({
      '/big': async (_req, res) => {
        res.writeHead(200, { 'content-length': body.length, connection: 'close' });
        for (let at = 0; at < body.length; at += 65536)
          if (!res.write(body.subarray(at, at + 65536))) await once(res, 'drain');
        res.end();
      },
    });
    servers.push(server);
    const dest = join(tempDir(), 'big');
    for (let i = 0; i < 20; i++)
      expect(await downloadTo({ kind: 'http', url: `${server.url}/big` }, dest)).toEqual({
        from: `${server.url}/big`,
        sha256: sha256(body),
        size: body.length,
      });
  });
});

describe('trust on first use', () => {
  it('records the first hash, verifies later installs against it, and refuses another file naming both hashes', async () => {
    const { server, bin, logs, opts } = await world();
    const first = await installSalvium(opts({ trustOnFirstUse: true }));
    expect(first).toMatchObject({ hashFrom: 'trust-on-first-use', sha256: sha256(GOOD), alreadyInstalled: false });
    const file = join(bin, TRUST_FILE);
    expect(logs.join('\n')).toContain(
      `trust on first use: ${ASSET} of ${VERSION} has sha256 ${sha256(GOOD)}; it will be recorded in ${file}`,
    );
    expect(trustEntries(bin)).toEqual([
      {
        version: VERSION,
        asset: ASSET,
        sha256: sha256(GOOD),
        how: 'trust-on-first-use',
        from: `${server.url}${PATH}`,
        recordedAt: expect.any(String),
      },
    ]);

    // Installed: found again without a request; a forced install without any flag is checked against the record.
    expect(await installSalvium(opts())).toMatchObject({ alreadyInstalled: true, sha256: sha256(GOOD) });
    expect(server.requests).toHaveLength(1);
    const again = await installSalvium(opts({ force: true }));
    expect(again).toMatchObject({ hashFrom: 'trust-on-first-use', alreadyInstalled: false });
    expect(logs.join('\n')).toContain(`sha256 ${sha256(GOOD)} matches the hash recorded on first use in ${file}`);

    // The mirror now serves another file under the same name: refused, both hashes named, the install left as it was.
    server.routes.set(PATH, OTHER);
    for (const extra of [{ force: true }, { force: true, trustOnFirstUse: true }]) {
      const err = await refusal(installSalvium(opts(extra)));
      expect(err.code).toBe('HASH_MISMATCH');
      for (const s of [sha256(GOOD), sha256(OTHER), file]) expect(err.message).toContain(s);
    }
    expect(await installSalvium(opts())).toMatchObject({ alreadyInstalled: true, sha256: sha256(GOOD) });
    expect(trustEntries(bin)).toHaveLength(1);

    // --sha256 that contradicts the record: refused before downloading.
    const before = server.requests.length;
    const err = await refusal(installSalvium(opts({ force: true, sha256: sha256(OTHER) })));
    expect(err.code).toBe('HASH_MISMATCH');
    expect(err.message).toContain(`--sha256 ${sha256(OTHER)} contradicts the hash recorded on first use in ${file}`);
    expect(err.message).toContain(sha256(GOOD));
    expect(server.requests).toHaveLength(before);
  });

  it('--trust-on-first-use and --sha256 together are refused before any request', async () => {
    const { server, opts } = await world();
    const both = await refusal(installSalvium(opts({ trustOnFirstUse: true, sha256: sha256(GOOD) })));
    expect(both.code).toBe('BAD_OPTIONS');
    expect(both.message).toContain('--sha256 and --trust-on-first-use');
    expect(server.requests).toEqual([]);
  });

  it('a malformed record is an error naming the file, not an empty record', async () => {
    const { bin, opts } = await world();
    await installSalvium(opts({ trustOnFirstUse: true }));
    const file = join(bin, TRUST_FILE);
    writeFileSync(file, '{"entries": [{"version": 1}]}');
    const err = await refusal(installSalvium(opts({ force: true })));
    expect(err.code).toBe('BAD_TABLE');
    expect(err.message).toContain(`the trust-on-first-use record ${file} is malformed`);
  });
});
