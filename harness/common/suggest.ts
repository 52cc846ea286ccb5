// Did-you-mean for the names a scenario (or a config or accept file) gets wrong: the closest known
// name by edit distance, when it is close enough to be a typo.

/** Optimal-string-alignment distance (Levenshtein with transpositions). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
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
    const d = Math.abs(w.length - lc.length) > limit ? Infinity : lc === w ? 0 : editDistance(w, lc);
    if (d <= limit && d < Math.min(word.length, c.length) && d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}
