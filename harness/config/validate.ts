// Validation of a parsed config (from any file format) against the key table, position-free: each
// problem carries a path and says whether it is about the key or the value; load.ts turns paths
// into line and column where the format has them.
import { isPlainObject } from '../common/plain-object.js';
import type { z } from 'zod';
import type { PathSegment } from '../common/path.js';
import { describeValue } from '../common/describe.js';
import { suggest } from '../common/suggest.js';
import {
  KEYS,
  KEY_SPECS,
  RUN_EXPECTED,
  configFileSchema,
  type ConfigKey,
  type KeySpec,
  type SaltnetConfig,
} from './schema.js';

export interface ConfigIssue {
  path: PathSegment[];
  at: 'key' | 'value';
  message: string;
  expected?: string;
}

const TOP_KEYS = [...KEYS.filter((k) => !k.key.includes('.')).map((k) => k.key as string), 'run'];
const RUN_KEYS = KEYS.filter((k) => k.key.startsWith('run.')).map((k) => k.key.slice(4));

/** The key table entry a path points into (`['run', 'files', 2]` → run.files). */
export function specAt(path: readonly PathSegment[]): KeySpec | undefined {
  const [a, b] = path;
  if (a === 'run' && typeof b === 'string') return KEY_SPECS.get(`run.${b}` as ConfigKey);
  return typeof a === 'string' ? KEY_SPECS.get(a as ConfigKey) : undefined;
}

function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let v = data;
  for (const seg of path)
    v = isPlainObject(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

function unknownKey(parent: readonly PathSegment[], key: string): ConfigIssue {
  const inRun = parent.length === 1 && parent[0] === 'run';
  const here = inRun ? RUN_KEYS : TOP_KEYS;
  let hint = '';
  const close = suggest(key, here);
  if (close) hint = ` (did you mean "${close}"?)`;
  else if (!inRun && RUN_KEYS.includes(key)) hint = ` (${key} belongs under run:)`;
  else if (inRun && TOP_KEYS.includes(key)) hint = ` (${key} is a top-level key, not under run:)`;
  else if (!inRun && suggest(key, RUN_KEYS)) hint = ` (did you mean run.${suggest(key, RUN_KEYS)!}?)`;
  return {
    path: [...parent, key],
    at: 'key',
    message: `unknown key "${key}"${hint}`,
    expected: `one of ${here.join(', ')}`,
  };
}

function issueFor(i: z.core.$ZodIssue, data: unknown): ConfigIssue[] {
  const path = i.path.filter((s): s is PathSegment => typeof s !== 'symbol');
  if (i.code === 'unrecognized_keys') return i.keys.map((k) => unknownKey(path, k));
  const actual = valueAt(data, path);
  if (path.length === 1 && path[0] === 'run')
    return [{ path, at: 'value', message: `expected a mapping, got ${describeValue(actual)}`, expected: RUN_EXPECTED }];
  const spec = specAt(path);
  const expected = spec?.choices ? `one of ${spec.choices().join(', ')}` : (spec?.expected ?? i.message);
  let hint = '';
  const options = spec?.choices?.() ?? (i.code === 'invalid_value' ? i.values.map(String) : undefined);
  if (options && typeof actual === 'string') {
    const close = suggest(actual, [...options]);
    if (close) hint = ` (did you mean "${close}"?)`;
  }
  if (spec?.key === 'unlocked' && typeof actual === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(actual)) {
    hint = ` (a number of coins is written without quotes, e.g. unlocked: ${actual.trim()}; or give the unit: "${actual.trim()} SAL1")`;
  }
  return [{ path, at: 'value', message: `expected ${expected}, got ${describeValue(actual)}${hint}`, expected }];
}

/** Validate parsed file contents; `value` (normalized: `run.files` always a list) only when there is no problem. */
export function validateConfig(data: unknown): { value?: SaltnetConfig; problems: ConfigIssue[] } {
  if (data === null || data === undefined) return { value: {}, problems: [] }; // an empty file: nothing set
  if (!isPlainObject(data)) {
    return {
      problems: [
        {
          path: [],
          at: 'value',
          message: `a config file is a mapping of keys (e.g. backend: sim), this is ${describeValue(data)}`,
          expected: 'a mapping',
        },
      ],
    };
  }
  const r = configFileSchema.safeParse(data);
  if (r.success) return { value: r.data as SaltnetConfig, problems: [] };
  const seen = new Set<string>();
  const problems = r.error.issues
    .flatMap((i) => issueFor(i, data))
    .filter((p) => {
      const id = `${p.at}:${JSON.stringify(p.path)}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  return { problems };
}

/** Validate one value given outside a file (an environment variable or a flag) against its key's schema. */
export function validateValue(spec: KeySpec, value: unknown): { value?: unknown; problem?: string } {
  const r = spec.schema.safeParse(value);
  if (r.success) return { value: r.data };
  let hint = '';
  const issue = r.error.issues[0];
  const options = spec.choices?.() ?? (issue?.code === 'invalid_value' ? issue.values.map(String) : undefined);
  if (typeof value === 'string' && options) {
    const close = suggest(value, [...options]);
    if (close) hint = ` (did you mean "${close}"?)`;
  }
  const expected = spec.choices ? `one of ${spec.choices().join(', ')}` : spec.expected;
  return { problem: `expected ${expected}, got ${describeValue(value)}${hint}` };
}
