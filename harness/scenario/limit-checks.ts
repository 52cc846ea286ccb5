// The blocks a scenario's steps mine in all, bounded; and every bound across the document that no
// single field's schema can check. How many blocks a step mines is its step kind's own (`blocks`).
import type { PathSegment } from '../common/path.js';
import { isPlainObject } from '../common/plain-object.js';
import { MAX_BLOCKS_MINED, MAX_BLOCKS_PER_STEP } from './bounds.js';
import { fundProblems } from './fund-limits.js';
import { problem, type Obj, type SchemaProblem } from './schema/problem.js';
import { stepKind } from './steps/registry.js';

/** The most blocks a step can mine (its kind's `blocks`), with where the count is written. */
function blocksOf(step: Obj): { blocks: number; path: PathSegment[] } | undefined {
  for (const [key, value] of Object.entries(step)) {
    const b = stepKind(key)?.blocks?.(value);
    if (b) return { blocks: b.blocks, path: [key, ...b.path] };
  }
  return undefined;
}

function minedProblems(doc: Obj): SchemaProblem[] {
  if (!Array.isArray(doc.steps)) return [];
  let total = 0;
  for (let i = 0; i < doc.steps.length; i++) {
    const st: unknown = doc.steps[i];
    const b = isPlainObject(st) ? blocksOf(st) : undefined;
    if (!b || !Number.isFinite(b.blocks) || b.blocks <= 0) continue;
    total += Math.min(b.blocks, MAX_BLOCKS_PER_STEP);
    if (total > MAX_BLOCKS_MINED) {
      return [
        problem(
          ['steps', i, ...b.path],
          `the steps up to this one mine up to ${total} blocks; a scenario mines at most ${MAX_BLOCKS_MINED} in all (a wait with mine: true and no blocks counts ${MAX_BLOCKS_PER_STEP})`,
          `at most ${MAX_BLOCKS_MINED} blocks mined by the steps in all`,
        ),
      ];
    }
  }
  return [];
}

/** Bounds across the document that no single field's schema can check: funds, and blocks mined in all. */
export function limitProblems(doc: Obj): SchemaProblem[] {
  return [...fundProblems(doc), ...minedProblems(doc)];
}
