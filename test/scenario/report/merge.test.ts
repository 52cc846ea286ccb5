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
