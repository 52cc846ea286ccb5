// JUnit XML for CI systems (GitHub test reporters, GitLab, Jenkins): one <testsuite> per scenario
// file, one <testcase> per step.
import type { ScenarioResult, StepFailure, StepResult } from '../types.js';
import { failureLines, seconds, stripAnsi } from './text.js';

// Characters XML 1.0 does not allow at all (even as &#…;): C0 controls other than tab, newline and
// carriage return, U+FFFE, U+FFFF, and unpaired surrogates.
const FORBIDDEN = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `s` made representable in XML 1.0: terminal escape sequences are removed, and every other
 * forbidden character is replaced by its visible `\uXXXX` spelling so no information is lost.
 */
export function xmlSafe(s: string): string {
  return stripAnsi(s).replace(FORBIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Escaped for element content (a carriage return as `&#13;`, which parsers would otherwise fold into the newline). */
export function escapeXmlText(s: string): string {
  return xmlSafe(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#13;');
}

/** Escaped for a double- or single-quoted attribute value; tab, newline and CR survive attribute normalisation as character references. */
export function escapeXmlAttr(s: string): string {
  return xmlSafe(s)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

type Attrs = Record<string, string | number | undefined>;

function attrs(a: Attrs): string {
  let out = '';
  for (const [k, v] of Object.entries(a)) if (v !== undefined) out += ` ${k}="${escapeXmlAttr(String(v))}"`;
  return out;
}

function element(indent: string, name: string, a: Attrs, children: string[] | string | undefined): string {
  if (children === undefined || (Array.isArray(children) && children.length === 0)) return `${indent}<${name}${attrs(a)}/>`;
  if (typeof children === 'string') return `${indent}<${name}${attrs(a)}>${escapeXmlText(children)}</${name}>`;
  return `${indent}<${name}${attrs(a)}>\n${children.join('\n')}\n${indent}</${name}>`;
}

/** The failure's `message` attribute: its first line. */
function failureMessage(f: StepFailure): string {
  return f.message.split('\n', 1)[0] ?? '';
}

function failureBody(f: StepFailure, r: ScenarioResult): string {
  const lines = failureLines(f);
  if (r.artifactDir) lines.push(`artifacts: ${r.artifactDir}`);
  return lines.join('\n');
}

function systemOut(r: ScenarioResult): string | undefined {
  const parts: string[] = [];
  if (r.artifactDir) parts.push(`artifacts: ${r.artifactDir}`);
  if (r.status === 'failed' && r.logTails) {
    for (const [name, lines] of Object.entries(r.logTails)) {
      parts.push(`--- ${name}: last ${lines.length} line${lines.length === 1 ? '' : 's'} ---`, ...lines);
    }
  }
  return parts.length ? parts.join('\n') : undefined;
}

interface Case {
  name: string;
  ms: number;
  status: 'passed' | 'failed' | 'skipped';
  failure?: StepFailure;
  failureType: 'assertion' | 'setup' | 'error';
  skipMessage?: string;
}

/** The testcases of one scenario: its steps, plus `setup` (or `scenario`) when it failed outside any step. */
function cases(r: ScenarioResult): Case[] {
  const out: Case[] = r.steps.map((s: StepResult) => {
    const c: Case = { name: s.name || `step ${s.index + 1}`, ms: s.ms, status: s.status, failureType: 'assertion' };
    if (s.status === 'failed') c.failure = s.failure ?? (r.failure && { ...r.failure }) ?? { message: 'step failed' };
    return c;
  });
  const anyStepFailed = r.steps.some((s) => s.status === 'failed');
  const anyStepRan = r.steps.some((s) => s.status !== 'skipped');
  if (r.status === 'failed' && !anyStepFailed) {
    // Failed before any step ran (start-up, funding, an unusable file), or between/after steps.
    const name = anyStepRan ? 'scenario' : 'setup';
    const stepMs = r.steps.reduce((a, s) => a + (Number.isFinite(s.ms) ? s.ms : 0), 0);
    const c: Case = { name, ms: Math.max(0, r.ms - stepMs), status: 'failed', failure: r.failure ?? { message: 'scenario failed' }, failureType: anyStepRan ? 'error' : 'setup' };
    if (anyStepRan) out.push(c);
    else out.unshift(c);
  } else if (r.status === 'skipped' && out.length === 0) {
    out.push({ name: 'scenario', ms: 0, status: 'skipped', failureType: 'assertion', ...(r.failure ? { skipMessage: r.failure.message } : {}) });
  }
  return out;
}

export interface JUnitOptions {
  /** The `name` of `<testsuites>`; default `saltnet`. */
  suiteName?: string;
}

/**
 * JUnit XML for the results: `<testsuites>` → one `<testsuite>` per scenario (name = scenario
 * name, `file` = its file) → one `<testcase classname=file name=step>` per step. A failed step has
 * `<failure message type="assertion">` whose body holds the position, path, expected and actual
 * values; a skipped step `<skipped/>`. A scenario that failed before any step ran gets a `setup`
 * testcase with the failure (type `setup`); one that failed outside its steps after some ran, a
 * `scenario` testcase (type `error`). `<system-out>` of each suite names the artifact folder and,
 * on failure, holds the tail of each process log. Times are seconds with three decimals. Every
 * string is escaped; characters XML 1.0 forbids are replaced by `\uXXXX` and terminal escape
 * sequences removed.
 */
export function toJUnit(results: readonly ScenarioResult[], opts: JUnitOptions = {}): string {
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  let totalMs = 0;
  const suites: string[] = [];
  for (const r of results) {
    const cs = cases(r);
    const f = cs.filter((c) => c.status === 'failed').length;
    const s = cs.filter((c) => c.status === 'skipped').length;
    tests += cs.length;
    failures += f;
    skipped += s;
    totalMs += Number.isFinite(r.ms) && r.ms > 0 ? r.ms : 0;

    const children: string[] = [element('    ', 'properties', {}, [element('      ', 'property', { name: 'backend', value: r.backend }, undefined), element('      ', 'property', { name: 'status', value: r.status }, undefined)])];
    for (const c of cs) {
      const inner: string[] = [];
      if (c.status === 'failed' && c.failure) {
        inner.push(element('      ', 'failure', { message: failureMessage(c.failure), type: c.failureType }, failureBody(c.failure, r)));
      } else if (c.status === 'skipped') {
        inner.push(element('      ', 'skipped', { message: c.skipMessage }, undefined));
      }
      children.push(element('    ', 'testcase', { classname: r.file, name: c.name, file: r.file, time: seconds(c.ms, 3) }, inner));
    }
    const out = systemOut(r);
    if (out !== undefined) children.push(element('    ', 'system-out', {}, out));
    suites.push(
      element('  ', 'testsuite', { name: r.name, file: r.file, tests: cs.length, failures: f, errors: 0, skipped: s, time: seconds(r.ms, 3) }, children),
    );
  }
  const root = element('', 'testsuites', { name: opts.suiteName ?? 'saltnet', tests, failures, errors: 0, skipped, time: seconds(totalMs, 3) }, suites);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}
