// The bench's `run.*` numbers: what the scenario runner adds to each step against the same call made
// directly, and the wall time of the example suite on the simulator.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { glob } from 'tinyglobby';
import { createDaemonClient } from '../harness/rpc/daemon.js';
import { suiteChain } from '../harness/scenario/needs.js';
import { runFiles } from '../harness/runner/run-scenarios.js';
import { resolveBackend } from '../harness/testnet/programs/binaries.js';
import { startTestnet } from '../harness/testnet/testnet.js';
import { cleanup, tempDir } from '../test/helpers/sim.js';
import { ms, type Report } from './bench-up.js';

/** Per-step overhead: a scenario of N daemon calls against the same N calls made directly. */
export async function runnerOverhead(report: Report): Promise<void> {
  const dir = tempDir('saltnet-bench-');
  try {
    const n = 300;
    const file = join(dir, 'calls.yaml');
    const steps = Array.from(
      { length: n },
      () => '  - call: { path: /get_height }\n    expect: { result.status: OK }',
    ).join('\n');
    writeFileSync(file, `name: ${n} daemon calls\nsteps:\n${steps}\n`);
    const t = await startTestnet({
      backend: 'sim',
      height: 2,
      unlocked: 0n,
      progress: 'none',
      log: () => undefined,
      trapSignals: false,
      snapshots: false,
    });
    const raw = createDaemonClient(t.daemon.url);
    const r0 = performance.now();
    for (let i = 0; i < n; i++) await raw.post('/get_height');
    const rawMs = performance.now() - r0;
    await raw.close();
    await t.stop();
    const results = await runFiles([file], {
      backend: 'sim',
      isolation: 'shared',
      workers: 1,
      bail: false,
      artifactsRoot: join(dir, 'arts'),
      log: () => undefined,
      snapshots: false,
    });
    const stepMs = results[0]!.steps.reduce((sum, st) => sum + st.ms, 0);
    report(
      'run.step.overhead',
      `${((stepMs - rawMs) / n).toFixed(2)} ms`,
      `per step: ${(stepMs / n).toFixed(2)} ms a step (templates, expectations, transcript) vs ${(rawMs / n).toFixed(2)} ms a raw call, ${n} calls`,
    );
  } finally {
    cleanup(dir);
  }
}

/** Wall time of every example scenario on sim: cold (empty cache: the suite's chain state is built) and warm. */
export async function exampleSuite(workers: number, cache: string, kind: string, report: Report): Promise<void> {
  const dir = tempDir('saltnet-bench-');
  try {
    const files = (
      await glob(fileURLToPath(new URL('../../scenarios/*.yaml', import.meta.url)), { absolute: true })
    ).sort();
    const chain = await suiteChain(files, resolveBackend('sim').spec);
    const t0 = performance.now();
    const results = await runFiles(files, {
      backend: 'sim',
      isolation: 'shared',
      workers,
      bail: false,
      artifactsRoot: join(dir, 'arts'),
      log: () => undefined,
      cacheDir: cache,
      chain,
    });
    const passed = results.filter((r) => r.status === 'passed').length;
    report(
      `run.examples.${kind}.workers${workers}`,
      ms(performance.now() - t0),
      `${passed}/${results.length} passed, shared isolation, default simulator pace (fast), ${kind} cache`,
    );
  } finally {
    cleanup(dir);
  }
}
