// Half-sent requests to every server saltnet runs: the control endpoint of `up`, the simulated
// daemon and wallet RPC, the metadata server of scenarios and the proxy of `saltnet record`. Each
// gets a request whose body never arrives in full — once with the client gone, once with the
// connection held open — and must go on answering the next request. And servers saltnet is a
// client of that misbehave: a release mirror that trickles, or sends its download round in a loop.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startRecordingProxy } from '../../../harness/record/proxy.js';
import { startMetadataServer } from '../../../harness/scenario/metadata.js';
import { serveReleases, writeTable, type ReleaseServer } from '../../install/helpers.js';
import { halfSend, type FaultCase } from '../kit.js';

const ASSET = 'salvium-v9.9.9-linux-x64.tar.gz';

/** `saltnet install --version v9.9.9` of ASSET from `server` (nothing pinned, a hash given) in a cache of the case. */
async function installFrom(
  ctx: Parameters<FaultCase['run']>[0],
  server: ReleaseServer,
  extra: string[] = [],
): Promise<{ r: Awaited<ReturnType<typeof ctx.cli>>; bin: string[] }> {
  const cache = join(ctx.dir, 'cache');
  const table = writeTable(ctx.dir, []);
  const r = await ctx.cli(
    [
      'install',
      '--version',
      'v9.9.9',
      '--asset',
      ASSET,
      '--sha256',
      'ab'.repeat(32),
      '--mirror',
      server.url,
      '--releases',
      table,
      ...extra,
    ],
    { env: { SALTNET_CACHE_DIR: cache } },
  );
  return { r, bin: existsSync(join(cache, 'bin')) ? readdirSync(join(cache, 'bin')) : [] };
}

const rpc = async (url: string, method: string): Promise<any> =>
  (
    await fetch(`${url}/json_rpc`, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method }),
      signal: AbortSignal.timeout(10_000),
    })
  ).json();

export const SERVER_CASES: FaultCase[] = [
  {
    id: 'half-sent requests to the control endpoint: a save and a mine are answered all the same',
    kind: 'half-sent',
    async run(ctx) {
      const u = await ctx.up();
      const control = ctx.run().info.control as { url: string; tokenFile: string };
      const { readFileSync } = await import('node:fs');
      const token = readFileSync(control.tokenFile, 'utf8');
      await halfSend(control.url, '/snapshot', { headers: { 'x-saltnet-token': token } });
      const held = await halfSend(control.url, '/mine', { headers: { 'x-saltnet-token': token }, hold: true });
      try {
        const m = await ctx.cli(['mine', '1']);
        expect(m.code, m.out).toBe(0);
        const s = await ctx.cli(['snapshot', 'save', join(ctx.dir, 'k.tar.gz')]);
        expect(s.code, s.out).toBe(0);
      } finally {
        held();
      }
      expect(u.ready.height).toBe(30);
    },
  },
  {
    id: 'half-sent requests to the simulated daemon and wallet RPC: both go on answering',
    kind: 'half-sent',
    async run(ctx) {
      const u = await ctx.up();
      const closers = [];
      for (const url of [u.ready.daemon.url as string, u.ready.wallet.url as string]) {
        await halfSend(url, '/json_rpc');
        closers.push(await halfSend(url, '/json_rpc', { hold: true }));
      }
      try {
        expect((await rpc(u.ready.daemon.url, 'get_block_count')).result.count).toBeGreaterThanOrEqual(30);
        expect((await rpc(u.ready.wallet.url, 'get_height')).result.height).toBeGreaterThanOrEqual(30);
        const m = await ctx.cli(['mine', '1']);
        expect(m.code, m.out).toBe(0);
      } finally {
        for (const c of closers) c();
      }
    },
  },
  {
    id: 'half-sent requests to the metadata server and the record proxy: both go on answering',
    kind: 'half-sent',
    async run(ctx) {
      const u = await ctx.up();
      const meta = await startMetadataServer();
      const hosted = meta.host('t', Buffer.from('{"name":"T"}'));
      const exchanges: unknown[] = [];
      let seq = 0;
      const proxy = await startRecordingProxy(
        u.ready.daemon.url,
        'daemon',
        { exchange: (e) => exchanges.push(e) },
        () => ++seq,
      );
      const closers = [];
      try {
        for (const url of [meta.origin, proxy.url]) {
          await halfSend(url, '/json_rpc');
          closers.push(await halfSend(url, '/json_rpc', { hold: true }));
        }
        const got = await fetch(hosted.url, { signal: AbortSignal.timeout(10_000) });
        expect(await got.text()).toBe('{"name":"T"}');
        expect((await rpc(proxy.url, 'get_block_count')).result.count).toBeGreaterThanOrEqual(30);
        expect(exchanges.length).toBeGreaterThanOrEqual(1);
      } finally {
        for (const c of closers) c();
        await proxy.close();
        await meta.close();
      }
    },
  },
  {
    id: 'install from a mirror that sends a byte now and then: progress lines, then given up at the pace (--timeout-factor 0.1)',
    kind: 'half-sent',
    async run(ctx) {
      const server = await serveReleases({
        [`/v9.9.9/${ASSET}`]: (_req, res) => {
          res.writeHead(200, { 'content-length': 100_000_000 });
          const timer = setInterval(() => res.write('x'), 200);
          res.on('close', () => clearInterval(timer));
        },
      });
      try {
        // The factor 0.1: the first 6 s instead of 60, then at least 320 KiB/s instead of 32 KiB/s on average.
        const { r, bin } = await installFrom(ctx, server, ['--timeout-factor', '0.1']);
        expect(r.code, r.out).toBe(1);
        expect(r.out).toMatch(/saltnet install: \d+ bytes of 95\.4 MiB \(0%\) after [\d.]+ s, /);
        expect(r.out).toMatch(
          /could not download http:\/\/127\.0\.0\.1:\d+\/v9\.9\.9\/\S+: too slow: \d+ bytes of the 95\.4 MiB announced in [\d.]+ s/,
        );
        expect(r.out).toContain('below the least average rate of 320 KiB/s a download must keep after its first 6.0 s');
        expect(server.requests).toHaveLength(1);
        expect(bin).toEqual([]);
      } finally {
        await server.close();
      }
    },
  },
  {
    id: 'install from a mirror whose redirects go round in a loop: refused naming the URLs of the loop',
    kind: 'half-sent',
    async run(ctx) {
      const path = `/v9.9.9/${ASSET}`;
      const server = await serveReleases({
        [path]: (_req, res) => res.writeHead(302, { location: '/mirror-b' }).end(),
        '/mirror-b': (_req, res) => res.writeHead(301, { location: path }).end(),
      });
      try {
        const { r, bin } = await installFrom(ctx, server);
        expect(r.code, r.out).toBe(1);
        expect(r.out).toContain(
          `a redirect loop: ${server.url}${path} → ${server.url}/mirror-b → ${server.url}${path} (HTTP 301 Moved Permanently)`,
        );
        expect(bin).toEqual([]);
      } finally {
        await server.close();
      }
    },
  },
];
