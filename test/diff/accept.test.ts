// The accept file: every problem of a bad one with file:line:col, and what a good one's entries
// match (scenario by name or file glob, step by number or name, path globs), accept and leave stale.
import { describe, expect, it } from 'vitest';
import { AcceptFileError, parseAcceptFile } from '../../harness/diff/accept.js';
import { compareRuns } from '../../harness/diff/diff.js';
import { diffSummaryLine } from '../../harness/diff/report.js';
import { fileGlob, isGlob, pathGlob } from '../../harness/diff/glob.js';
import type { ScenarioResult, StepResult } from '../../harness/scenario/types.js';

const FILE = '/work/proj/saltnet.diff-accept.yaml';

function problems(text: string): string[] {
  try {
    parseAcceptFile(text, FILE);
  } catch (e) {
    expect(e).toBeInstanceOf(AcceptFileError);
    return (e as Error).message.split('\n');
  }
  throw new Error('expected the accept file to be refused');
}

describe('a bad accept file', () => {
  it('lists every problem with its line and column', () => {
    const text = [
      'accept:',
      '  - scenario: balances', //           3: fine
      '    path: result.balance',
      '    reason: rounding',
      '  - scenario: balances', //           6: no reason
      '    step: 0',
      '    path: "result.[x"',
      '  - scenaro: x', //                   10: a typo, and no scenario/path/reason
      '    path: error.message',
      '    reason: "  "',
      '',
    ].join('\n');
    expect(problems(text)).toEqual([
      `${FILE}:5:5: accept[1].reason: missing: say why this divergence is accepted (expected why this divergence is accepted (text, not empty))`,
      `${FILE}:6:11: accept[1].step: expected a step number (1 is the first step) or a step name, got the number 0`,
      `${FILE}:7:11: accept[1].path: bad path "result.[x": unexpected "[" at character 8 (expected a path in the answer, e.g. result.balances[*].blocks_to_unlock, or (status))`,
      `${FILE}:8:5: accept[2].scenario: missing (expected a scenario name, or a glob of scenario names or files, e.g. scenarios/balances.yaml)`,
      `${FILE}:8:5: accept[2].scenaro: unknown key "scenaro" (did you mean "scenario"?) (expected the keys scenario, step, path, reason)`,
      `${FILE}:10:13: accept[2].reason: expected why this divergence is accepted (text, not empty), got the string "  "`,
    ]);
  });

  it('says what the file should be when it is not a mapping with accept:, or not YAML', () => {
    expect(problems('- scenario: x\n')).toEqual([
      `${FILE}:1:1: (file): an accept file is a mapping with one key, accept: (a list of entries), not a list (expected accept: [ { scenario, step, path, reason }, … ])`,
    ]);
    expect(problems('accepted: []\n')[0]).toBe(
      `${FILE}:1:1: accepted: unknown key "accepted" (did you mean "accept"?) (expected accept: a list of entries)`,
    );
    expect(problems('accept:\n  - scenario: [x\n')[0]).toMatch(new RegExp(`^${FILE}:\\d+:\\d+: \\(yaml\\): YAML: `));
  });

  it('an empty file accepts nothing', () => {
    expect(parseAcceptFile('# nothing yet\n', FILE)).toEqual([]);
  });
});

describe('path globs', () => {
  it('[*] is any index, * one key, ** any depth', () => {
    const g = pathGlob('result.balances[*].blocks_to_unlock');
    expect(g.test('result.balances[0].blocks_to_unlock')).toBe(true);
    expect(g.test('result.balances[12].blocks_to_unlock')).toBe(true);
    expect(g.test('result.balances[0].per_subaddress[0].blocks_to_unlock')).toBe(false);
    expect(pathGlob('result.**.blocks_to_unlock').test('result.balances[0].per_subaddress[0].blocks_to_unlock')).toBe(
      true,
    );
    expect(pathGlob('result.*').test('result.fee')).toBe(true);
    expect(pathGlob('result.*').test('result.balances[0]')).toBe(false);
    expect(pathGlob('(status)').test('(status)')).toBe(true);
  });
});

