// The three forms of a diff's result: a table of divergences per scenario for people, one JSON
// document and JUnit XML (one testcase per scenario) for CI.
import { relative, sep } from 'node:path';
import { escapeXmlAttr, escapeXmlText } from '../scenario/report/junit.js';
import { stripAnsi } from '../scenario/report/text.js';
import type {
  AcceptEntry,
  AcceptPos,
  DiffResult,
  DiffSide,
  Divergence,
  ScenarioDiff,
  ScenarioDiffStatus,
} from './types.js';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
const at = (p: AcceptPos): string => `${p.file}:${p.line}:${p.col}`;

// Control characters other than tab and newline, from answers and messages.
const CONTROL = /[\x00-\x08\x0B-\x1F\x7F]/g;
const clean = (s: string): string =>
  stripAnsi(s).replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** `sim`, `salvium (bin dir /opt/a)` */
export function describeSide(s: DiffSide): string {
  if (s.recording) return `${s.backend} (recording ${shortFile(s.recording)})`;
  return s.binDir ? `${s.backend} (bin dir ${s.binDir})` : s.backend;
}

/**
 * `3 scenarios, 41 steps compared: 2 divergences in 1 scenario[, 1 accepted][, 1 error][, 5 steps skipped after a
 * failure]`
 */
export function diffSummaryLine(r: DiffResult): string {
  const s = r.summary;
  const found = s.divergences
    ? `${plural(s.divergences, 'divergence')} in ${plural(s.diverged, 'scenario')}`
    : 'no divergences';
  const accepted = s.accepted ? `, ${s.accepted} accepted` : '';
  const errors = s.errors ? `, ${plural(s.errors, 'error')}` : '';
  const skipped = s.skipped ? `, ${plural(s.skipped, 'step')} skipped after a failure` : '';
  return `${plural(s.scenarios, 'scenario')}, ${plural(s.steps, 'step')} compared: ${found}${accepted}${errors}${skipped}`;
}

/** A path relative to the working directory when it is inside it. */
function shortFile(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith(`..${sep}`) && rel !== '..' ? rel : file;
}

const LABEL: Record<ScenarioDiffStatus, string> = {
  same: '✓ same',
  accepted: '~ accepted',
  diverged: '✗ diverged',
  error: '! error',
  skipped: '- skipped',
};

function cut(s: string, max: number): string {
  const c = clean(s).replace(/\n/g, ' ');
  return c.length > max ? `${c.slice(0, max - 1)}…` : c;
}

/**
 * A's and B's values cut to `max` characters each, both starting a little before where they first differ when that is
 * far in.
 */
function clipPair(a: string, b: string, max: number): [string, string] {
  const [ca, cb] = [clean(a).replace(/\n/g, ' '), clean(b).replace(/\n/g, ' ')];
  if (ca.length <= max && cb.length <= max) return [ca, cb];
  let p = 0;
  while (p < ca.length && p < cb.length && ca[p] === cb[p]) p++;
  let start = p > max / 2 ? p - Math.floor(max / 3) : 0;
  const space = ca.lastIndexOf(' ', start);
  if (start > 0 && space > 0 && start - space < 12) start = space + 1; // at a word
  const from = (x: string): string => (start > 0 ? `…${x.slice(start)}` : x);
  return [cut(from(ca), max), cut(from(cb), max)];
}

function stepLabel(d: Divergence): string {
  return d.step === undefined ? '(scenario)' : `${d.step} ${d.stepName ?? ''}`.trim();
}

function kindLabel(d: Divergence): string {
  return d.detail ? `${d.kind} (${d.detail})` : d.kind;
}

