import { describe, expect, it } from 'vitest';
import {
  parseJsonReport,
  safeStringify,
  summarizeResults,
  toJson,
  toPlain,
} from '../../../harness/scenario/report/json.js';
import type { ScenarioResult } from '../../../harness/scenario/types.js';
import { failing, interruptedRun, notRun, passing, setupFailed, skippedScenario } from './fixtures.js';

const all = [passing, failing, setupFailed, skippedScenario];

/** What a result looks like after JSON: bigints as decimal strings, undefined dropped. */
const expectedAfterJson = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)));

describe('toJson', () => {
  it('round trips: every result comes back, bigints as strings', () => {
    const text = toJson(all);
    const doc = parseJsonReport(text);
    expect(doc.version).toBe(1);
    expect(doc.summary).toEqual({
      passed: 1,
      failed: 1,
      errors: 1,
      interrupted: 0,
      skipped: 1,
      total: 4,
      ms: 3456.789 + 2100 + 800,
    });
    expect(doc.results.map((r) => r.status)).toEqual(['passed', 'failed', 'error', 'skipped']);
    expect(doc.results).toEqual(expectedAfterJson(all));
    const fee = (doc.results[0]?.steps[0]?.response as { result: { fee_list: unknown[] } }).result.fee_list[0];
    expect(fee).toBe('123456789012345678901');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('is stable: same results, same text; fields in the model order whatever the construction order', () => {
    const shuffled: ScenarioResult = {
      steps: passing.steps.map((s) => ({
        response: s.response,
        ms: s.ms,
        status: s.status,
        action: s.action,
        name: s.name,
        index: s.index,
        request: s.request,
      })),
      artifactDir: passing.artifactDir,
      backend: passing.backend,
      ms: passing.ms,
      status: passing.status,
      name: passing.name,
      file: passing.file,
    };
    expect(toJson([shuffled])).toBe(toJson([passing]));
    expect(toJson(all)).toBe(toJson(all));
    expect(Object.keys(JSON.parse(toJson([passing])).results[0])).toEqual([
      'file',
      'name',
      'status',
      'backend',
      'ms',
      'artifactDir',
      'steps',
    ]);
  });

  it('survives functions, cycles, symbols, undefined, Maps, bytes and non-finite numbers', () => {
    const response: Record<string, unknown> = {
      f: () => 1,
      s: Symbol('x'),
      u: undefined,
      n: NaN,
      inf: -Infinity,
      m: new Map([['k', 1n]]),
      set: new Set([1]),
      b: Buffer.from([1, 255]),
      arr: [undefined, () => 0],
    };
    response.self = response;
    const shared = { x: 1 };
    const r: ScenarioResult = {
      ...passing,
      steps: [
        { index: 0, name: 'x', action: 'call', status: 'passed', ms: 1, request: { a: shared, b: shared }, response },
      ],
    };
    const doc = parseJsonReport(toJson([r]));
    expect(doc.results[0]?.steps[0]?.response).toEqual({
      n: 'NaN',
      inf: '-Infinity',
      m: { k: '1' },
      set: [1],
      b: '01ff',
      arr: [null, null],
      self: '[Circular]',
    });
    // a shared (non-cyclic) reference is not a cycle
    expect(doc.results[0]?.steps[0]?.request).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it('toPlain keeps bigints on request and maps strings', () => {
    expect(toPlain({ a: 1n, b: ['pw'] }, { bigint: 'keep', mapString: (s) => s.replace('pw', '***') })).toEqual({
      a: 1n,
      b: ['***'],
    });
    expect(safeStringify(undefined)).toBe('null');
    expect(safeStringify(new Error('boom'))).toBe('{"name":"Error","message":"boom"}');
  });

  it('summarizeResults counts scenarios', () => {
    const none = { passed: 0, failed: 0, errors: 0, interrupted: 0, skipped: 0, total: 0, ms: 0 };
    expect(summarizeResults([])).toEqual(none);
    expect(summarizeResults([interruptedRun, notRun, passing])).toMatchObject({
      passed: 1,
      interrupted: 1,
      skipped: 1,
      total: 3,
    });
    // an error is neither a failure nor a skip
    expect(summarizeResults([setupFailed, setupFailed, failing])).toMatchObject({
      failed: 1,
      errors: 2,
      skipped: 0,
      total: 3,
    });
  });

  it('parseJsonReport rejects something else', () => {
    expect(() => parseJsonReport('[]')).toThrow(/not a saltnet JSON report/);
  });
});
