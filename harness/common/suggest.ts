// Did-you-mean for the names a scenario (or a config or accept file) gets wrong: the closest known
// name by edit distance, when it is close enough to be a typo.
import leven from 'leven';

/**
 * The optimal-string-alignment distance (Levenshtein with transpositions of two adjacent letters, no letter edited
 * twice) when it is at most `max`; a number above `max` otherwise. leven has no transpositions, so it measures the
 * stretches without one: an alignment either has none (leven's distance), or is a stretch without one, its first
 * transposition, and an alignment of the rest. A transposition is tried only where the two strings allow it and
 * within `max`, so a typo costs a few calls of leven.
 */
function distance(a: string, b: string, max: number): number {
  let best = leven(a, b, { maxDistance: max + 1 });
  if (best <= 1 || max < 1) return best;
  for (let i = 0; i + 1 < a.length; i++) {
    if (a[i] === a[i + 1]) continue;
    for (let j = Math.max(0, i - max + 1); j <= Math.min(b.length - 2, i + max - 1); j++) {
      if (b[j] !== a[i + 1] || b[j + 1] !== a[i]) continue;
      const before = leven(a.slice(0, i), b.slice(0, j), { maxDistance: max });
      if (before + 1 > max) continue;
      best = Math.min(best, before + 1 + distance(a.slice(i + 2), b.slice(j + 2), max - 1 - before));
    }
  }
  return best;
}

/** The closest candidate when `word` looks like a typo of it (or differs only in case). */
export function suggest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    if (c === word) continue;
    const limit = Math.max(word.length, c.length) >= 6 ? 2 : 1;
    const lc = c.toLowerCase();
    // The distance is at least the difference in length: past the limit there is nothing to compute
    // (a hostile file's thousands of unknown keys cost a comparison each, not a matrix).
    const d = Math.abs(w.length - lc.length) > limit ? Infinity : distance(w, lc, limit);
    if (d <= limit && d < Math.min(word.length, c.length) && d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}
