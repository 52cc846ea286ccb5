// Machine-readable results: one JSON document for a whole run, plus the value-to-JSON conversion
// the artifact folder shares (bigints as strings, no functions, no cycles, fixed field order).
import type { ScenarioResult, SourcePos, StepFailure, StepResult } from '../types.js';

export type PlainJson = null | boolean | number | string | PlainJson[] | { [key: string]: PlainJson };

export interface ToPlainOptions {
  /** How bigints come out: as decimal strings (default, for JSON) or kept as bigints (for YAML). */
  bigint?: 'string' | 'keep';
  /** Applied to every string value, e.g. a redactor. */
  mapString?: (s: string) => string;
  /** Applied to every object key (default: none; a redactor replaces a key only when it is a secret whole). */
  mapKey?: (k: string) => string;
}

const CIRCULAR = '[Circular]';

/**
 * `value` as plain JSON data: bigints become decimal strings (or stay bigints with `bigint: 'keep'`),
 * non-finite numbers their names (`"NaN"`, `"Infinity"`), Dates ISO strings, bytes lowercase hex,
 * Maps objects, Sets arrays, Errors `{ name, message }`; functions, symbols and `undefined` are
 * left out (as `null` inside arrays); a reference back to an enclosing object becomes
 * `"[Circular]"`. Object keys keep their insertion order. Returns `undefined` for a value that
 * has no JSON form at the top level (a function, a symbol, `undefined`).
 */
