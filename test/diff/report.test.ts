// The reports of a diff: the human table and summary line, the JSON document and the JUnit XML.
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parseAcceptFile } from '../../harness/diff/accept.js';
import { compareRuns } from '../../harness/diff/diff.js';
import { diffSummaryLine, diffToText, diffToJson, diffToJUnit } from '../../harness/diff/report.js';
import type { ScenarioResult, StepResult } from '../../harness/scenario/types.js';

const step = (index: number, name: string, response: unknown): StepResult => ({
  index,
  name,
  action: 'call',
  status: 'passed',
  ms: 3,
  response,
});
const run = (file: string, name: string, steps: StepResult[], extra: Partial<ScenarioResult> = {}): ScenarioResult => ({
  file,
  name,
  status: 'passed',
  ms: 9,
  backend: 'sim',
  steps,
  ...extra,
});

const A = [
  run('/p/a.yaml', 'errors <&>', [
    step(0, 'bad asset', { error: { code: -1, message: "Source asset 'XYZW' not found in wallet" } }),
    step(1, 'fee', { result: { fee: 10, tx_hash: 'a'.repeat(64) } }),
  ]),
  run('/p/b.yaml', 'same', [step(0, 'height', { result: { height: 1212 } })]),
  run('/p/c.yaml', 'infra', [], { status: 'passed' }),
];
const B = [
  run('/p/a.yaml', 'errors <&>', [
    step(0, 'bad asset', { error: { code: -1, message: "Source asset 'XYZW' not found in wallet (B)" } }),
    step(1, 'fee', { result: { fee: 25, tx_hash: 'b'.repeat(64) } }),
  ]),
  run('/p/b.yaml', 'same', [step(0, 'height', { result: { height: 1212 } })]),
  run('/p/c.yaml', 'infra', [], {
    status: 'error',
    failure: { message: 'setting up the scenario failed: daemon exited with code 3' },
  }),
];
const accept = parseAcceptFile(
  'accept:\n  - { scenario: "errors <&>", step: 2, path: result.fee, reason: fee model differs }\n  - { scenario: same, path: result.x, reason: gone }\n',
  '/p/saltnet.diff-accept.yaml',
);
const result = compareRuns(A, B, { a: { backend: 'sim' }, b: { backend: 'salvium', binDir: '/opt/b' }, accept });

describe('human', () => {
  it('a summary line that counts scenarios, steps, divergences, accepted ones and errors', () => {
    expect(diffSummaryLine(result)).toBe(
      '3 scenarios, 3 steps compared: 1 divergence in 1 scenario, 1 accepted, 1 error',
    );
  });

  it('a table per diverged scenario: step, path, A, B, kind; accepted ones with their reason; errors with each side; stale entries', () => {
    const lines = diffToText(result).split('\n');
    expect(lines[0]).toBe('saltnet diff: A = sim, B = salvium (bin dir /opt/b)');
    expect(lines).toContain('✗ diverged  /p/a.yaml — errors <&> (2 steps)');
    const header = lines.findIndex((l) => l.trimStart().startsWith('step'));
    expect(lines[header]!.split(/\s{2,}/).filter(Boolean)).toEqual(['step', 'path', 'A', 'B', 'kind']);
    expect(lines[header + 1]!.split(/\s{2,}/).filter(Boolean)).toEqual([
      '1 bad asset',
      'error.message',
      '…found in wallet"',
      '…found in wallet (B)"',
      'value',
    ]);
    expect(lines[header + 2]!.split(/\s{2,}/).filter(Boolean)).toEqual([
      '2 fee',
      'result.fee',
      '10',
      '25',
      'value (not within a factor of 2 (what 1 or 2 inputs give))',
    ]);
    expect(lines[header + 3]).toBe('      accepted: fee model differs (/p/saltnet.diff-accept.yaml:2:5)');
    expect(lines).toContain('✓ same      /p/b.yaml — same (1 step)');
    expect(lines).toContain('! error     /p/c.yaml — infra');
    expect(lines).toContain('    B: error: setting up the scenario failed: daemon exited with code 3');
    expect(lines).toContain(
      'warning: /p/saltnet.diff-accept.yaml:3:5: stale accept entry: it matched no divergence (scenario "same", path result.x)',
    );
    expect(lines.at(-2)).toBe(diffSummaryLine(result));
  });
});

