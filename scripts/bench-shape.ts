// The arithmetic of the scaling bench (bench-scaling.ts), kept apart so that a test can check it: the shape of a cost
// curve (the slope of a least-squares line through log(cost) against log(size), and the cost per unit at the largest
// size against the smallest), and what /proc says of a process (its resident memory, its CPU time).
import { readFileSync } from 'node:fs';
import type { Report } from './bench-up.js';

export interface Point {
  size: number;
  cost: number;
}

export type Verdict = 'better than linear' | 'linear' | 'worse than linear';

export interface Shape {
  /** The slope of log(cost) against log(size): 1 is linear, 0 flat, 2 quadratic. */
  slope: number;
  /** Cost per unit of size at the largest size over the same at the smallest (1: linear; below 1: better). */
  perUnit: number;
  /**
   * The slope between the two largest sizes alone: where a fixed cost dominates the small sizes, the fit is flatter
   * than the growth at the top, which this shows.
   */
  topSlope: number;
  verdict: Verdict;
}

/** How far from 1 the slope may be and still be called linear (measurements on a shared machine are noisy). */
export const LINEAR_TOLERANCE = 0.15;

/** The slope of the least-squares line through (ln size, ln cost). Needs two sizes at least, every value above 0. */
export function logLogSlope(points: readonly Point[]): number {
  if (points.length < 2) throw new Error(`a slope needs two points at least, got ${points.length}`);
  for (const p of points)
    if (!(p.size > 0 && p.cost > 0))
      throw new Error(`a log-log fit needs sizes and costs above 0, got ${p.size}: ${p.cost}`);
  const xs = points.map((p) => Math.log(p.size));
  const ys = points.map((p) => Math.log(p.cost));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  if (sxx === 0) throw new Error('a slope needs two different sizes');
  return sxy / sxx;
}

/** The shape of a cost curve: its log-log slope, its cost per unit at the ends, and the verdict the slope gives. */
export function shapeOf(points: readonly Point[]): Shape {
  const slope = logLogSlope(points);
  const sorted = [...points].sort((a, b) => a.size - b.size);
  const first = sorted[0]!;
  const last = sorted[sorted.length - 1]!;
  const perUnit = last.cost / last.size / (first.cost / first.size);
  const topSlope = logLogSlope(sorted.slice(-2));
  const verdict: Verdict =
    slope < 1 - LINEAR_TOLERANCE ? 'better than linear' : slope > 1 + LINEAR_TOLERANCE ? 'worse than linear' : 'linear';
  return { slope, perUnit, topSlope, verdict };
}

/** One line for a curve: `linear: log-log slope 0.98, cost per unit at the largest size x0.95 the smallest's, …`. */
export function describeShape(s: Shape): string {
  const flat = Math.abs(s.slope) < 0.2 ? ', about flat' : '';
  return `${s.verdict}${flat}: log-log slope ${s.slope.toFixed(2)}, cost per unit at the largest size x${fixed(s.perUnit)} the smallest's, slope ${s.topSlope.toFixed(2)} between the two largest`;
}

const fixed = (n: number): string => (n >= 10 ? n.toFixed(0) : n >= 0.1 ? n.toFixed(2) : n.toPrecision(2));

/** The resident memory (kB) in the text of /proc/<pid>/status (its VmRSS line). */
export function parseVmRssKb(status: string): number {
  const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!m) throw new Error('no VmRSS line in this /proc/<pid>/status');
  return Number(m[1]);
}

/**
 * The CPU time (clock ticks, user + system) in the text of /proc/<pid>/stat: its 14th and 15th fields, counted after
 * the command name (in parentheses, which may itself hold spaces and parentheses).
 */
export function parseCpuTicks(stat: string): number {
  const close = stat.lastIndexOf(')');
  if (close < 0) throw new Error('no command name in this /proc/<pid>/stat');
  // Fields from the 3rd (state) on.
  const rest = stat.slice(close + 2).split(' ');
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error('no utime and stime in this /proc/<pid>/stat');
  return utime + stime;
}

/** Clock ticks a second (getconf CLK_TCK: 100 on Linux, which Node cannot ask). */
export const CLK_TCK = 100;

/** A process's resident memory now, in MB (undefined: it is gone). */
export function rssMb(pid: number): number | undefined {
  try {
    return parseVmRssKb(readFileSync(`/proc/${pid}/status`, 'utf8')) / 1024;
  } catch {
    return undefined;
  }
}

/** A process's CPU time so far (user + system), in seconds (0: it is gone). */
export function cpuSeconds(pid: number): number {
  try {
    return parseCpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8')) / CLK_TCK;
  } catch {
    return 0;
  }
}

/** Rows of each metric's shape over the sizes. */
export function shapes(report: Report, prefix: string, series: Record<string, Point[]>): void {
  for (const [metric, points] of Object.entries(series)) {
    const usable = points.filter((p) => p.cost > 0);
    if (usable.length < 2) continue;
    report(`${prefix}.${metric}.shape`, shapeOf(usable).slope.toFixed(2), describeShape(shapeOf(usable)));
  }
}

export const push = (series: Record<string, Point[]>, metric: string, size: number, cost: number | undefined): void => {
  if (cost !== undefined) (series[metric] ??= []).push({ size, cost });
};
