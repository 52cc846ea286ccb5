// A problem of a scenario document found by a check that reads it raw (bounds.ts, fund-limits.ts, mined-limits.ts).
import type { PathSegment } from '../../common/path.js';
import type { SchemaProblem } from '../schema.js';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);
export const problem = (
  path: PathSegment[],
  message: string,
  expected: string,
  at: SchemaProblem['at'] = 'value',
): SchemaProblem => ({ path, at, message, expected });
