// The bench's difficulty-floor part (`npm run bench -- --difficulty-only`): what a user sees at the default
// difficulty 500 on real Salvium, from the command line, with saltnet's own RandomX miner and its dataset cached:
// a warm `npx saltnet up` to its ready line (best of 3), the first `saltnet mine 1` right after it, a `saltnet fund`
// right after another (median of 3), and one `saltnet run` of two example scenarios at 500 against the same at 1, each
// in its own process. The dataset's build (from its meta) and load are reported beside them.
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { resolveCacheDir } from '../harness/common/cache-dir.js';
import { listDatasets, randomxDir } from '../harness/randomx/dataset-files.js';
import { loadRandomx } from '../harness/randomx/library.js';
import { median, type Report } from './bench-up.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCENARIOS = ['scenarios/token-create-and-list.yaml', 'scenarios/transfer-groups.yaml'];
const s = (n: number): string => `${(n / 1000).toFixed(2)} s`;

/** `npx saltnet …` in the repository, timed; its stdout. */
async function saltnet(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  const r = await execa('npx', ['--no-install', 'saltnet', ...args], { cwd: ROOT, env, reject: false, all: true });
  const took = performance.now() - t0;
  if (r.exitCode !== 0) throw new Error(`saltnet ${args.join(' ')} failed (${r.exitCode}):\n${r.all}`);
  return { ms: took, stdout: r.stdout };
}

/** A warm `npx saltnet up` at 500 in the foreground, as a user types it, until its ready line. */
interface Up {
  ms: number;
  runId: string;
  address: string;
  /** Ctrl-C to its process group (npx and saltnet, as a terminal sends it); resolves when both are gone. */
  down(): Promise<void>;
}

async function up(env: NodeJS.ProcessEnv): Promise<Up> {
  const t0 = performance.now();
  const p = execa('npx', ['--no-install', 'saltnet', 'up', '--json'], {
    cwd: ROOT,
    env,
    detached: true,
    reject: false,
    stdin: 'ignore',
    stderr: 'ignore',
  });
  const down = async (): Promise<void> => {
    try {
      process.kill(-p.pid!, 'SIGINT');
    } catch {
      /* gone already */
    }
    await p;
  };
  for await (const line of createInterface({ input: p.stdout! })) {
    const e = line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : {};
    if (e.event !== 'ready') continue;
    const ms = performance.now() - t0;
    const ready = e as { runId: string; miner: { addresses: { carrot: string } } };
    return { ms, runId: ready.runId, address: ready.miner.addresses.carrot, down };
  }
  await down();
  throw new Error(`saltnet up ended without a ready line (exit ${(await p).exitCode})`);
}

export async function difficultyFloor(binDir: string, report: Report): Promise<void> {
  const lib = loadRandomx();
  if ('missing' in lib) return void report('floor.salvium', 'skipped', lib.missing);
  const env = { ...process.env, SALTNET_BACKEND: 'salvium', SALTNET_BIN_DIR: binDir };
  const ups: number[] = [];
  const firsts: number[] = [];
  const funds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const u = await up(env);
    ups.push(u.ms);
    try {
      firsts.push((await saltnet(['mine', '1', '--run', u.runId], env)).ms);
    } finally {
      await u.down();
    }
    const v = await up(env);
    try {
      funds.push((await saltnet(['fund', v.address, '5', '--run', v.runId], env)).ms);
    } finally {
      await v.down();
    }
  }
  report(
    'floor.salvium.up.warm',
    s(Math.min(...ups)),
    `best of 3 (${ups.map(s).join(', ')}): npx saltnet up (in the foreground) to its ready line at 500; target ≤ 3 s`,
  );
  report(
    'floor.salvium.firstBlock',
    s(median(firsts)),
    `median of 3 (${firsts.map(s).join(', ')}): saltnet mine 1 right after a warm up, the command's whole time; target ≤ 2 s`,
  );
  report(
    'floor.salvium.fund',
    s(median(funds)),
    `median of 3 (${funds.map(s).join(', ')}): saltnet fund right after a warm up (the payment and 10 blocks at 500); target ≤ 15 s`,
  );
  const runs: Record<number, number[]> = { 1: [], 500: [] };
  for (let i = 0; i < 2; i++)
    for (const d of [1, 500]) runs[d]!.push((await saltnet(['run', ...SCENARIOS, '--difficulty', String(d)], env)).ms);
  const at1 = median(runs[1]!);
  const at500 = median(runs[500]!);
  report('floor.salvium.run.d1', s(at1), `${SCENARIOS.join(' + ')}, one saltnet run each, median of 2`);
  report('floor.salvium.run.d500', s(at500), 'the same at 500, median of 2');
  report('floor.salvium.run.ratio', `${(at500 / at1).toFixed(2)}x`, 'at 500 against at 1; target ≤ 1.2x');
  const ready = listDatasets(randomxDir(resolveCacheDir())).find((d) => d.state === 'ready' && d.meta);
  if (ready?.meta)
    report(
      'floor.salvium.dataset.build',
      s(ready.meta.buildMs),
      `on ${ready.meta.threads} threads, once per machine (${ready.meta.builtAt})`,
    );
}
