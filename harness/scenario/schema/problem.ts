// A problem found in a scenario document, located by path; and how a check that reads the document raw
// (bounds.ts, fund-limits.ts, limit-checks.ts) makes one.
import type { PathAnchor } from '../../common/locator.js';
import type { PathSegment } from '../../common/path.js';

/** A problem found in a parsed document, located by path. */
export interface SchemaProblem {
  path: PathSegment[];
  /** Point at the key at `path`, its value, or (missing keys) the object that should hold it. */
  at: PathAnchor;
  message: string;
  expected?: string;
}

export type Obj = Record<string, unknown>;
export const problem = (
  path: PathSegment[],
  message: string,
  expected: string,
  at: SchemaProblem['at'] = 'value',
): SchemaProblem => ({ path, at, message, expected });
