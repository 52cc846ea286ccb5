// Every example scenario on the real programs and on the simulator, compared step by step with
// `saltnet diff` at difficulty 1 (both sides at once). The suite's chain state is the default one:
// on the real side it is restored from the tier's cache, where 1-up (run before it, beside.test.ts)
// built it across the Carrot switch; alone, this file builds it there. The sim side builds its own.
// Every scenario must pass on both, and the simulator must answer as real Salvium does — no
// divergence beyond the project's accept file.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeReal, diffSimAgainstReal } from './real.js';

interface Report {
  ok: boolean;
  summary: { scenarios: number; divergences: number; errors: number };
  scenarios: { file: string; status: string; a: Side; b: Side }[];
}
interface Side {
  status: string;
  message?: string;
  artifactDir?: string;
}

/**
 * What a side that did not pass left behind, for the failure message: the last lines of each program's log, then its
 * message and the failed step's response (the diff's table cuts it short) last, where a CI log cut to its tail keeps
 * them.
 */
function evidence(side: Side): string {
  const out: string[] = [];
  const summary = [`${side.status}: ${side.message ?? ''}`];
  const dir = side.artifactDir;
  if (!dir || !existsSync(dir)) return summary.join('\n');
  const logs = join(dir, 'logs');
  for (const f of existsSync(logs) ? readdirSync(logs) : [])
    out.push(`--- ${f}`, ...readFileSync(join(logs, f), 'utf8').trimEnd().split('\n').slice(-25));
  try {
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as {
      steps?: { index: number; name: string; status: string; response?: unknown }[];
    };
    for (const st of result.steps?.filter((x) => x.status === 'failed') ?? [])
      summary.push(`step ${st.index + 1} ${st.name}: ${JSON.stringify(st.response)}`);
  } catch (err) {
    summary.push(`(no result.json: ${String(err)})`);
  }
  return [...out, `--- ${basename(dir)}`, ...summary].join('\n');
}

describeReal('every example scenario on real Salvium and on the simulator', () => {
  const root = mkdtempSync(join(tmpdir(), 'saltnet-real-suite-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('passes on both on the suite chain state, and saltnet diff finds no divergence', async () => {
    const t0 = Date.now();
    const r = await diffSimAgainstReal<Report>('scenarios/*.yaml', root, 'diff', 2_400_000);
    process.stderr.write(
      `real tier: the example suite on sim and real, compared, took ${((Date.now() - t0) / 1000).toFixed(1)} s\n`,
    );
    // On failure, show the run's own output: the table of divergences, or the failed step with its log tails.
    const report = r.report;
    const notPassed = report.scenarios
      .filter((s) => s.a.status !== 'passed' || s.b.status !== 'passed')
      .map((s) => `${s.file}: sim ${s.a.status}, real ${s.b.status}`);
    const details = report.scenarios
      .filter((s) => s.b.status !== 'passed')
      .map((s) => `${s.file} on real: ${evidence(s.b)}`);
    // The scenarios' names again after the evidence: a CI log cut to its tail keeps the last lines.
    expect(notPassed, [r.all, ...details, notPassed.join('\n')].join('\n\n')).toEqual([]);
    expect(report.summary.divergences, r.all).toBe(0);
    expect(r.exitCode, r.all).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.summary.scenarios).toBeGreaterThanOrEqual(14);
  }, 2_400_000); // 33 examples, four of them on two nodes, beside the sim tier: 20 to 26 minutes in CI
});
