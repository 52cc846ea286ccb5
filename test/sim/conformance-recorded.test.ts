// Conformance with a real recording: every scenario of the newest recording in fixtures/conformance/
// (the example scenarios run on the real Salvium programs by `npm run record-conformance`) is run
// on the simulator and compared step by step with what the real programs answered — `compareRuns`,
// the rules of `saltnet diff`, and the repository's saltnet.diff-accept.yaml when there is one.
// Beside it, test/sim/conformance.test.ts replays the older hand-made transcripts.
// Divergences that come from the real wallet's random choices are accepted, with their reasons, in
// saltnet.diff-accept.yaml; anything else fails with the list of what differs.
import { replayFrom } from '../../harness/diff/replay.js';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCEPT_FILE, loadAcceptFile } from '../../harness/diff/accept.js';
import { compareRuns } from '../../harness/diff/diff.js';
import { checkScenarios, planAgainst, type ScenarioCheck } from '../../harness/diff/recording-check.js';
import { newestRecording, readRecording, type Recording } from '../../harness/diff/recording.js';
import type { DiffResult } from '../../harness/diff/types.js';
import { suiteChain } from '../../harness/scenario/needs.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CORPUS = join(ROOT, 'fixtures', 'conformance');
const ACCEPT = join(ROOT, DEFAULT_ACCEPT_FILE);

let dir: string;
let rec: Recording;
let checks: ScenarioCheck[];
let result: DiffResult;

const cut = (s: string, max = 100): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Every divergence not accepted and every scenario that was not compared: scenario, step, path, the simulator's value,
 * the real one.
 */
function divergenceList(r: DiffResult): string {
  const lines: string[] = [];
  for (const s of r.scenarios) {
    const open = s.divergences.filter((d) => !d.accepted);
    if (s.status !== 'error' && open.length === 0) continue;
    lines.push(`${relative(ROOT, s.file)} — ${s.name}`);
    if (s.status === 'error')
      lines.push(
        `  not compared: sim ${s.a.status}${s.a.message ? `: ${s.a.message}` : ''}; real ${s.b.status}${s.b.message ? `: ${s.b.message}` : ''}`,
      );
    for (const d of open) {
      const step = d.step === undefined ? '(scenario)' : `step ${d.step} ${JSON.stringify(d.stepName ?? '')}`;
      lines.push(
        `  ${step}: ${d.path}: sim ${cut(d.a)} ≠ real ${cut(d.b)} (${d.kind}${d.detail ? `: ${d.detail}` : ''})`,
      );
    }
  }
  const n = r.summary;
  lines.push(
    `${n.divergences} divergence${n.divergences === 1 ? '' : 's'} (${n.accepted} accepted) in ${n.diverged} of ${n.scenarios} scenarios, ${n.steps} steps compared, ${n.errors} not compared`,
  );
  return lines.join('\n');
}

beforeAll(async () => {
  const newest = await newestRecording(CORPUS);
  if (!newest)
    throw new Error(
      `no recording in ${CORPUS}: make one with npm run record-conformance (real Salvium programs needed)`,
    );
  rec = await readRecording(newest);
  dir = tempDir('saltnet-conformance-recorded-');
  checks = await checkScenarios(rec, ROOT);
  const plan = planAgainst(rec, checks, 'sim');
  const ran = await runFiles(plan.run, {
    backend: 'sim',
    daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
    difficulty: rec.manifest.difficulty,
    cacheDir: join(dir, 'cache'),
    isolation: rec.manifest.isolation,
    workers: 1,
    bail: false,
    artifactsRoot: join(dir, 'artifacts'),
    log: () => undefined,
    // The simulator follows the recorded wallet's coin flips, as saltnet diff --against does.
    replay: replayFrom(plan.recorded),
    ...(rec.manifest.isolation === 'shared' ? { chain: await suiteChain(plan.run, resolveBackend('sim').spec) } : {}),
  });
  const accept = existsSync(ACCEPT) ? await loadAcceptFile(ACCEPT) : [];
  result = compareRuns([...ran, ...plan.notRun], plan.recorded, {
    a: { backend: 'sim' },
    b: { backend: rec.manifest.backend, recording: newest },
    accept,
    followed: true,
  });
  process.stdout.write(
    `conformance with ${relative(ROOT, newest)} (${rec.manifest.version.program}, recorded ${rec.manifest.recordedAt}):\n${divergenceList(result)}\n`,
  );
}, 600_000);

afterAll(() => {
  if (dir) cleanup(dir);
});

describe(`the simulator against the newest real recording in fixtures/conformance/`, () => {
  it('is a recording of the real programs', () => {
    expect(rec.manifest.backend).toBe('salvium');
    expect(rec.manifest.scenarios.length).toBeGreaterThan(0);
  });

  it('is current: no scenario file changed, vanished or was added since it was recorded (else: npm run record-conformance)', async () => {
    const stale = checks.filter((c) => c.state !== 'fresh').map((c) => `${relative(ROOT, c.file)}: ${c.state}`);
    const all = await checkScenarios(rec, ROOT, globSync('scenarios/*.yaml', { cwd: ROOT }));
    const unrecorded = all.filter((c) => c.state === 'unrecorded').map((c) => `${relative(ROOT, c.file)}: unrecorded`);
    expect([...stale, ...unrecorded], 're-record the corpus: npm run record-conformance').toEqual([]);
  });

  it('every scenario ran on the simulator (no infrastructure error on its side)', () => {
    const broken = result.scenarios
      .filter((s) => s.a.status === 'error')
      .map((s) => `${relative(ROOT, s.file)}: ${s.a.message ?? 'error'}`);
    expect(broken).toEqual([]);
  });

  it('answers every recorded step as the real programs did', () => {
    expect(result.scenarios.length).toBeGreaterThan(0);
    expect(
      result.summary.divergences + result.summary.errors,
      `the simulator diverges from the real recording:\n${divergenceList(result)}`,
    ).toBe(0);
  });
});
