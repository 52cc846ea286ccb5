// The fuzzer's seeded random choices. pure-rand (the PRNG under fast-check, kept by the same author) gives the
// generator and unbiased integer ranges; fast-check itself is not used because its arbitraries and shrinker work on
// values built in one go, while a fuzz program is drawn step by step from a model that each step changes, and is
// shrunk by running whole scenario files on two testnets. Same seed, same draws, on every machine.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

export class Rng {
  private readonly g: RandomGenerator;

  constructor(seed: number) {
    this.g = xoroshiro128plus(seed | 0);
  }

  /** An integer from `from` to `to`, both included. */
  int(from: number, to: number): number {
    return uniformInt(this.g, from, to);
  }

  /** True with probability `p` (in hundredths: whole percent steps are enough here). */
  chance(p: number): boolean {
    return this.int(0, 99) < Math.round(p * 100);
  }

  pick<T>(list: readonly T[]): T {
    if (!list.length) throw new Error('pick from an empty list');
    return list[this.int(0, list.length - 1)]!;
  }

  /** One of the entries, each as likely as its weight (weights > 0). */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((n, [, w]) => n + w, 0);
    let r = this.int(1, total);
    for (const [v, w] of entries) {
      r -= w;
      if (r <= 0) return v;
    }
    return entries[entries.length - 1]![0];
  }
}
