// What a divergence between two answers is, and how a value is shown in one.

/**
 * What differs at a path:
 * - `answer`: one side answered a result, the other an error (compared no further);
 * - `only-in-a` / `only-in-b`: a key (or a whole answer) one side has and the other lacks;
 * - `type`: different JSON types (string, number, boolean, null, list, object);
 * - `length`: lists of different lengths (their common elements are compared too);
 * - `value`: a deterministic value differs;
 * - `format`: a random value (hash, timestamp, address…) has a different form;
 * - `status`: a step (or the scenario) passed on one side and not on the other.
 */
export type DivergenceKind = 'answer' | 'only-in-a' | 'only-in-b' | 'type' | 'length' | 'value' | 'format' | 'status';

export interface ValueDivergence {
  /** From the answer's root: `result.balances[0].balance`, `error.message`; `(answer)` for the whole answer. */
  path: string;
  kind: DivergenceKind;
  /** A's and B's values as JSON text (`(absent)` where a side has none). */
  a: string;
  b: string;
  /** For `format`, `type` and `length`: what each side's value is, e.g. `lowercase hex, 64 chars ≠ text`. */
  detail?: string;
  /** The rule that made a value compare by form (rules.ts), for `format`. */
  rule?: string;
}

export const ABSENT = '(absent)';

const BIG = '\u2063saltnet-bigint:';
const BIG_TEXT = /"\u2063saltnet-bigint:(-?\d+)"/g;

/** A value as JSON text; bigints as plain digits. */
export function show(v: unknown): string {
  if (v === undefined) return ABSENT;
  const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${BIG}${x}` : x)) as string | undefined;
  return text === undefined ? String(v) : text.replace(BIG_TEXT, '$1');
}
