// An object of known fields checked against a zod strict object whose every field describes what it takes: the first
// problem said in words that name the field, what it takes and what it got (long values cut short), or a near field
// name for one it does not know. The control endpoint's request bodies and the library's options are checked so.
import type { z } from 'zod';
import { clip } from './describe.js';
import { suggest } from './suggest.js';

/** What `v` is, for a message: `the string "5"`, `the number 1.5`, `a list`, `an object`. */
export function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return `the string ${clip(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v === 'number' ? 'the number ' : ''}${v}`;
  if (Array.isArray(v)) return 'a list';
  return 'an object';
}

/** How a problem names what was checked: `the request body` must be a JSON object; `this request` takes blocks, …. */
export interface FieldsNames {
  whole: string;
  taker: string;
}

/**
 * `value` checked against `schema`: its data, or its first problem (`blocks must be a whole number from 1 to 100000,
 * got the string "5"`).
 */
export function checkFields<S extends z.ZodObject>(
  schema: S,
  value: unknown,
  names: FieldsNames,
): { data: z.infer<S> } | { problem: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: `${names.whole} must be a JSON object, got ${shown(value)}` };
  const r = schema.safeParse(value);
  if (r.success) return { data: r.data };
  const fields = Object.keys(schema.shape);
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const near = suggest(key, fields);
    return {
      problem: `unknown field ${clip(key)}${near ? ` (did you mean ${near}?)` : ''}; ${names.taker} takes ${fields.length ? fields.join(', ') : 'no fields'}`,
    };
  }
  const field = String(issue.path[0] ?? '');
  const expected = (schema.shape as Record<string, z.ZodType | undefined>)[field]?.description ?? issue.message;
  return { problem: `${field} must be ${expected}, got ${shown((value as Record<string, unknown>)[field])}` };
}
