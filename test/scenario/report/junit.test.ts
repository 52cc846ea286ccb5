import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeXmlAttr, escapeXmlText, toJUnit, xmlSafe } from '../../../harness/scenario/report/junit.js';
import type { ScenarioResult } from '../../../harness/scenario/types.js';
import {
  badFile,
  failing,
  interruptedRun,
  notRun,
  passing,
  processDied,
  setupFailed,
  skippedScenario,
} from './fixtures.js';

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true, // decode numeric character references (&#10;) as any XML parser does
  isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
});

function parse(xml: string): Node {
  const valid = XMLValidator.validate(xml);
  expect(valid).toBe(true);
  return parser.parse(xml) as Node;
}

const suitesOf = (doc: Node): Node[] => (doc.testsuites as Node).testsuite as Node[];
const casesOf = (suite: Node): Node[] => suite.testcase as Node[];

describe('toJUnit', () => {
  const xml = toJUnit([passing, failing, setupFailed, skippedScenario], { suiteName: 'nightly' });
  const doc = parse(xml);
  const root = doc.testsuites as Node;
  const [p, f, s, k] = suitesOf(doc) as [Node, Node, Node, Node];

  it('is well-formed XML with a declaration', () => {
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')).toBe(true);
  });

  it('totals on <testsuites>', () => {
    expect(root['@name']).toBe('nightly');
    // 3 + 3 + (setup + 2 skipped) + 1 skipped scenario
    expect(root['@tests']).toBe('10');
    // the step failure; the funding error of `setupFailed` is an error, not a failure
    expect(root['@failures']).toBe('1');
    expect(root['@skipped']).toBe('4');
    expect(root['@errors']).toBe('1');
    expect(root['@time']).toBe(((3456.789 + 2100 + 800) / 1000).toFixed(3));
  });

  it('one testsuite per scenario, one testcase per step, times in seconds with 3 decimals', () => {
    expect(suitesOf(doc)).toHaveLength(4);
    expect(p['@name']).toBe(passing.name);
    expect(p['@file']).toBe(passing.file);
    expect(p['@tests']).toBe('3');
    expect(p['@failures']).toBe('0');
    expect(p['@time']).toBe('3.457');
    const cs = casesOf(p);
    expect(cs.map((c) => c['@name'])).toEqual(['create_token ABCD', 'mine 1', 'get_tokens']);
    expect(cs.map((c) => c['@classname'])).toEqual([passing.file, passing.file, passing.file]);
    expect(cs.map((c) => c['@time'])).toEqual(['1.250', '2.000', '0.005']);
    for (const c of cs) {
      expect(c.failure).toBeUndefined();
      expect(c['@time']).toMatch(/^\d+\.\d{3}$/);
    }
    expect((p.properties as Node).property).toEqual([
      { '@name': 'backend', '@value': 'sim' },
      { '@name': 'status', '@value': 'passed' },
    ]);
    // the artifact folder, no log tails on success
    expect(p['system-out']).toBe(`artifacts: ${passing.artifactDir}`);
  });

  it('escapes <&"\' in attributes and text', () => {
    expect(f['@name']).toBe('transfer "bob" & <check>');
    expect(f['@file']).toBe(`scenarios/odd <&"'>.yaml`);
    const [, failed, skipped] = casesOf(f) as [Node, Node, Node];
    expect(failed['@name']).toBe("get_balance <bob's> & co");
    expect(failed['@classname']).toBe(`scenarios/odd <&"'>.yaml`);
    expect(skipped.skipped).toBeDefined();
    const failure = failed.failure as Node;
    expect(failure['@type']).toBe('assertion');
    expect(failure['@message']).toBe('expectation failed: "unlocked" < 1.5 SAL1');
    const body = failure['#text'] as string;
    expect(body).toContain('second line');
    expect(body).toContain(`at scenarios/odd <&"'>.yaml:12:7`);
    expect(body).toContain('path: result.balances[0].unlocked_balance');
    expect(body).toContain('expected: { gte: 150000000 }');
    expect(body).toContain('actual: 0\\u0001red'); // control char visible, colour codes gone
    expect(body).toContain('artifacts: /tmp/artifacts/run & <1>');
    expect(f['@failures']).toBe('1');
    expect(f['@skipped']).toBe('1');
  });

  it('system-out holds the artifact folder and the log tails of a failed scenario', () => {
    const out = f['system-out'] as string;
    expect(out).toContain('artifacts: /tmp/artifacts/run & <1>');
    expect(out).toContain('--- daemon: last 2 lines ---\n2025-01-01 00:00:00 I height 1201');
    expect(out).toContain('bell \\u0007 and nul \\u0000 and \\uffff');
    expect(out).toContain('--- wallet-rpc: last 1 line ---\nError: <refused> & "quoted"');
  });

  it('an infrastructure error before any step is an <error type="infrastructure"> on a setup testcase, not a <failure>', () => {
    const cs = casesOf(s);
    expect(cs.map((c) => c['@name'])).toEqual(['setup', 'get_balance', 'mine 1']);
    expect((cs[0] as Node).failure).toBeUndefined();
    const error = (cs[0] as Node).error as Node;
    expect(error['@message']).toBe('funding bob failed: -1 not enough money');
    expect(error['@type']).toBe('infrastructure');
    expect(error['#text']).toContain('artifacts: /tmp/artifacts/setup');
    expect(s['@failures']).toBe('0');
    expect(s['@errors']).toBe('1');
    expect(s['@skipped']).toBe('2');
    expect((cs[0] as Node)['@time']).toBe('0.800');
    expect((s.properties as Node).property).toContainEqual({ '@name': 'status', '@value': 'error' });
    // the log tails are there for errors as for failures
    expect(s['system-out']).toContain('--- daemon: last 1 line ---\nlast line');
  });

  it('a file that does not parse is the scenario\'s <failure type="setup">, not an error', () => {
    const [suite] = suitesOf(parse(toJUnit([badFile]))) as [Node];
    const [c] = casesOf(suite) as [Node];
    expect(c['@name']).toBe('setup');
    expect(c.error).toBeUndefined();
    expect((c.failure as Node)['@type']).toBe('setup');
    expect((c.failure as Node)['@message']).toBe(badFile.failure!.message);
    expect([suite['@failures'], suite['@errors']]).toEqual(['1', '0']);
  });

  it('a process that died under a step: that step has the <error> saying what died, the others pass or skip', () => {
    const doc = parse(toJUnit([processDied, failing]));
    expect([(doc.testsuites as Node)['@failures'], (doc.testsuites as Node)['@errors']]).toEqual(['1', '1']);
    const [died, failed] = suitesOf(doc) as [Node, Node];
    const [ok, broken, skipped] = casesOf(died) as [Node, Node, Node];
    expect(ok.error ?? ok.failure).toBeUndefined();
    expect(broken.failure).toBeUndefined();
    expect((broken.error as Node)['@type']).toBe('infrastructure');
    expect((broken.error as Node)['@message']).toMatch(/^the testnet's daemon died \(killed by SIGKILL\)/);
    expect((broken.error as Node)['#text']).toContain('at scenarios/died.yaml:6:5');
    expect(skipped.skipped).toBeDefined();
    expect([died['@failures'], died['@errors']]).toEqual(['0', '1']);
    // and a step that failed on its own next to it is still a <failure>
    expect([failed['@failures'], failed['@errors']]).toEqual(['1', '0']);
    expect(casesOf(failed).some((c) => c.error !== undefined)).toBe(false);
  });

  it('an interrupted run: the step it stopped has <error type="interrupted">, the steps after it and the scenarios not run are skipped', () => {
    const doc = parse(toJUnit([interruptedRun, notRun]));
    expect([
      (doc.testsuites as Node)['@failures'],
      (doc.testsuites as Node)['@errors'],
      (doc.testsuites as Node)['@skipped'],
    ]).toEqual(['0', '1', '2']);
    const [cut, later] = suitesOf(doc) as [Node, Node];
    const [before, waiting, after] = casesOf(cut) as [Node, Node, Node];
    expect(before.error ?? before.failure ?? before.skipped).toBeUndefined();
    expect(waiting['@name']).toBe('the long wait');
    expect(waiting.failure).toBeUndefined();
    expect(waiting.error).toMatchObject({ '@message': 'interrupted by SIGINT', '@type': 'interrupted' });
    expect(after.skipped).toBeDefined();
    expect((cut.properties as Node).property).toContainEqual({ '@name': 'status', '@value': 'interrupted' });
    expect(((casesOf(later)[0] as Node).skipped as Node)['@message']).toBe('not run: interrupted by SIGINT');
  });

  it('interrupted before its first step: an <error type="interrupted"> on a setup testcase', () => {
    const r: ScenarioResult = {
      ...interruptedRun,
      steps: interruptedRun.steps.map((s) => ({ ...s, status: 'skipped' as const, ms: 0 })),
    };
    const [c, ...rest] = casesOf((suitesOf(parse(toJUnit([r]))) as [Node])[0]) as Node[];
    expect(c!['@name']).toBe('setup');
    expect(c!.error).toMatchObject({ '@message': 'interrupted by SIGINT', '@type': 'interrupted' });
    expect(rest.every((x) => x.skipped !== undefined)).toBe(true);
  });

  it('a skipped scenario without steps is one skipped testcase', () => {
    const cs = casesOf(k);
    expect(cs).toHaveLength(1);
    expect(((cs[0] as Node).skipped as Node)['@message']).toBe('written for backends: monero');
  });

  it('keeps newlines in attributes and never emits a character XML 1.0 forbids', () => {
    const r: ScenarioResult = {
      file: 'a.yaml',
      name: 'ctl \u0000\u0008\u000b\u000c\u001f \ud800 lone',
      status: 'failed',
      ms: 1,
      backend: 'sim',
      steps: [
        {
          index: 0,
          name: 'x\ty',
          action: 'call',
          status: 'failed',
          ms: 1,
          failure: { message: 'm', actual: 'line1\r\nline2\u0003' },
        },
      ],
    };
    const out = toJUnit([r]);
    expect(out).not.toMatch(/[\x00-\x08\x0B\x0C\x0E-\x1F]/);
    const d = parse(out);
    const suite = suitesOf(d)[0] as Node;
    expect(suite['@name']).toBe('ctl \\u0000\\u0008\\u000b\\u000c\\u001f \\ud800 lone');
    expect((casesOf(suite)[0] as Node)['@name']).toBe('x\ty');
    expect(((casesOf(suite)[0] as Node).failure as Node)['#text']).toContain('actual: line1\n        line2\\u0003');
    expect(parse(toJUnit([{ ...r, steps: [] }])).testsuites).toBeDefined();
    expect(escapeXmlText('a\rb')).toBe('a&#13;b');
  });

  it('empty input is an empty <testsuites>', () => {
    const d = parse(toJUnit([]));
    expect(d.testsuites).toMatchObject({ '@name': 'saltnet', '@tests': '0', '@failures': '0', '@time': '0.000' });
  });

  it('escape helpers', () => {
    expect(escapeXmlText(`<a & b>`)).toBe('&lt;a &amp; b&gt;');
    expect(escapeXmlAttr(`"it's"\n`)).toBe('&quot;it&apos;s&quot;&#10;');
    expect(xmlSafe('ok \u{1F600} \u0000')).toBe('ok \u{1F600} \\u0000');
  });
});