describe('file and name globs', () => {
  it('* and ? stay within a folder, ** crosses folders, {a,b} is either, dot names match', () => {
    expect(fileGlob('scenarios/tok*.yaml').test('scenarios/tokens.yaml')).toBe(true);
    expect(fileGlob('scenarios/tok*.yaml').test('scenarios/x/tokens.yaml')).toBe(false);
    expect(fileGlob('/a/**/b.yaml').test('/a/b.yaml')).toBe(true);
    expect(fileGlob('/a/**/b.yaml').test('/a/x/y/b.yaml')).toBe(true);
    expect(fileGlob('a?c').test('abc')).toBe(true);
    expect(fileGlob('a?c').test('a/c')).toBe(false);
    expect(fileGlob('send {one,two}').test('send two')).toBe(true);
    expect(fileGlob('send {one,two}').test('send three')).toBe(false);
    expect(fileGlob('scenarios/*').test('scenarios/.hidden.yaml')).toBe(true);
    expect([isGlob('tokens'), isGlob('token-*'), isGlob('step ?'), isGlob('{a,b}')]).toEqual([false, true, true, true]);
  });
});

// ---- applying entries to compared runs ----

const step = (index: number, name: string, response: unknown, status: StepResult['status'] = 'passed'): StepResult => ({
  index,
  name,
  action: 'call',
  status,
  ms: 1,
  response,
});

function result(
  file: string,
  name: string,
  steps: StepResult[],
  status: ScenarioResult['status'] = 'passed',
): ScenarioResult {
  return { file, name, status, ms: 5, backend: 'sim', steps };
}

const balanceA = {
  result: {
    balances: [
      { balance: 5, blocks_to_unlock: 8 },
      { balance: 1, blocks_to_unlock: 58 },
    ],
  },
};
const balanceB = {
  result: {
    balances: [
      { balance: 5, blocks_to_unlock: 9 },
      { balance: 1, blocks_to_unlock: 59 },
    ],
  },
};
const A = [
  result('/work/proj/scenarios/tokens.yaml', 'tokens', [
    step(0, 'create', { result: {} }),
    step(1, 'balance', balanceA),
  ]),
  result('/work/proj/scenarios/errors.yaml', 'errors', [step(0, 'bad asset', { error: { code: -1, message: 'no' } })]),
];
const B = [
  result('/work/proj/scenarios/tokens.yaml', 'tokens', [
    step(0, 'create', { result: {} }),
    step(1, 'balance', balanceB),
  ]),
  result('/work/proj/scenarios/errors.yaml', 'errors', [step(0, 'bad asset', { error: { code: -1, message: 'No!' } })]),
];
const sides = { a: { backend: 'sim' as const }, b: { backend: 'salvium' as const, binDir: '/opt/b' } };

describe('accepting divergences', () => {
  it('without entries, every divergence counts', () => {
    const r = compareRuns(A, B, sides);
    expect(r.ok).toBe(false);
    expect(r.summary).toEqual({
      scenarios: 2,
      steps: 3,
      skipped: 0,
      divergences: 3,
      accepted: 0,
      diverged: 2,
      errors: 0,
      stale: 0,
    });
    expect(r.scenarios[0]!.divergences.map((d) => [d.step, d.stepName, d.path])).toEqual([
      [2, 'balance', 'result.balances[0].blocks_to_unlock'],
      [2, 'balance', 'result.balances[1].blocks_to_unlock'],
    ]);
  });

  it('entries by file glob and step number, by name and step name; stale ones reported, others ignored', () => {
    const entries = parseAcceptFile(
      [
        'accept:',
        '  - scenario: scenarios/tok*.yaml', //             relative to the accept file's folder
        '    step: 2',
        '    path: result.balances[*].blocks_to_unlock',
        '    reason: mining overshoots',
        '  - scenario: errors',
        '    step: bad asset',
        '    path: error.message',
        '    reason: reworded in 1.2',
        '  - scenario: errors', //                          matches nothing in a compared scenario: stale
        '    path: result.fee',
        '    reason: old',
        '  - scenario: scenarios/not-run-here.yaml', //     not compared in this run: not stale
        '    path: "**"',
        '    reason: another suite',
        '',
      ].join('\n'),
      FILE,
    );
    const r = compareRuns(A, B, { ...sides, accept: entries });
    expect(r.ok).toBe(true);
    expect(r.summary).toEqual({
      scenarios: 2,
      steps: 3,
      skipped: 0,
      divergences: 0,
      accepted: 3,
      diverged: 0,
      errors: 0,
      stale: 1,
    });
    expect(r.scenarios.map((s) => s.status)).toEqual(['accepted', 'accepted']);
    expect(r.scenarios[1]!.divergences[0]!.accepted).toEqual({
      reason: 'reworded in 1.2',
      pos: { file: FILE, line: 6, col: 5 },
    });
    expect(r.stale.map((e) => [e.path, e.pos.line])).toEqual([['result.fee', 10]]);
  });

  it('a step number that is not the divergence’s does not accept it', () => {
    const entries = parseAcceptFile('accept:\n  - { scenario: tokens, step: 1, path: "result.**", reason: r }\n', FILE);
    const r = compareRuns(A, B, { ...sides, accept: entries });
    expect(r.summary.divergences).toBe(3);
    expect(r.stale).toHaveLength(1);
  });
});

