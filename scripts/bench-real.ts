// The bench's real-Salvium part (scripts/bench.ts runs it when real binaries are found), at the
// default difficulty 500 (the chain state mined at difficulty 1 and served at 500: docs/difficulty.md):
// cold `up` to token-ready by phase and its ratio to the mining time alone, warm `up` (best of 3), a pooled
// testnet's acquire, `mine: 1` at
// 500 in full and light RandomX mode, a checkpoint and a revert (bench-checkpoint.ts), and the example suite at
// difficulty 1 and at 500 with the ratio.
import { performance } from 'node:perf_hooks';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { glob } from 'tinyglobby';
import { fileURLToPath } from 'node:url';
import { aheadState, planOfFiles } from '../harness/runner/funded-state-cache.js';
import { suiteChain } from '../harness/scenario/needs.js';
import { loadScenario } from '../harness/scenario/parse.js';
import { freshTestnetStart } from '../harness/runner/own-testnets.js';
import { runFiles } from '../harness/runner/run-scenarios.js';
import { resolveBackend } from '../harness/testnet/programs/binaries.js';
import { startTestnet, type Testnet } from '../harness/testnet/testnet.js';
import { ms, upColdWarm, type Report } from './bench-up.js';
import { mineOne, mineRun } from './bench-mining.js';
import { checkpointRevert } from './bench-checkpoint.js';
import { freshWallets } from './bench-fresh.js';
import { poolAcquire, poolAcquireVitest } from './bench-pool.js';
import { difficultyFloor } from './bench-difficulty.js';

/**
 * Cold then warm `up` on real Salvium at the default difficulty, each phase reported, and the cold total against mining
 * alone; then `mine: 1`.
 */