/** The divergences of a scenario as an aligned table, each accepted one followed by its reason. */
export function divergenceTable(divs: readonly Divergence[], indent: string, max = 40): string[] {
  const rows = divs.map((d) => [
    cut(stepLabel(d), 32),
    cut(d.path, 64),
    ...clipPair(d.a, d.b, max),
    cut(kindLabel(d), 80),
  ]);
  const head = ['step', 'path', 'A', 'B', 'kind'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    `${indent}${cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')}`;
  const out = [line(head)];
  divs.forEach((d, i) => {
    out.push(line(rows[i]!));
    if (d.accepted) out.push(`${indent}  accepted: ${clean(d.accepted.reason)} (${at(d.accepted.pos)})`);
  });
  return out;
}

function staleLine(e: AcceptEntry): string {
  const step = e.step === undefined ? '' : `, step ${typeof e.step === 'number' ? e.step : JSON.stringify(e.step)}`;
  return `warning: ${at(e.pos)}: stale accept entry: it matched no divergence (scenario ${JSON.stringify(e.scenario)}${step}, path ${e.path})`;
}

/** The whole result for a terminal or a CI log. */
export function diffToText(r: DiffResult): string {
  const lines = [`saltnet diff: A = ${describeSide(r.a)}, B = ${describeSide(r.b)}`, ''];
  for (const s of r.scenarios) {
    const skipped = s.stepsSkipped ? `, ${s.stepsSkipped} skipped on one side after a failure` : '';
    const steps =
      s.status === 'error' || s.status === 'skipped' ? '' : ` (${plural(s.stepsCompared, 'step')}${skipped})`;
    lines.push(`${LABEL[s.status].padEnd(10)}  ${clean(shortFile(s.file))} — ${clean(s.name)}${steps}`);
    if (s.status === 'error' || s.status === 'skipped') {
      for (const [side, o] of [
        ['A', s.a],
        ['B', s.b],
      ] as const)
        lines.push(`    ${side}: ${o.status}${o.message ? `: ${clean(o.message)}` : ''}`);
    } else if (s.a.status === 'failed' && s.b.status === 'failed') {
      // The same on both sides, but not a pass: worth knowing.
      lines.push(`    failed on both sides (A: ${clean(s.a.message ?? 'failed')})`);
    } else {
      // One side failed: its whole message (the table's cell is cut short) and where its logs are.
      for (const [side, o] of [
        ['A', s.a],
        ['B', s.b],
      ] as const)
        if (o.status === 'failed')
          lines.push(
            `    ${side} failed: ${clean(o.message ?? 'a step failed')}${o.artifactDir ? ` (artifacts: ${clean(o.artifactDir)})` : ''}`,
          );
    }
    if (s.divergences.length) lines.push(...divergenceTable(s.divergences, '    '));
  }
  if (r.scenarios.length) lines.push('');
  for (const e of r.stale) lines.push(staleLine(e));
  lines.push(diffSummaryLine(r));
  return `${lines.join('\n')}\n`;
}

// ---- JSON ----

function sideJson(s: DiffSide): Record<string, unknown> {
  return {
    backend: s.backend,
    ...(s.binDir ? { binDir: s.binDir } : {}),
    ...(s.recording ? { recording: s.recording } : {}),
  };
}

function divergenceJson(d: Divergence): Record<string, unknown> {
  return {
    ...(d.step !== undefined ? { step: d.step, stepName: d.stepName } : {}),
    path: d.path,
    kind: d.kind,
    a: d.a,
    b: d.b,
    ...(d.detail ? { detail: d.detail } : {}),
    ...(d.rule ? { rule: d.rule } : {}),
    ...(d.accepted ? { accepted: { reason: d.accepted.reason, at: at(d.accepted.pos) } } : {}),
  };
}

function scenarioJson(s: ScenarioDiff): Record<string, unknown> {
  const side = (o: ScenarioDiff['a']): Record<string, unknown> => ({
    status: o.status,
    backend: o.backend,
    ...(o.message ? { message: o.message } : {}),
    ...(o.artifactDir ? { artifactDir: o.artifactDir } : {}),
  });
  return {
    file: s.file,
    name: s.name,
    status: s.status,
    stepsCompared: s.stepsCompared,
    stepsSkipped: s.stepsSkipped,
    a: side(s.a),
    b: side(s.b),
    divergences: s.divergences.map(divergenceJson),
  };
}

/**
 * One JSON document, two-space indented, ending in a newline; fields always in the same order:
 * `{ version: 1, ok, a, b, summary, scenarios: [{ file, name, status, stepsCompared, stepsSkipped, a, b,
 * divergences: [{ step, stepName, path, kind, a, b, detail?, rule?, accepted? }] }], stale: [...] }`.
 */
export function diffToJson(r: DiffResult): string {
  const doc = {
    version: 1,
    ok: r.ok,
    a: sideJson(r.a),
    b: sideJson(r.b),
    summary: r.summary,
    scenarios: r.scenarios.map(scenarioJson),
    stale: r.stale.map((e) => ({
      at: at(e.pos),
      scenario: e.scenario,
      ...(e.step !== undefined ? { step: e.step } : {}),
      path: e.path,
      reason: e.reason,
    })),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

// ---- JUnit ----

function element(
  indent: string,
  name: string,
  attrs: Record<string, string | number | undefined>,
  body?: string | string[],
): string {
  const a = Object.entries(attrs)
    .flatMap(([k, v]) => (v === undefined ? [] : [` ${k}="${escapeXmlAttr(String(v))}"`]))
    .join('');
  if (body === undefined || (Array.isArray(body) && body.length === 0)) return `${indent}<${name}${a}/>`;
  if (typeof body === 'string') return `${indent}<${name}${a}>${escapeXmlText(body)}</${name}>`;
  return `${indent}<${name}${a}>\n${body.join('\n')}\n${indent}</${name}>`;
}

function testcase(s: ScenarioDiff): string {
  const open = s.divergences.filter((d) => !d.accepted);
  const accepted = s.divergences.filter((d) => d.accepted);
  const inner: string[] = [];
  const ind = '      ';
  if (s.status === 'error') {
    const sides = (['a', 'b'] as const).filter((k) => s[k].status === 'error');
    const message = sides.map((k) => `${k.toUpperCase()}: ${s[k].message ?? 'infrastructure error'}`).join('; ');
    inner.push(
      element(
        ind,
        'error',
        { message, type: 'infrastructure' },
        [
          `A: ${s.a.status}${s.a.message ? `: ${s.a.message}` : ''}`,
          `B: ${s.b.status}${s.b.message ? `: ${s.b.message}` : ''}`,
        ].join('\n'),
      ),
    );
  } else if (s.status === 'skipped') {
    inner.push(element(ind, 'skipped', { message: s.a.message ?? 'skipped on both sides' }));
  } else if (open.length) {
    inner.push(
      element(
        ind,
        'failure',
        { message: `${plural(open.length, 'divergence')}`, type: 'divergence' },
        divergenceTable(open, '', 200).join('\n'),
      ),
    );
  }
  if (accepted.length)
    inner.push(
      element(ind, 'system-out', {}, ['accepted divergences:', ...divergenceTable(accepted, '', 200)].join('\n')),
    );
  return element('    ', 'testcase', { classname: s.file, name: s.name, file: s.file }, inner);
}

/**
 * JUnit XML: one `<testsuite>` named after the two sides, one `<testcase>` per scenario. Divergences
 * that are not accepted make a `<failure type="divergence">` listing them; an infrastructure error
 * on either side an `<error type="infrastructure">`; scenarios skipped on both sides `<skipped/>`.
 * Accepted divergences are listed in the testcase's `<system-out>`, stale accept entries in the
 * suite's `<system-err>`.
 */
export function diffToJUnit(r: DiffResult): string {
  const s = r.summary;
  const skipped = r.scenarios.filter((x) => x.status === 'skipped').length;
  const children = r.scenarios.map(testcase);
  if (r.stale.length) children.push(element('    ', 'system-err', {}, r.stale.map(staleLine).join('\n')));
  const name = `saltnet diff: A = ${describeSide(r.a)}, B = ${describeSide(r.b)}`;
  const counts = { tests: s.scenarios, failures: s.diverged, errors: s.errors, skipped };
  const suite = element('  ', 'testsuite', { name, ...counts }, children);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element('', 'testsuites', { name: 'saltnet diff', ...counts }, [suite])}\n`;
}