describe('statuses', () => {
  it('a step that passed on one side and failed on the other is one divergence; the steps skipped after it are counted apart', () => {
    const steps = (n: number) => Array.from({ length: n }, (_, i) => step(i + 1, `call ${i + 1}`, { result: {} }));
    const a = [result('/s.yaml', 's', [step(0, 'one', { result: { x: 1 } }), ...steps(27)])];
    const b = [
      result(
        '/s.yaml',
        's',
        [
          {
            ...step(0, 'one', { error: { code: -32601, message: 'Method not found' } }, 'failed'),
            failure: { message: 'the call answered error -32601: "Method not found", but a result was expected\nmore' },
          },
          ...steps(27).map((st) => ({ ...st, status: 'skipped' as const, response: undefined })),
        ],
        'failed',
      ),
    ];
    const r = compareRuns(a, b, sides);
    expect(r.scenarios[0]!.divergences.map((d) => [d.step, d.path, d.kind, d.a, d.b])).toEqual([
      [
        1,
        '(status)',
        'status',
        'passed',
        'failed: the call answered error -32601: "Method not found", but a result was expected',
      ],
    ]);
    expect([r.scenarios[0]!.stepsCompared, r.scenarios[0]!.stepsSkipped]).toEqual([1, 27]);
    expect(r.summary).toMatchObject({ divergences: 1, steps: 1, skipped: 27, diverged: 1 });
    expect(diffSummaryLine(r)).toBe(
      '1 scenario, 1 step compared: 1 divergence in 1 scenario, 27 steps skipped after a failure',
    );
  });

  it('a step with the same status on both sides is compared by its answer', () => {
    const a = [result('/s.yaml', 's', [step(0, 'one', { result: { x: 1 } })])];
    const b = [result('/s.yaml', 's', [step(0, 'one', { result: { x: 2 } })])];
    expect(compareRuns(a, b, sides).scenarios[0]!.divergences.map((d) => [d.path, d.kind])).toEqual([
      ['result.x', 'value'],
    ]);
  });

  it('an infrastructure error on either side: error, steps not compared, the run not ok', () => {
    const b = [
      {
        ...result('/work/proj/scenarios/tokens.yaml', 'tokens', [], 'error'),
        failure: { message: 'setting up the scenario failed: daemon exited with code 3\nlog' },
      },
      B[1]!,
    ];
    const r = compareRuns(A, b, sides);
    expect(r.scenarios[0]).toMatchObject({
      status: 'error',
      stepsCompared: 0,
      divergences: [],
      b: { status: 'error', message: 'setting up the scenario failed: daemon exited with code 3' },
    });
    expect(r.summary.errors).toBe(1);
    expect(r.ok).toBe(false);
  });

  it('skipped on one side only is a scenario-level divergence; on both, nothing to compare', () => {
    const skipped = {
      ...result('/work/proj/scenarios/tokens.yaml', 'tokens', [], 'skipped'),
      failure: { message: 'skipped: monero has no tokens' },
    };
    const one = compareRuns(A.slice(0, 1), [skipped], sides).scenarios[0]!;
    expect(one.divergences).toEqual([
      { path: '(status)', kind: 'status', a: 'passed', b: 'skipped: monero has no tokens' },
    ]);
    expect([one.status, one.stepsCompared]).toEqual(['diverged', 0]);
    const both = compareRuns([skipped], [skipped], sides);
    expect([both.scenarios[0]!.status, both.ok]).toEqual(['skipped', true]);
  });
});