describe('json', () => {
  it('one document with the sides, the summary, each scenario and its divergences, and stale entries; the same text every time', () => {
    const text = diffToJson(result);
    expect(diffToJson(result)).toBe(text);
    const doc = JSON.parse(text);
    expect(Object.keys(doc)).toEqual(['version', 'ok', 'a', 'b', 'summary', 'scenarios', 'stale']);
    expect(doc).toMatchObject({
      version: 1,
      ok: false,
      a: { backend: 'sim' },
      b: { backend: 'salvium', binDir: '/opt/b' },
      summary: { scenarios: 3, steps: 3, divergences: 1, accepted: 1, diverged: 1, errors: 1, stale: 1 },
    });
    expect(doc.scenarios[0].divergences).toEqual([
      {
        step: 1,
        stepName: 'bad asset',
        path: 'error.message',
        kind: 'value',
        a: `"Source asset 'XYZW' not found in wallet"`,
        b: `"Source asset 'XYZW' not found in wallet (B)"`,
      },
      {
        step: 2,
        stepName: 'fee',
        path: 'result.fee',
        kind: 'value',
        a: '10',
        b: '25',
        detail: 'not within a factor of 2 (what 1 or 2 inputs give)',
        rule: 'fee',
        accepted: { reason: 'fee model differs', at: '/p/saltnet.diff-accept.yaml:2:5' },
      },
    ]);
    expect(doc.scenarios[2]).toMatchObject({
      status: 'error',
      a: { status: 'passed' },
      b: { status: 'error', message: 'setting up the scenario failed: daemon exited with code 3' },
    });
    expect(doc.stale).toEqual([
      { at: '/p/saltnet.diff-accept.yaml:3:5', scenario: 'same', path: 'result.x', reason: 'gone' },
    ]);
  });
});

describe('junit', () => {
  it('one testcase per scenario: divergences as <failure>, infrastructure errors as <error>, accepted ones in system-out', () => {
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(diffToJUnit(result));
    const suite = xml.testsuites.testsuite;
    expect(suite).toMatchObject({
      name: 'saltnet diff: A = sim, B = salvium (bin dir /opt/b)',
      tests: '3',
      failures: '1',
      errors: '1',
      skipped: '0',
    });
    const [diverged, same, infra] = suite.testcase;
    expect(diverged).toMatchObject({
      classname: '/p/a.yaml',
      name: 'errors <&>',
      failure: { message: '1 divergence', type: 'divergence' },
    });
    expect(diverged.failure['#text']).toContain('error.message');
    expect(diverged.failure['#text']).not.toContain('result.fee');
    expect(diverged['system-out']).toContain('accepted: fee model differs');
    expect(same.failure).toBeUndefined();
    expect(infra.error).toMatchObject({
      type: 'infrastructure',
      message: 'B: setting up the scenario failed: daemon exited with code 3',
    });
    expect(suite['system-err']).toContain('stale accept entry');
  });
});

describe('a scenario that fails the same way on both sides', () => {
  it('is the same, and the human report says it failed on both', () => {
    const failed = (): ScenarioResult =>
      run(
        '/p/f.yaml',
        'fails',
        [
          {
            ...step(0, 'x', { result: { x: 1 } }),
            status: 'failed',
            failure: { message: 'result.x: expected 2\ndetail' },
          },
        ],
        { status: 'failed', failure: { message: 'result.x: expected 2' } },
      );
    const r = compareRuns([failed()], [failed()], { a: { backend: 'sim' }, b: { backend: 'sim' } });
    expect([r.scenarios[0]!.status, r.ok]).toEqual(['same', true]);
    expect(diffToText(r).split('\n')).toContain('    failed on both sides (A: result.x: expected 2)');
  });
});

describe('a scenario that fails on one side only', () => {
  it("the human report gives the failed side's message in full and its artifacts folder, which the table cuts short", () => {
    const message = `n0 takes the spend: result.status: expected "OK", got "BUSY"${' (a long explanation)'.repeat(4)}`;
    const passed = run('/p/f.yaml', 'fails on B', [step(0, 'x', { result: { status: 'OK' } })]);
    const failed = run(
      '/p/f.yaml',
      'fails on B',
      [{ ...step(0, 'x', { result: { status: 'BUSY' } }), status: 'failed', failure: { message } }],
      { status: 'failed', failure: { message }, artifactDir: '/tmp/art/f' },
    );
    const r = compareRuns([passed], [failed], { a: { backend: 'sim' }, b: { backend: 'salvium' } });
    const lines = diffToText(r).split('\n');
    expect(r.ok).toBe(false);
    expect(lines).toContain(`    B failed: ${message} (artifacts: /tmp/art/f)`);
    expect(lines.some((l) => l.startsWith('    A failed'))).toBe(false);
  });
});
