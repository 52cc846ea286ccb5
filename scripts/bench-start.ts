// `saltnet up` as a user starts it, warm: the installed command (node dist/harness/cli/main.js, not npx) on sim, timed
// from its start to its ready line on stdout, at the default height and at 20,000. Each height's chain state is built
// once first (not timed), then `up` starts warm five times; the best and the median are reported.
import { execa } from 'execa';
import { request } from 'undici';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { cleanup, tempDir } from '../test/helpers/sim.js';
import { median, ms, type Report } from './bench-up.js';

const MAIN = fileURLToPath(new URL('../harness/cli/main.js', import.meta.url));
const READY = 'saltnet is up';
const RUNS = 5;

/**
 * One `saltnet up` to its ready line (ms), then Ctrl-C and its exit awaited; `env` is added to its environment. With
 * `afterReady`, it is called with the daemon's RPC URL (from the ready lines) before the testnet stops.
 */
export async function upToReady(
  cacheDir: string,
  height: number | undefined,
  env: Record<string, string> = {},
  afterReady?: (daemonUrl: string) => Promise<void>,
): Promise<number> {
  const t0 = performance.now();
  const up = execa(
    process.execPath,
    [MAIN, 'up', '--backend', 'sim', '--cache-dir', cacheDir, ...(height ? ['--height', String(height)] : [])],
    { buffer: false, reject: false, stdin: 'ignore', stderr: 'pipe', env },
  );
  let out = '';
  let err = '';
  up.stderr.on('data', (d: Buffer) => void (err += String(d)));
  try {
    const ready = await new Promise<number>((ok, fail) => {
      up.stdout.on('data', (d: Buffer) => {
        out += String(d);
        // The ready line and the lines after it (the daemon's URL among them) arrive together.
        if (out.includes(READY) && /daemon RPC\s+\S+/.test(out)) ok(performance.now() - t0);
      });
      void up.then((r) => fail(new Error(`saltnet up exited (${r.exitCode ?? r.signal}) before ready:\n${err}`)));
    });
    if (afterReady) await afterReady(/daemon RPC\s+(\S+)/.exec(out)![1]!);
    return ready;
  } finally {
    up.kill('SIGINT');
    await up;
  }
}

/** The warm start of `saltnet up` on sim at these heights (undefined: the default, 1201). */
export async function upStart(report: Report, heights: (number | undefined)[] = [undefined, 20_000]): Promise<void> {
  for (const height of heights) {
    const cache = tempDir('saltnet-bench-start-');
    const label = `up.start.sim.h${height ?? 1201}`;
    try {
      await upToReady(cache, height);
      const times: number[] = [];
      const firsts: number[] = [];
      // The simulated daemon loads its chain behind the ready line: the first request that needs the whole chain
      // (get_info) right after ready waits for it.
      const firstInfo = async (url: string): Promise<void> => {
        const t0 = performance.now();
        const r = await request(`${url}/get_info`, { method: 'POST', body: '{}' });
        if (r.statusCode !== 200) throw new Error(`get_info answered HTTP ${r.statusCode}`);
        await r.body.json();
        firsts.push(performance.now() - t0);
      };
      for (let i = 0; i < RUNS; i++) times.push(await upToReady(cache, height, {}, firstInfo));
      report(
        `${label}.best`,
        ms(Math.min(...times)),
        `saltnet up (installed bin) to its ready line, warm, best of ${RUNS}`,
      );
      report(`${label}.median`, ms(median(times)), times.map((t) => t.toFixed(0)).join(', '));
      report(
        `${label}.firstGetInfo`,
        ms(median(firsts)),
        `median: the first get_info right after ready, which waits for the simulator's chain to load (${firsts.map((t) => t.toFixed(0)).join(', ')})`,
      );
    } finally {
      cleanup(cache);
    }
  }
}
