// The bodies of control requests, checked strictly: each request is a JSON object of known fields,
// each of one type (a number is a JSON number, not a string of digits), and anything else is refused
// with an HTTP 400 whose message names the field, what it takes and what it got (long values cut
// short). Errors that carry their HTTP status live here too.
import type { z } from 'zod';
import { checkFields } from '../common/fields.js';

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

/**
 * `body` checked against `schema` (a z.strictObject whose every field has a description: what it takes), or a
 * RequestError for its first problem: `blocks must be a whole number from 1 to 100000, got the string "5"`.
 */
export function parseBody<S extends z.ZodObject>(schema: S, body: unknown): z.infer<S> {
  const r = checkFields(schema, body, { whole: 'the request body', taker: 'this request' });
  if ('problem' in r) throw new RequestError(r.problem);
  return r.data;
}
