// The bench's real-Salvium part (scripts/bench.ts runs it when real binaries are found): cold `up`
// by phase and its ratio to the mining time alone, warm `up`, and the example suite from an empty
// cache — all at difficulty 1 (light RandomX), on the machine's cores.
import { performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { fileURLToPath } from 'node:url';
import { runFiles, suiteChain } from '../harness/scenario/runner.js';
import { resolveBackend } from '../harness/testnet/binaries.js';
import { startTestnet } from '../harness/testnet/testnet.js';

export type Report = (name: string, value: string, note?: string) => void;

const ms = (n: number): string => `${n.toFixed(1)} ms`;

/** Cold then warm `up` on real Salvium, each phase reported; returns the cold and warm totals. */
async function upReal(binDir: string, report: Report): Promise<void> {
  const cache = mkdtempSync(join(tmpdir(), 'saltnet-bench-real-'));
  const opts = { backend: 'salvium' as const, binDir, difficulty: 1, progress: 'none' as const, log: () => undefined, trapSignals: false, cacheDir: cache };
  try {
    const totals: Record<string, number> = {};
    for (const kind of ['cold', 'warm'] as const) {
      const t0 = performance.now();
      const t = await startTestnet(opts);
      const total = performance.now() - t0;
      totals[kind] = total;
      for (const [phase, taken] of Object.entries(t.phases)) report(`up.salvium.${kind}.${phase}`, ms(taken));
      const b = await t.wallet.client.balance('SAL1');
      report(`up.salvium.${kind}.total`, ms(total), `snapshot ${t.snapshot.status}, height ${t.height}, ${(Number(b.unlocked) / 1e8).toFixed(2)} SAL1 unlocked, ${t.crashes().length} crash(es) recovered`);
      if (kind === 'cold' && t.phases.mined) {
        report('up.salvium.cold.ratioToMining', `${(total / t.phases.mined).toFixed(2)}x`, `cold total / mining alone (${ms(t.phases.mined)}, ${(t.height / (t.phases.mined / 1000)).toFixed(1)} blocks/s)`);
      }
      await t.stop();
    }
    report('up.salvium.speedup', `${(totals.cold! / totals.warm!).toFixed(1)}x`, `warm ${ms(totals.warm!)} vs cold ${ms(totals.cold!)} (real salviumd, difficulty 1, height 1201)`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** Every example scenario on real Salvium from an empty cache (the suite's chain state built first). */
async function suiteReal(binDir: string, report: Report): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'saltnet-bench-real-suite-'));
  try {
    const files = (await glob(fileURLToPath(new URL('../../scenarios/*.yaml', import.meta.url)), { absolute: true })).sort();
    const chain = await suiteChain(files, resolveBackend('salvium', binDir).spec);
    const t0 = performance.now();
    const results = await runFiles(files, {
      backend: 'salvium', binDir, difficulty: 1, isolation: 'shared', workers: 1, bail: false, artifactsRoot: join(dir, 'arts'), log: () => undefined, cacheDir: join(dir, 'cache'), chain,
    });
    const passed = results.filter((r) => r.status === 'passed').length;
    const failedNames = results.filter((r) => r.status !== 'passed' && r.status !== 'skipped').map((r) => r.name);
    report('run.examples.salvium.cold', ms(performance.now() - t0), `${passed}/${results.length} passed${failedNames.length ? ` (not: ${failedNames.join('; ')})` : ''}, difficulty 1, empty cache`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchReal(binDir: string, report: Report): Promise<void> {
  await upReal(binDir, report);
  await suiteReal(binDir, report);
}
