// The reports of a suite's shards joined into one: the same document an unsharded run writes, and a clear error
// naming the file for a report that is not ours or two shards that ran the same scenario.
import { describe, expect, it } from 'vitest';
import { toJson } from '../../../harness/scenario/report/json.js';
import { toJUnit } from '../../../harness/scenario/report/junit.js';
import { mergeJUnitReports, mergeJsonReports, mergeReports } from '../../../harness/scenario/report/merge.js';
import type { ScenarioResult } from '../../../harness/scenario/types.js';
import { failing, interruptedRun, passing, processDied, setupFailed, skippedScenario } from './fixtures.js';

const all: ScenarioResult[] = [failing, interruptedRun, passing, processDied, setupFailed, skippedScenario];
const sorted = [...all].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
// Three shards as `--shard k/3` splits a suite, and one with no scenario at all (more shards than files).
const shards = [[all[0]!, all[3]!], [all[1]!, all[4]!], [all[2]!, all[5]!], []];

describe('report merge: JSON', () => {
  it('the merged report is the one an unsharded run writes: every scenario once, in file order, totals summed', () => {
    const merged = mergeJsonReports(shards.map((s, k) => ({ path: `s${k}.json`, text: toJson(s) })));
    expect(merged).toBe(toJson(sorted));
    const doc = JSON.parse(merged);
    expect(doc.summary.total).toBe(all.length);
    expect(doc.results.map((r: ScenarioResult) => r.file)).toEqual(sorted.map((r) => r.file));
  });

  it('refuses two shards that ran the same scenario, naming both files', () => {
    const reports = [
      { path: 'a.json', text: toJson([passing, failing]) },
      { path: 'b.json', text: toJson([setupFailed, passing]) },
    ];
    expect(() => mergeJsonReports(reports)).toThrow(
      `b.json and a.json both ran the scenario ${JSON.stringify(passing.name)} (${passing.file}): the shards overlap`,
    );
  });

  it.each([
    ['{ "version": 1, "results": [', /^bad\.json: not valid JSON \(/],
    ['{ "version": 2, "results": [] }', /^bad\.json: not a saltnet JSON report/],
    ['[1, 2]', /^bad\.json: not a saltnet report \(neither JSON nor JUnit XML\)/],
    [
      '{ "version": 1, "results": [{ "file": "x.yaml", "name": "x", "status": "won", "ms": 1, "steps": [] }] }',
      /^bad\.json: results\[0\] has the status "won"/,
    ],
    ['{ "version": 1, "results": [{ "name": "x" }] }', /^bad\.json: results\[0\] has no file/],
  ])('names the file of a report that is not ours or is malformed: %s', (text, message) => {
    const reports = [
      { path: 'good.json', text: toJson([passing]) },
      { path: 'bad.json', text },
    ];
    expect(() => mergeReports(reports, 'json')).toThrow(message);
  });

  it('names a report in the other format', () => {
    const reports = [
      { path: 'a.json', text: toJson([passing]) },
      { path: 'b.xml', text: toJUnit([failing]) },
    ];
    expect(() => mergeReports(reports, 'json')).toThrow(
      'b.xml is a JUnit report; every report merged must be json (--reporter',
    );
  });
});

describe('report merge: JUnit', () => {
  it('the merged report is the one an unsharded run writes: every testsuite once, in file order, totals summed', () => {
    const merged = mergeJUnitReports(shards.map((s, k) => ({ path: `s${k}.xml`, text: toJUnit(s) })));
    expect(merged).toBe(toJUnit(sorted));
    expect(merged.match(/<testsuite /g)).toHaveLength(all.length);
  });

  it('refuses two shards that ran the same scenario, naming both files', () => {
    const reports = [
      { path: 'a.xml', text: toJUnit([failing]) },
      { path: 'b.xml', text: toJUnit([passing, failing]) },
    ];
    expect(() => mergeJUnitReports(reports)).toThrow(
      `b.xml and a.xml both ran the scenario ${JSON.stringify(failing.name)} (${failing.file}): the shards overlap`,
    );
  });

  it.each([
    ['<?xml version="1.0"?>\n<testsuites/>\n', /^bad\.xml: not a saltnet JUnit report \(it does not begin with/],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x">\n  <testsuite name="a">\n', /no <testsuites>/],
    [
      '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x">\n  <testcase name="a"/>\n</testsuites>\n',
      /^bad\.xml: not a saltnet JUnit report \(unexpected content in <testsuites>: "<testcase name=\\"a\\"\/>"\)/,
    ],
    [
      toJUnit([passing]).replace(/( {2}<testsuite [^>]*) tests="3"/, '$1 tests="three"'),
      /^bad\.xml: <testsuite name="token listed one block after creation">: tests="three" is not a count/,
    ],
  ])('names the file of a report that is not ours or is malformed: %#', (text, message) => {
    const reports = [
      { path: 'good.xml', text: toJUnit([failing]) },
      { path: 'bad.xml', text },
    ];
    expect(() => mergeReports(reports, 'junit')).toThrow(message);
  });
});

/** A JUnit report as vitest's junit reporter writes it (vitest 4): one `<testsuite>` per test file, four spaces in. */
function vitestJUnit(files: Array<{ file: string; tests: string[]; failed?: string; skipped?: string }>): string {
  const suites = files.map(({ file, tests, failed, skipped }) => {
    const cases = tests.map((t) => {
      const inner =
        t === failed
          ? `            <failure message="expected 1 to be 2" type="AssertionError">\nAssertionError: expected 1 to be 2\n ❯ ${file}:3:7\n            </failure>\n`
          : t === skipped
            ? '            <skipped/>\n'
            : '';
      return `        <testcase classname="${file}" name="${t}" time="0.25">\n${inner}        </testcase>\n`;
    });
    const counts = `tests="${tests.length}" failures="${failed ? 1 : 0}" errors="0" skipped="${skipped ? 1 : 0}"`;
    return (
      `    <testsuite name="${file}" timestamp="2026-01-01T00:00:00.000Z" hostname="ci" ${counts} time="${tests.length * 0.25}">\n` +
      `${cases.join('')}    </testsuite>\n`
    );
  });
  const total = files.reduce((n, f) => n + f.tests.length, 0);
  const failures = files.filter((f) => f.failed).length;
  return (
    '<?xml version="1.0" encoding="UTF-8" ?>\n' +
    `<testsuites name="vitest tests" tests="${total}" failures="${failures}" errors="0" time="${total * 0.25}">\n` +
    `${suites.join('')}</testsuites>\n`
  );
}

describe("report merge: vitest's JUnit", () => {
  const shard1 = vitestJUnit([{ file: 'wallet.spec.ts', tests: ['pays', 'fails'], failed: 'fails' }]);
  const shard2 = vitestJUnit([
    { file: 'a.spec.ts', tests: ['one', 'later'], skipped: 'later' },
    { file: 'z/deep.spec.ts', tests: ['deep'] },
  ]);

  it('joins the shards of a vitest suite: every test file once, in file order, the totals summed', () => {
    const merged = mergeReports(
      [
        { path: 'junit-1.xml', text: shard1 },
        { path: 'junit-2.xml', text: shard2 },
      ],
      'junit',
    );
    expect(merged.split('\n', 2)[1]).toBe(
      '<testsuites name="vitest tests" tests="5" failures="1" errors="0" skipped="1" time="1.250">',
    );
    expect([...merged.matchAll(/^ {4}<testsuite name="([^"]+)"/gm)].map((m) => m[1])).toEqual([
      'a.spec.ts',
      'wallet.spec.ts',
      'z/deep.spec.ts',
    ]);
    // Each file's element as vitest wrote it, its failure text included.
    expect(merged).toContain(shard1.split('\n').slice(2, -2).join('\n'));
  });

  it("joins saltnet's scenarios and vitest's test files into one report", () => {
    const merged = mergeJUnitReports([
      { path: 'scenarios.xml', text: toJUnit([passing, failing]) },
      { path: 'vitest.xml', text: shard1 },
    ]);
    expect(merged.match(/<testsuite /g)).toHaveLength(3);
    const root = merged.split('\n', 2)[1]!;
    const tests = (t: string): number => Number(/ tests="(\d+)"/.exec(t)![1]);
    expect(tests(root)).toBe(tests(toJUnit([passing, failing]).split('\n', 2)[1]!) + 2);
  });

  it('refuses two vitest shards that ran the same test file, naming both reports', () => {
    expect(() =>
      mergeJUnitReports([
        { path: 'junit-1.xml', text: shard1 },
        { path: 'junit-3.xml', text: shard1 },
      ]),
    ).toThrow('junit-3.xml and junit-1.xml both ran the test file wallet.spec.ts: the shards overlap');
  });

  it('refuses a report in neither layout: a vitest root with suites two spaces in', () => {
    const text = shard1.replace(/^ {4}(<\/?testsuite)/gm, '  $1');
    expect(() => mergeJUnitReports([{ path: 'odd.xml', text }])).toThrow(
      /^odd\.xml: not a saltnet JUnit report \(a <testsuite> 2 spaces in\)/,
    );
  });
});
