// What `saltnet record` adds to a request: the same calls to a simulated daemon, straight and
// through a recording proxy with the session's own hooks (the mining tracker's check before each
// request, the exchange kept as bytes). Prints the median and p95 of each and their difference.
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { trackMining } from '../harness/record/mining.js';
import { startRecordingProxy, type RawExchange } from '../harness/record/proxy.js';
import { cleanup, startDaemon, stopAll, tempDir } from '../test/helpers/sim.js';
const ms = (n: number): string => `${n.toFixed(2)} ms`;

type Report = (name: string, value: string, note?: string) => void;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? Number.NaN;

async function timed(url: string, path: string, body: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const r = await request(`${url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    await r.body.text();
    out.push(performance.now() - t0);
  }
  return out;
}

export async function recordOverhead(report: Report): Promise<void> {
  const dir = tempDir('saltnet-bench-record-');
  try {
    const d = await startDaemon(dir, { difficulty: 1 });
    const upstream = `http://127.0.0.1:${d.port}`;
    const kept: RawExchange[] = [];
    const height = async (): Promise<number> =>
      (
        (await (await request(`${upstream}/get_height`, { method: 'POST', body: '{}' })).body.json()) as {
          height: number;
        }
      ).height;
    const tracker = trackMining({
      height,
      pop: async () => undefined,
      mined: () => undefined,
      startHeight: await height(),
    });
    let seq = 0;
    const proxy = await startRecordingProxy(
      upstream,
      'daemon',
      { before: (t, p, b) => tracker.before(t, p, b), exchange: (e) => void kept.push(e) },
      () => ++seq,
    );
    const calls = [
      ['/get_height', '{}', 'the cheapest daemon call'],
      [
        '/json_rpc',
        JSON.stringify({ jsonrpc: '2.0', id: '0', method: 'get_info' }),
        'a JSON-RPC call with a 1 KB answer',
      ],
    ] as const;
    for (const [path, body, what] of calls) {
      await timed(upstream, path, body, 200); // warm both connections up
      await timed(proxy.url, path, body, 200);
      const straight: number[] = [];
      const proxied: number[] = [];
      for (let round = 0; round < 10; round++) {
        straight.push(...(await timed(upstream, path, body, 200)));
        proxied.push(...(await timed(proxy.url, path, body, 200)));
      }
      const name = path === '/json_rpc' ? 'get_info' : path.slice(1);
      report(
        `record.overhead.${name}`,
        ms(median(proxied) - median(straight)),
        `${what}: median ${ms(median(proxied))} through the proxy vs ${ms(median(straight))} straight (p95 ${ms(p95(proxied))} vs ${ms(p95(straight))}), 2000 each; target ≤ 1 ms`,
      );
    }
    tracker.close();
    await proxy.close();
  } finally {
    await stopAll();
    cleanup(dir);
  }
}