export async function upReal(binDir: string, report: Report): Promise<void> {
  const cache = mkdtempSync(join(tmpdir(), 'saltnet-bench-real-'));
  try {
    const describe = async (t: Testnet): Promise<string> =>
      `${(Number((await t.wallet.client.balance('SAL1')).unlocked) / 1e8).toFixed(2)} SAL1 unlocked, serving difficulty ${t.mining.difficulty} (prefix mined at ${t.snapshot.prefix?.difficulty ?? '?'}), ${t.crashes().length} crash(es) recovered`;
    const r = await upColdWarm('salvium', { backend: 'salvium', binDir, cacheDir: cache }, report, describe);
    const mined = r.coldPhases.mined;
    if (mined)
      report(
        'up.salvium.cold.ratioToMining',
        `${(r.cold / mined).toFixed(2)}x`,
        `cold total ${ms(r.cold)} / mining alone ${ms(mined)}`,
      );
    report(
      'up.salvium.speedup',
      `${(r.cold / r.warm).toFixed(1)}x`,
      `warm ${ms(r.warm)} vs cold ${ms(r.cold)} (real salviumd, served at difficulty 500, height 1201)`,
    );
    const base = { backend: 'salvium' as const, binDir, cacheDir: cache };
    await poolAcquire('salvium', base, report);
    await poolAcquireVitest('salvium', base, report);
    await mineOne('full', { base, idleMs: 60_000 }, report);
    await mineOne('full', { base }, report);
    await mineOne('light', { base, blocks: 8 }, report);
    await mineRun({ base }, report);
    await checkpointRevert(base, report);
    await freshWallets('salvium', base, report);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** The three slowest scenarios of a run, with their times. */
function slowest(results: { name: string; file: string; ms: number }[]): string {
  return [...results]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 3)
    .map((r) => `${basename(r.file, '.yaml')} ${(r.ms / 1000).toFixed(1)} s`)
    .join(', ');
}

/** `SALTNET_BENCH_DETAIL`, made if missing: called before the suite runs, so a path no folder can be at fails then. */
function detailDir(): string | undefined {
  const dir = process.env.SALTNET_BENCH_DETAIL;
  if (dir) mkdirSync(dir, { recursive: true });
  return dir;
}

/** With `SALTNET_BENCH_DETAIL=<dir>`, each scenario's time at each difficulty, as `suite-d<difficulty>.json` there. */
function detail(difficulty: number, results: { file: string; status: string; ms: number }[]): void {
  const dir = detailDir();
  if (!dir) return;
  const rows = results.map((r) => ({ scenario: basename(r.file, '.yaml'), status: r.status, ms: Math.round(r.ms) }));
  writeFileSync(join(dir, `suite-d${difficulty}.json`), `${JSON.stringify(rows, null, 2)}\n`);
}

/**
 * Every example scenario on real Salvium, once at difficulty 1 and once at the default 500, each from a cache holding
 * the suite's chain state (built first, not counted: both share it, its prefix mined at 1) and, for 500, the states
 * with the suite's wallets funded ahead (built at 1, not counted either: the shared one, and the own one of each
 * scenario of several nodes), and the ratio.
 */
export async function suiteReal(binDir: string, report: Report): Promise<void> {
  detailDir();
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-bench-real-suite-'));
  try {
    const files = (
      await glob(fileURLToPath(new URL('../../scenarios/*.yaml', import.meta.url)), { absolute: true })
    ).sort();
    const chain = await suiteChain(files, resolveBackend('salvium', binDir).spec);
    const base = { backend: 'salvium' as const, binDir, cacheDir: join(dir, 'cache') };
    const warmup = await startTestnet({
      ...base,
      ...chain,
      progress: 'none',
      log: () => undefined,
      trapSignals: false,
    });
    await warmup.stop();
    // And the state with the suite's wallets funded ahead (built once per machine, at difficulty 1), which the run at
    // 500 restores, as every run after a machine's first does.
    const plan = await planOfFiles(files, resolveBackend('salvium', binDir).spec);
    const quiet = { progress: 'none' as const, log: () => undefined, trapSignals: false };
    // With the plan's extras (the lookahead, the height mined ahead), as `saltnet run` builds it: the same key.
    await aheadState({ ...base, ...quiet, height: plan.height, unlocked: plan.unlocked, difficulty: 500 }, plan.pays, {
      log: () => undefined,
      ...plan.extras,
    });
    // And each scenario of several nodes' own state (its testnet is its own), with its wallets funded ahead.
    const spec = resolveBackend('salvium', binDir).spec;
    for (const f of files) {
      const s = await loadScenario(f);
      if (s.nodes > 1)
        await freshTestnetStart(s, spec, { ...base, ...quiet, difficulty: 500 }, { log: () => undefined });
    }
    const times: Record<number, number> = {};
    for (const difficulty of [1, 500]) {
      const t0 = performance.now();
      const ahead: string[] = [];
      const results = await runFiles(files, {
        ...base,
        difficulty,
        isolation: 'shared',
        workers: 1,
        bail: false,
        artifactsRoot: join(dir, `arts-${difficulty}`),
        log: (l) => void (/wallets ahead/.test(l) && ahead.push(l.replace(/^saltnet: /, ''))),
        chain,
      });
      times[difficulty] = performance.now() - t0;
      detail(difficulty, results);
      const passed = results.filter((r) => r.status === 'passed').length;
      const failed = results.filter((r) => r.status !== 'passed' && r.status !== 'skipped').map((r) => r.name);
      report(
        `run.examples.salvium.d${difficulty}`,
        ms(times[difficulty]),
        `${passed}/${results.length} passed${failed.length ? ` (not: ${failed.join('; ')})` : ''}, warm cache; ${ahead.join('; ')}; slowest: ${slowest(results)}`,
      );
    }
    report('run.examples.salvium.ratio', `${(times[500]! / times[1]!).toFixed(2)}x`, 'difficulty 500 / difficulty 1');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchReal(binDir: string, report: Report): Promise<void> {
  await upReal(binDir, report);
  await suiteReal(binDir, report);
  await difficultyFloor(binDir, report);
}
