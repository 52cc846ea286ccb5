// JUnit XML for CI systems (GitHub test reporters, GitLab, Jenkins): one <testsuite> per scenario
// file, one <testcase> per step; a scenario's failure is a <failure>, an infrastructure error an <error>.
import { isUnsuccessful, type ScenarioResult, type StepFailure, type StepResult } from '../types.js';
import { failureLines, seconds, stripAnsi } from './text.js';

// Characters XML 1.0 does not allow at all (even as &#…;): C0 controls other than tab, newline and
// carriage return, U+FFFE, U+FFFF, and unpaired surrogates.
const FORBIDDEN =
  /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

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

/**
 * Escaped for a double- or single-quoted attribute value; tab, newline and CR survive attribute normalisation as
 * character references.
 */
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
  if (children === undefined || (Array.isArray(children) && children.length === 0))
    return `${indent}<${name}${attrs(a)}/>`;
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
  if (isUnsuccessful(r) && r.logTails) {
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
  /**
   * `<failure type=…>` for the scenario's own failures; `<error type="infrastructure">` for the infrastructure's,
   * `<error type="interrupted">` for a stopped run.
   */
  failureType: 'assertion' | 'setup' | 'error' | 'infrastructure' | 'interrupted';
  skipMessage?: string;
}

/** Written as `<error>` (counted in `errors`), not `<failure>`: the scenario was not judged. */
const isError = (c: Case): boolean => c.failureType === 'infrastructure' || c.failureType === 'interrupted';

/** The testcase of one step. */
function stepCase(s: StepResult, r: ScenarioResult): Case {
  const infra = r.status === 'error';
  const name = s.name || `step ${s.index + 1}`;
  if (s.status === 'interrupted')
    return {
      name,
      ms: s.ms,
      status: 'failed',
      failureType: 'interrupted',
      failure: { message: s.failure?.message ?? r.failure?.message ?? 'interrupted' },
    };
  const c: Case = { name, ms: s.ms, status: s.status, failureType: infra ? 'infrastructure' : 'assertion' };
  // With an infrastructure error, the failed step carries the scenario's failure (which says what died).
  if (s.status === 'failed')
    c.failure = (infra ? r.failure : s.failure) ??
      s.failure ??
      (r.failure && { ...r.failure }) ?? { message: 'step failed' };
  return c;
}

/** The testcases of one scenario: its steps, plus `setup` (or `scenario`) when it failed outside any step. */
function cases(r: ScenarioResult): Case[] {
  const infra = r.status === 'error';
  const out: Case[] = r.steps.map((s) => stepCase(s, r));
  const anyStepFailed = r.steps.some((s) => s.status === 'failed' || s.status === 'interrupted');
  const anyStepRan = r.steps.some((s) => s.status !== 'skipped');
  if (isUnsuccessful(r) && !anyStepFailed) {
    // Ended before any step ran (start-up, funding, an unusable file, an interruption), or between/after steps.
    const name = anyStepRan ? 'scenario' : 'setup';
    const stepMs = r.steps.reduce((a, s) => a + (Number.isFinite(s.ms) ? s.ms : 0), 0);
    const failureType =
      r.status === 'interrupted' ? 'interrupted' : infra ? 'infrastructure' : anyStepRan ? 'error' : 'setup';
    const c: Case = {
      name,
      ms: Math.max(0, r.ms - stepMs),
      status: 'failed',
      failure: r.failure ?? { message: 'scenario failed' },
      failureType,
    };
    if (anyStepRan) out.push(c);
    else out.unshift(c);
  } else if (r.status === 'skipped' && out.length === 0) {
    out.push({
      name: 'scenario',
      ms: 0,
      status: 'skipped',
      failureType: 'assertion',
      ...(r.failure ? { skipMessage: r.failure.message } : {}),
    });
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
 * values; a skipped step `<skipped/>`. A scenario that failed before any step ran (a file that does
 * not parse) gets a `setup` testcase with the failure (type `setup`). A scenario that ended in an
 * infrastructure error (status `error`) has `<error message type="infrastructure">` instead: on a
 * `setup` testcase when it ended before its first step (the testnet did not start, funding
 * failed), on the step that failed when a process of the testnet died under it. A run stopped by
 * Ctrl-C or SIGTERM gives the step it stopped `<error message="interrupted by SIGINT"
 * type="interrupted">` (or a `setup` testcase, when it stopped before the first step) and the steps
 * after it `<skipped/>`. Errors count in `errors`, scenario failures in `failures`. `<system-out>` of each suite names
 * the artifact folder
 * and, on failure or error, holds the tail of each process log. Times are seconds with three
 * decimals. Every string is escaped; characters XML 1.0 forbids are replaced by `\uXXXX` and
 * terminal escape sequences removed.
 */
export function toJUnit(results: readonly ScenarioResult[], opts: JUnitOptions = {}): string {
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  const suites: string[] = [];
  for (const r of results) {
    const cs = cases(r);
    const count = {
      failures: cs.filter((c) => c.status === 'failed' && !isError(c)).length,
      errors: cs.filter((c) => c.status === 'failed' && isError(c)).length,
      skipped: cs.filter((c) => c.status === 'skipped').length,
    };
    total.tests += cs.length;
    total.failures += count.failures;
    total.errors += count.errors;
    total.skipped += count.skipped;
    total.ms += Number.isFinite(r.ms) && r.ms > 0 ? r.ms : 0;

    const children: string[] = [
      element('    ', 'properties', {}, [
        element('      ', 'property', { name: 'backend', value: r.backend }, undefined),
        element('      ', 'property', { name: 'status', value: r.status }, undefined),
      ]),
    ];
    for (const c of cs) {
      const inner: string[] = [];
      if (c.status === 'failed' && c.failure) {
        const tag = isError(c) ? 'error' : 'failure';
        inner.push(
          element(
            '      ',
            tag,
            { message: failureMessage(c.failure), type: c.failureType },
            failureBody(c.failure, r),
          ),
        );
      } else if (c.status === 'skipped') {
        inner.push(element('      ', 'skipped', { message: c.skipMessage }, undefined));
      }
      children.push(
        element('    ', 'testcase', { classname: r.file, name: c.name, file: r.file, time: seconds(c.ms, 3) }, inner),
      );
    }
    const out = systemOut(r);
    if (out !== undefined) children.push(element('    ', 'system-out', {}, out));
    suites.push(
      element(
        '  ',
        'testsuite',
        { name: r.name, file: r.file, tests: cs.length, ...count, time: seconds(r.ms, 3) },
        children,
      ),
    );
  }
  const root = element(
    '',
    'testsuites',
    {
      name: opts.suiteName ?? 'saltnet',
      tests: total.tests,
      failures: total.failures,
      errors: total.errors,
      skipped: total.skipped,
      time: seconds(total.ms, 3),
    },
    suites,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root}\n`;
}
