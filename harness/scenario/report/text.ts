// Text helpers shared by the reporters.
import type { SourcePos, StepFailure } from '../types.js';

// CSI sequences (colours, cursor moves) and OSC sequences (titles, hyperlinks) that programs write
// into their logs.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** `s` without terminal escape sequences. */
export function stripAnsi(s: string): string {
  return s.replace(ANSI, '');
}

/** `file:line:col` */
export function formatPos(pos: SourcePos): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}

/** Seconds with `digits` decimals, e.g. `1.250`. */
export function seconds(ms: number, digits: number): string {
  const v = Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0;
  return v.toFixed(digits);
}

/** The failure's details as `label: value` lines (message first), without indentation. */
export function failureLines(f: StepFailure): string[] {
  const lines = [...f.message.split(/\r?\n/)];
  if (f.pos) lines.push(`at ${formatPos(f.pos)}`);
  if (f.path !== undefined) lines.push(`path: ${f.path}`);
  if (f.expected !== undefined) lines.push(...labelled('expected', f.expected));
  if (f.actual !== undefined) lines.push(...labelled('actual', f.actual));
  return lines;
}

/** `label: first line` then the value's further lines indented under it. */
export function labelled(label: string, value: string): string[] {
  const [first = '', ...rest] = value.split(/\r?\n/);
  const pad = ' '.repeat(label.length + 2);
  return [`${label}: ${first}`, ...rest.map((l) => pad + l)];
}
