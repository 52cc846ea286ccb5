// The bodies of control requests, checked strictly: each request is a JSON object of known fields,
// each of one type (a number is a JSON number, not a string of digits), and anything else is refused
// with an HTTP 400 whose message names the field, what it takes and what it got (long values cut
// short). Errors that carry their HTTP status live here too.
import type { z } from 'zod';
import { clip } from '../common/describe.js';
import { suggest } from '../common/suggest.js';

/** An error the control endpoint answers with this HTTP status (anything else is a 500). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A request that asks for something it cannot: a bad field, an unknown node. Answered 400, nothing done. */
export class RequestError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}

/** What `v` is, for a message: `the string "5"`, `the number 1.5`, `a list`, `an object`. */
export function shown(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return `the string ${clip(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean') return `${typeof v === 'number' ? 'the number ' : ''}${v}`;
  if (Array.isArray(v)) return 'a list';
  return 'an object';
}

/**
 * `body` checked against `schema` (a z.strictObject whose every field has a description: what it takes), or a
 * RequestError for its first problem: `blocks must be a whole number from 1 to 100000, got the string "5"`.
 */
export function parseBody<S extends z.ZodObject>(schema: S, body: unknown): z.infer<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new RequestError(`the request body must be a JSON object, got ${shown(body)}`);
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const fields = Object.keys(schema.shape);
  const issue = r.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0]!;
    const near = suggest(key, fields);
    throw new RequestError(
      `unknown field ${clip(key)}${near ? ` (did you mean ${near}?)` : ''}; this request takes ${fields.length ? fields.join(', ') : 'no fields'}`,
    );
  }
  const field = String(issue.path[0] ?? '');
  const expected = (schema.shape as Record<string, z.ZodType | undefined>)[field]?.description ?? issue.message;
  throw new RequestError(`${field} must be ${expected}, got ${shown((body as Record<string, unknown>)[field])}`);
}
