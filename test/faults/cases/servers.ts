// Half-sent requests to every server saltnet runs: the control endpoint of `up`, the simulated
// daemon and wallet RPC, the metadata server of scenarios and the proxy of `saltnet record`. Each
// gets a request whose body never arrives in full — once with the client gone, once with the
// connection held open — and must go on answering the next request.
import { join } from 'node:path';
import { expect } from 'vitest';
import { startRecordingProxy } from '../../../harness/record/proxy.js';
import { startMetadataServer } from '../../../harness/scenario/metadata.js';
import { halfSend, type FaultCase } from '../kit.js';

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
];
