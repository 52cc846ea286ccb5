// The reports of a suite's shards (`saltnet run --shard i/n` on separate runners) joined into one, as
// `saltnet report merge` writes it: every scenario once, in file order, the totals recomputed.
// The JUnit side reads two fixed layouts: what `toJUnit` writes (one `<testsuite>` per scenario, two spaces in, its
// file in a `file` attribute) and what vitest's junit reporter writes (one `<testsuite>` per test file, four spaces
// in, named after the file), every attribute value escaped in both; so the shards of a vitest suite, and the
// scenarios and vitest files of one CI run, join into one JUnit file. The package ships no XML parser, and a report
// in another layout is refused rather than half understood.
import type { ScenarioResult, ScenarioStatus } from '../types.js';
import { parseJsonReport, toJson } from './json.js';
import { escapeXmlAttr } from './junit.js';
import { seconds } from './text.js';

/** One shard's report: where it was read from (named in every error) and its text. */
export interface ShardReport {
  path: string;
  text: string;
}

export type ReportFormat = 'json' | 'junit';

/** The format a report's text is in, by its first character: `{` JSON, `<` XML; else undefined. */
export function reportFormatOf(text: string): ReportFormat | undefined {
  const first = text.trimStart()[0];
  return first === '{' ? 'json' : first === '<' ? 'junit' : undefined;
}

const STATUSES: readonly ScenarioStatus[] = ['passed', 'failed', 'error', 'interrupted', 'skipped'];

/** Which report first held each scenario (or vitest test) file; a second one is a shard overlap. */
class Seen {
  private readonly at = new Map<string, string>();

  /** `what` names the file in an error: `the scenario "name" (file)`, `the test file file`. */
  add(file: string, what: string, path: string): void {
    const before = this.at.get(file);
    if (before !== undefined)
      throw new Error(
        before === path
          ? `${path}: ${what} is in it twice`
          : `${path} and ${before} both ran ${what}: the shards overlap; ` +
              'merge the reports of one split of the suite (--shard 1/n … n/n)',
      );
    this.at.set(file, path);
  }
}

const scenarioWords = (name: string, file: string): string => `the scenario ${JSON.stringify(name)} (${file})`;

function checkResult(r: unknown, i: number, path: string): ScenarioResult {
  const o = r as Partial<ScenarioResult> | null;
  const bad = (what: string): Error => new Error(`${path}: results[${i}] ${what}: not a saltnet JSON report`);
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw bad('is not an object');
  if (typeof o.file !== 'string' || o.file === '') throw bad('has no file');
  if (typeof o.name !== 'string') throw bad('has no name');
  if (!STATUSES.includes(o.status as ScenarioStatus))
    throw bad(`has the status ${JSON.stringify(o.status)} (expected one of ${STATUSES.join(', ')})`);
  if (typeof o.ms !== 'number') throw bad('has no ms');
  if (!Array.isArray(o.steps)) throw bad('has no steps');
  return o as ScenarioResult;
}

/** The results of JSON reports written by `toJson`, every scenario once, sorted by file (as an unsharded run). */
export function mergedResults(reports: readonly ShardReport[]): ScenarioResult[] {
  const seen = new Seen();
  const all: ScenarioResult[] = [];
  for (const { path, text } of reports) {
    let doc;
    try {
      doc = parseJsonReport(text);
    } catch (err) {
      const why = err instanceof SyntaxError ? `not valid JSON (${err.message})` : (err as Error).message;
      throw new Error(`${path}: ${why}`, { cause: err });
    }
    doc.results.forEach((r, i) => {
      const res = checkResult(r, i, path);
      seen.add(res.file, scenarioWords(res.name, res.file), path);
      all.push(res);
    });
  }
  return byFile(all, (r) => r.file);
}

/** The JSON reports joined into one `toJson` document; its summary counts the merged results. */
export function mergeJsonReports(reports: readonly ShardReport[]): string {
  return toJson(mergedResults(reports));
}

function byFile<T>(items: T[], file: (t: T) => string): T[] {
  return items
    .map((t, i) => ({ t, i }))
    .sort((a, b) => (file(a.t) < file(b.t) ? -1 : file(a.t) > file(b.t) ? 1 : a.i - b.i))
    .map((x) => x.t);
}

const HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
/** vitest's junit reporter: a space before `?>`, and its root element named so. */
const VITEST_HEAD = '<?xml version="1.0" encoding="UTF-8" ?>\n';
const VITEST_ROOT = 'vitest tests';
const ROOT = /^<testsuites((?: [a-z]+="[^"<>]*")*)(\/>|>\n([\s\S]*)\n<\/testsuites>)\n?$/;
/** A `<testsuite>` element, two spaces in (saltnet's) or four (vitest's), its closing tag as far in. */
const SUITE = /^( {2}| {4})<testsuite((?: [a-z]+="[^"<>]*")*)>(?:\n[\s\S]*?)?\n\1<\/testsuite>$/gm;
const COUNTS = ['tests', 'failures', 'errors', 'skipped'] as const;

function unescapeXml(s: string): string {
  return s.replace(/&(#\d+|lt|gt|quot|apos|amp);/g, (_, e: string) =>
    e.startsWith('#')
      ? String.fromCharCode(Number(e.slice(1)))
      : ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' } as Record<string, string>)[e]!,
  );
}

function attributes(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/ ([a-z]+)="([^"]*)"/g)) out[m[1]!] = unescapeXml(m[2]!);
  return out;
}

interface Suite {
  xml: string;
  /** Written by vitest's junit reporter: the suite of a test file. */
  vitest: boolean;
  file: string;
  name: string;
  counts: Record<(typeof COUNTS)[number], number>;
  ms: number;
}

function suiteOf(xml: string, attrText: string, path: string, vitest: boolean): Suite {
  const a = attributes(attrText);
  const where = `${path}: <testsuite name="${a.name ?? '?'}">`;
  // vitest names a suite after its test file (relative to the root) and says nothing else of it.
  if (vitest && a.name !== undefined) a.file ??= a.name;
  if (a.file === undefined || a.name === undefined) throw new Error(`${where} has no file or name attribute`);
  const counts = {} as Suite['counts'];
  for (const k of COUNTS) {
    if (!/^\d+$/.test(a[k] ?? '')) throw new Error(`${where}: ${k}="${a[k] ?? ''}" is not a count`);
    counts[k] = Number(a[k]);
  }
  if (!/^\d+(\.\d+)?$/.test(a.time ?? '')) throw new Error(`${where}: time="${a.time ?? ''}" is not seconds`);
  return { xml, vitest, file: a.file, name: a.name, counts, ms: Math.round(Number(a.time) * 1000) };
}

function junitSuites(path: string, text: string): { name: string; suites: Suite[] } {
  const notOurs = (why: string): Error =>
    new Error(
      `${path}: not a saltnet JUnit report (${why}); merge the reports saltnet run --reporter junit or vitest's ` +
        'junit reporter wrote',
    );
  const head = [HEAD, VITEST_HEAD].find((h) => text.startsWith(h));
  if (!head) throw notOurs(`it does not begin with ${JSON.stringify(HEAD.trim())}`);
  const root = ROOT.exec(text.slice(head.length));
  if (!root) throw notOurs('no <testsuites> element as saltnet or vitest writes it, or text after it');
  const name = attributes(root[1]!).name ?? 'saltnet';
  const vitest = head === VITEST_HEAD && name === VITEST_ROOT;
  const body = root[3] ?? '';
  const suites: Suite[] = [];
  for (const m of body.matchAll(SUITE)) {
    if ((m[1] === '    ') !== vitest) throw notOurs(`a <testsuite> ${m[1]!.length} spaces in`);
    suites.push(suiteOf(m[0], m[2]!, path, vitest));
  }
  const rest = body.replace(SUITE, '').trim();
  if (rest !== '') throw notOurs(`unexpected content in <testsuites>: ${JSON.stringify(rest.slice(0, 60))}`);
  return { name, suites };
}

/**
 * JUnit reports written by `toJUnit` or vitest's junit reporter joined into one: their `<testsuite>` elements as they
 * are, sorted by file, under one `<testsuites>` (named as the first report's) whose tests, failures, errors, skipped
 * and time are the sums of theirs.
 */
export function mergeJUnitReports(reports: readonly ShardReport[]): string {
  const seen = new Seen();
  const all: Suite[] = [];
  let name: string | undefined;
  for (const { path, text } of reports) {
    const r = junitSuites(path, text);
    name ??= r.name;
    for (const s of r.suites) {
      seen.add(s.file, s.vitest ? `the test file ${s.file}` : scenarioWords(s.name, s.file), path);
      all.push(s);
    }
  }
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0, ms: 0 };
  for (const s of all) {
    for (const k of COUNTS) total[k] += s.counts[k];
    total.ms += s.ms;
  }
  const attrs =
    ` name="${escapeXmlAttr(name ?? 'saltnet')}"` +
    COUNTS.map((k) => ` ${k}="${total[k]}"`).join('') +
    ` time="${seconds(total.ms, 3)}"`;
  const suites = byFile(all, (s) => s.file);
  const root = suites.length
    ? `<testsuites${attrs}>\n${suites.map((s) => s.xml).join('\n')}\n</testsuites>`
    : `<testsuites${attrs}/>`;
  return `${HEAD}${root}\n`;
}

/** The reports joined into one in `format`; a report in the other format is named. */
export function mergeReports(reports: readonly ShardReport[], format: ReportFormat): string {
  reports.forEach((r, i) => {
    if (reports.findIndex((o) => o.path === r.path) !== i)
      throw new Error(`${r.path} is given twice: give each shard's report once`);
  });
  for (const r of reports) {
    const f = reportFormatOf(r.text);
    if (f === undefined) throw new Error(`${r.path}: not a saltnet report (neither JSON nor JUnit XML)`);
    if (f !== format)
      throw new Error(
        `${r.path} is a ${f === 'json' ? 'JSON' : 'JUnit'} report; every report merged must be ${format} (--reporter, or run.reporter of the config file)`,
      );
  }
  return format === 'json' ? mergeJsonReports(reports) : mergeJUnitReports(reports);
}
