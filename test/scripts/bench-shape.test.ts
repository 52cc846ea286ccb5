// The scaling bench's arithmetic (scripts/bench-shape.ts): the verdict on a curve's shape and what it reads in /proc.
import { describe, expect, it } from 'vitest';
import { describeShape, logLogSlope, parseCpuTicks, parseVmRssKb, shapeOf } from '../../scripts/bench-shape.js';

const curve = (f: (n: number) => number): { size: number; cost: number }[] =>
  [100, 1000, 10_000, 100_000].map((size) => ({ size, cost: f(size) }));

describe('the shape of a cost curve', () => {
  it('finds the exponent of a power law', () => {
    expect(logLogSlope(curve((n) => 3 * n))).toBeCloseTo(1, 10);
    expect(logLogSlope(curve((n) => 0.5 * n * n))).toBeCloseTo(2, 10);
    expect(logLogSlope(curve((n) => 7 * Math.sqrt(n)))).toBeCloseTo(0.5, 10);
    expect(logLogSlope(curve(() => 4))).toBeCloseTo(0, 10);
  });

  it('says linear, better or worse by the slope, and the cost per unit at the ends', () => {
    const linear = shapeOf(curve((n) => 2 * n + 1));
    expect(linear.verdict).toBe('linear');
    expect(linear.perUnit).toBeCloseTo(0.995, 3);
    const flat = shapeOf(curve(() => 12));
    expect(flat.verdict).toBe('better than linear');
    expect(flat.perUnit).toBeCloseTo(0.001, 6);
    expect(describeShape(flat)).toMatch(/^better than linear, about flat: log-log slope 0\.00/);
    const quadratic = shapeOf(curve((n) => n * n));
    expect(quadratic.verdict).toBe('worse than linear');
    expect(quadratic.perUnit).toBeCloseTo(1000, 6);
    expect(describeShape(quadratic)).toBe(
      "worse than linear: log-log slope 2.00, cost per unit at the largest size x1000 the smallest's, slope 2.00 between the two largest",
    );
  });

  it('shows the growth at the top where a fixed cost flattens the fit', () => {
    // 200 ms of start plus 0.1 ms a block: the fit over 100 … 100,000 is better than linear, the top about linear.
    const s = shapeOf(curve((n) => 200 + 0.1 * n));
    expect(s.verdict).toBe('better than linear');
    expect(s.slope).toBeLessThan(0.7);
    expect(s.topSlope).toBeGreaterThan(0.9);
  });

  it('does not depend on the order of the points', () => {
    const points = curve((n) => n ** 1.5);
    expect(shapeOf([...points].reverse())).toEqual(shapeOf(points));
  });

  it('refuses what it cannot fit, saying why', () => {
    expect(() => logLogSlope([{ size: 10, cost: 1 }])).toThrow('a slope needs two points at least, got 1');
    expect(() => logLogSlope(curve((n) => n - 100))).toThrow('a log-log fit needs sizes and costs above 0, got 100: 0');
    expect(() =>
      logLogSlope([
        { size: 5, cost: 1 },
        { size: 5, cost: 2 },
      ]),
    ).toThrow('a slope needs two different sizes');
  });
});

describe('what /proc says of a process', () => {
  it('reads the resident memory of a status file', () => {
    expect(parseVmRssKb('Name:\tnode\nVmPeak:\t  999 kB\nVmRSS:\t   69260 kB\nRssAnon:\t 1 kB\n')).toBe(69260);
    expect(() => parseVmRssKb('Name:\tzombie\n')).toThrow('no VmRSS line');
  });

  it('adds utime and stime of a stat line, whatever the command name holds', () => {
    const tail = 'S 1 2 3 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 11 0 500 1000 200';
    expect(parseCpuTicks(`4242 (node) ${tail}`)).toBe(325);
    expect(parseCpuTicks(`4242 (a (b) c) ${tail}`)).toBe(325);
    expect(() => parseCpuTicks('garbage')).toThrow('no command name');
  });
});