export function toPlain(value: unknown, opts: ToPlainOptions = {}): PlainJson | bigint | undefined {
  const keepBig = opts.bigint === 'keep';
  const str = opts.mapString ?? ((s: string) => s);
  const key = opts.mapKey ?? ((k: string) => k);
  const stack = new Set<object>();

  const walk = (v: unknown): PlainJson | bigint | undefined => {
    switch (typeof v) {
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
      case 'string':
        return str(v);
      case 'boolean':
        return v;
      case 'number':
        return Number.isFinite(v) ? v : String(v);
      case 'bigint':
        return keepBig ? v : v.toString();
    }
    if (v === null) return null;
    const o = v as object;
    if (stack.has(o)) return CIRCULAR;
    stack.add(o);
    try {
      if (o instanceof Date) return Number.isNaN(o.getTime()) ? 'Invalid Date' : o.toISOString();
      if (o instanceof Uint8Array) return Buffer.from(o.buffer, o.byteOffset, o.byteLength).toString('hex');
      if (Array.isArray(o)) return o.map((x) => walk(x) ?? null) as PlainJson[];
      if (o instanceof Set) return [...o].map((x) => walk(x) ?? null) as PlainJson[];
      if (o instanceof Map) {
        const out: Record<string, PlainJson> = {};
        for (const [k, x] of o) {
          const w = walk(x);
          if (w !== undefined) out[key(String(k))] = w as PlainJson;
        }
        return out;
      }
      if (o instanceof Error) {
        const out: Record<string, PlainJson> = { name: str(o.name), message: str(o.message) };
        const code = (o as { code?: unknown }).code;
        if (typeof code === 'string' || typeof code === 'number')
          out.code = typeof code === 'string' ? str(code) : code;
        return out;
      }
      const toJSON = (o as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return walk(toJSON.call(o));
      const out: Record<string, PlainJson> = {};
      for (const k of Object.keys(o)) {
        const w = walk((o as Record<string, unknown>)[k]);
        if (w !== undefined) out[key(k)] = w as PlainJson;
      }
      return out;
    } finally {
      stack.delete(o);
    }
  };
  return walk(value);
}

/** JSON text of any value with bigints as strings (see `toPlain`); `null` for a value with no JSON form. */
export function safeStringify(
  value: unknown,
  opts: { indent?: number } & Pick<ToPlainOptions, 'mapString' | 'mapKey'> = {},
): string {
  const plain = toPlain(value, {
    bigint: 'string',
    ...(opts.mapString ? { mapString: opts.mapString } : {}),
    ...(opts.mapKey ? { mapKey: opts.mapKey } : {}),
  });
  return JSON.stringify(plain ?? null, null, opts.indent);
}

// ---- a fixed field order for the result types, so that two runs diff cleanly ----

function ordered<T extends object>(
  obj: T,
  keys: readonly (keyof T & string)[],
  inner: Partial<Record<keyof T & string, (v: never) => unknown>> = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const rec = obj as Record<string, unknown>;
  for (const k of keys) {
    if (rec[k] === undefined) continue;
    const f = inner[k] as ((v: unknown) => unknown) | undefined;
    out[k] = f ? f(rec[k]) : rec[k];
  }
  // Fields the model does not (yet) name still come out, after the known ones.
  for (const k of Object.keys(rec)) if (!(k in out) && !keys.includes(k as keyof T & string)) out[k] = rec[k];
  return out;
}

const posOrder = (p: SourcePos): Record<string, unknown> => ordered(p, ['file', 'line', 'col']);
const failureOrder = (f: StepFailure): Record<string, unknown> =>
  ordered(f, ['message', 'path', 'expected', 'actual', 'pos'], { pos: posOrder });
const stepOrder = (s: StepResult): Record<string, unknown> =>
  ordered(s, ['index', 'name', 'action', 'status', 'ms', 'failure', 'request', 'response'], { failure: failureOrder });

/** A result with its fields in the model's order (unknown fields after); values untouched. */
export function orderResult(r: ScenarioResult): Record<string, unknown> {
  return ordered(r, ['file', 'name', 'status', 'backend', 'ms', 'artifactDir', 'failure', 'steps', 'logTails'], {
    failure: failureOrder,
    steps: (steps: StepResult[]) => (Array.isArray(steps) ? steps.map(stepOrder) : steps),
  });
}

export interface RunSummary {
  passed: number;
  /** Scenarios that failed on their own (a step, their file). */
  failed: number;
  /** Scenarios the infrastructure let down (status `error`). */
  errors: number;
  /** Scenarios that were running when the run was stopped (Ctrl-C, SIGTERM). */
  interrupted: number;
  skipped: number;
  total: number;
  /** Sum of the scenarios' times. */
  ms: number;
}

export function summarizeResults(results: readonly ScenarioResult[]): RunSummary {
  const s: RunSummary = { passed: 0, failed: 0, errors: 0, interrupted: 0, skipped: 0, total: results.length, ms: 0 };
  for (const r of results) {
    if (r.status === 'passed') s.passed++;
    else if (r.status === 'failed') s.failed++;
    else if (r.status === 'error') s.errors++;
    else if (r.status === 'interrupted') s.interrupted++;
    else s.skipped++;
    s.ms += Number.isFinite(r.ms) ? r.ms : 0;
  }
  return s;
}

/**
 * The JSON report's shape: each result's `status` is passed, failed, error (infrastructure), interrupted (the run was
 * stopped) or skipped. Bigints inside requests and responses arrive as decimal strings.
 */
export interface JsonReport {
  version: 1;
  summary: RunSummary;
  results: ScenarioResult[];
}

/**
 * The whole run as one JSON document (`JsonReport`), two-space indented, ending in a newline.
 * Stable: the same results always give the same text; result, step and failure fields come in
 * the model's order; requests, responses and other free-form values keep their own key order;
 * bigints are decimal strings; functions and `undefined` are left out; cycles become "[Circular]".
 */
export function toJson(results: readonly ScenarioResult[]): string {
  const report = { version: 1, summary: summarizeResults(results), results: results.map(orderResult) };
  return `${safeStringify(report, { indent: 2 })}\n`;
}

/** Reads a `toJson` document back. */
export function parseJsonReport(text: string): JsonReport {
  const doc = JSON.parse(text) as Partial<JsonReport> | null;
  if (!doc || typeof doc !== 'object' || doc.version !== 1 || !Array.isArray(doc.results)) {
    throw new Error('not a saltnet JSON report (expected { version: 1, summary, results: [...] })');
  }
  return doc as JsonReport;
}
