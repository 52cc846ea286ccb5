// Did-you-mean: the distance is leven's Levenshtein plus transpositions of adjacent letters, exactly the optimal
// string alignment distance (computed here by its matrix, as the reference).
import { describe, expect, it } from 'vitest';
import { suggest } from '../../harness/common/suggest.js';

/** Optimal string alignment, by its matrix (Levenshtein with adjacent transpositions): the reference. */
function osa(a: string, b: string): number {
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

/** suggest() as it was, on the reference distance. */
function reference(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c === word) continue;
    const limit = Math.max(word.length, c.length) >= 6 ? 2 : 1;
    const d = osa(word.toLowerCase(), c.toLowerCase());
    if (d <= limit && d < Math.min(word.length, c.length) && d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** A small deterministic generator (mulberry32), so a failure names a case that comes back. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('suggest', () => {
  it('a swap of two neighbouring letters is one typo, even in a short word (Levenshtein alone says two)', () => {
    expect(suggest('tgas', ['tags', 'steps'])).toBe('tags');
    expect(suggest('mien', ['mine', 'call'])).toBe('mine');
    expect(suggest('expcet', ['expect', 'steps'])).toBe('expect');
  });

  it('one edit in a short name, two in a long one; case alone is a typo', () => {
    expect(suggest('simm', ['auto', 'salvium', 'sim', 'monero'])).toBe('sim');
    expect(suggest('wokers', ['isolation', 'workers'])).toBe('workers');
    expect(suggest('get_balence', ['get_balance', 'get_address'])).toBe('get_balance');
    expect(suggest('Sim', ['auto', 'sim'])).toBe('sim');
    expect(suggest('xyz', ['abc'])).toBeUndefined();
    expect(suggest('a', ['b'])).toBeUndefined(); // as many edits as letters: no guess
  });

  it('no letter is edited twice: a swap with an insertion between its letters is three edits, not two', () => {
    // "ca" → "abc" is 3 in optimal string alignment (2 with unrestricted transpositions): no suggestion.
    expect(osa('xxxxca', 'xxxxabc')).toBe(3);
    expect(suggest('xxxxca', ['xxxxabc'])).toBeUndefined();
    expect(suggest('xxxxca', ['xxxxac'])).toBe('xxxxac');
  });

  it('the closest candidate wins; the first of equals', () => {
    expect(suggest('transfr', ['transfer_split', 'transfer', 'transferx'])).toBe('transfer');
    expect(suggest('ab', ['ac', 'ad'])).toBe('ac');
  });

  it('agrees with the reference on 20 000 random words and candidate lists', () => {
    const next = random(25);
    const word = (): string =>
      Array.from({ length: 1 + Math.floor(next() * 9) }, () => 'abcAB'[Math.floor(next() * 5)]).join('');
    const differ: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      const w = word();
      const mutated = [...w];
      for (let k = Math.floor(next() * 4); k > 0; k--) {
        const at = Math.floor(next() * mutated.length);
        if (next() < 0.5 && at + 1 < mutated.length) [mutated[at], mutated[at + 1]] = [mutated[at + 1]!, mutated[at]!];
        else mutated.splice(at, next() < 0.5 ? 1 : 0, 'abc'[Math.floor(next() * 3)]!);
      }
      const candidates = [mutated.join(''), word(), word()];
      if (suggest(w, candidates) !== reference(w, candidates)) differ.push(`${w} in ${JSON.stringify(candidates)}`);
    }
    expect(differ).toEqual([]);
  });
});
