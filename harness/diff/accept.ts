// The accept file (`saltnet.diff-accept.yaml`, or `--accept FILE`): known divergences between the
// two sides that do not fail a diff. Each entry names a scenario, optionally a step, a path in the
// answer and (required) why it is accepted:
//
//   accept:
//     - scenario: scenarios/token-creator-balance.yaml     # a name, or a glob of names or files
//       step: 4                                            # 1-based, or a step name; absent: every step
//       path: result.balances[*].blocks_to_unlock
//       reason: the simulator's change unlocks one block earlier (#123)
//
// A bad file is reported with file:line:col for every problem, as scenario and config files are.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { Locator } from '../common/locator.js';
import { formatPath, type PathSegment } from '../common/path.js';
import { describeValue } from '../common/describe.js';
import { suggest } from '../common/suggest.js';
import { fileGlob, isGlob, pathGlob, pathGlobProblem } from './glob.js';
import type { AcceptEntry, AcceptPos, Divergence, ScenarioDiff } from './types.js';

/** Looked for in the working directory when `--accept` is not given. */
export const DEFAULT_ACCEPT_FILE = 'saltnet.diff-accept.yaml';

export interface AcceptProblem {
  pos: AcceptPos;
  /** `accept[2].reason` */
  path: string;
  message: string;
  expected?: string;
}

export class AcceptFileError extends Error {
  constructor(readonly problems: AcceptProblem[]) {
    super(
      problems
        .map(
          (p) =>
            `${p.pos.file}:${p.pos.line}:${p.pos.col}: ${p.path}: ${p.message}${p.expected && !p.message.includes(p.expected) ? ` (expected ${p.expected})` : ''}`,
        )
        .join('\n'),
    );
    this.name = 'AcceptFileError';
  }
}

const FIELDS = {
  scenario: 'a scenario name, or a glob of scenario names or files, e.g. scenarios/balances.yaml',
  step: 'a step number (1 is the first step) or a step name',
  path: 'a path in the answer, e.g. result.balances[*].blocks_to_unlock, or (status)',
  reason: 'why this divergence is accepted (text, not empty)',
} as const;
const FIELD_NAMES = Object.keys(FIELDS);

const text = z.string().trim().min(1);
const entrySchema = z.strictObject({
  scenario: text,
  step: z.union([z.number().int().min(1), text]).optional(),
  path: text.refine((p) => pathGlobProblem(p) === undefined),
  reason: text,
});
const fileSchema = z.strictObject({ accept: z.array(entrySchema) });

type Issue = { path: PathSegment[]; at: 'key' | 'value' | 'parent'; message: string; expected?: string };

function valueAt(data: unknown, path: readonly PathSegment[]): unknown {
  let v = data;
  for (const seg of path)
    v = typeof v === 'object' && v !== null ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

function issuesOf(data: unknown): Issue[] {
  const r = fileSchema.safeParse(data);
  if (r.success) return [];
  const seen = new Set<string>();
  const out: Issue[] = [];
  // `accepted: […]` is one problem, the misspelt key, not also a missing `accept`.
  const misspelt = r.error.issues.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0);
  for (const i of r.error.issues) {
    if (misspelt && i.path.length === 1 && i.path[0] === 'accept' && valueAt(data, ['accept']) === undefined) continue;
    const path = i.path.filter((s): s is PathSegment => typeof s !== 'symbol');
    const field = path.length === 3 ? String(path[2]) : undefined;
    let issue: Issue;
    if (i.code === 'unrecognized_keys') {
      for (const k of i.keys) {
        const close = suggest(k, path.length === 0 ? ['accept'] : FIELD_NAMES);
        out.push({
          path: [...path, k],
          at: 'key',
          message: `unknown key "${k}"${close ? ` (did you mean "${close}"?)` : ''}`,
          expected: path.length === 0 ? 'accept: a list of entries' : `the keys ${FIELD_NAMES.join(', ')}`,
        });
      }
      continue;
    }
    const actual = valueAt(data, path);
    if (field && field in FIELDS) {
      const expected = FIELDS[field as keyof typeof FIELDS];
      const bad = field === 'path' && typeof actual === 'string' ? pathGlobProblem(actual.trim()) : undefined;
      issue =
        actual === undefined
          ? {
              path,
              at: 'parent',
              message: field === 'reason' ? 'missing: say why this divergence is accepted' : 'missing',
              expected,
            }
          : { path, at: 'value', message: bad ?? `expected ${expected}, got ${describeValue(actual)}`, expected };
    } else if (path.length === 2) {
      issue = {
        path,
        at: 'value',
        message: `an entry is a mapping of ${FIELD_NAMES.join(', ')}, not ${describeValue(actual)}`,
        expected: 'a mapping',
      };
    } else {
      issue = {
        path,
        at: 'value',
        message: `expected a list of entries under accept:, got ${describeValue(actual)}`,
        expected: 'accept: [ { scenario, step, path, reason }, … ]',
      };
    }
    const id = JSON.stringify(issue.path);
    if (!seen.has(id)) out.push(issue);
    seen.add(id);
  }
  return out;
}

/** Parse and validate an accept file's text; throws an AcceptFileError listing every problem with its position. */
export function parseAcceptFile(source: string, file: string): AcceptEntry[] {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const loc = new Locator(doc, lines, file);
  if (doc.errors.length) {
    const seen = new Set<number>();
    throw new AcceptFileError(
      doc.errors.flatMap((e) => {
        const pos = loc.pos(e.pos[0]);
        if (seen.has(pos.line)) return [];
        seen.add(pos.line);
        return [
          { pos, path: '(yaml)', message: `YAML: ${e.message.replace(/\s+/g, ' ').trim()}`, expected: 'valid YAML' },
        ];
      }),
    );
  }
  const data: unknown = doc.toJS({ maxAliasCount: 1000 });
  if (data === null || data === undefined) return [];
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new AcceptFileError([
      {
        pos: loc.pos(0),
        path: '(file)',
        message: `an accept file is a mapping with one key, accept: (a list of entries), not ${describeValue(data)}`,
        expected: 'accept: [ { scenario, step, path, reason }, … ]',
      },
    ]);
  }
  const issues = issuesOf(data);
  if (issues.length) {
    const problems = issues.map((i) => ({
      pos: loc.locate(i.path, i.at),
      path: formatPath(i.path) || '(file)',
      message: i.message,
      ...(i.expected ? { expected: i.expected } : {}),
    }));
    throw new AcceptFileError(problems.sort((x, y) => x.pos.line - y.pos.line || x.pos.col - y.pos.col));
  }
  const entries = (data as { accept: Omit<AcceptEntry, 'pos'>[] }).accept;
  return entries.map((e, i) => ({
    scenario: e.scenario.trim(),
    ...(e.step !== undefined ? { step: typeof e.step === 'string' ? e.step.trim() : e.step } : {}),
    path: e.path.trim(),
    reason: e.reason.trim(),
    pos: loc.locate(['accept', i], 'value'),
  }));
}

/** Read and validate an accept file (see parseAcceptFile). */
export async function loadAcceptFile(file: string): Promise<AcceptEntry[]> {
  let source: string;
  try {
    source = await readFile(file, 'utf8');
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'it is a folder' : err.message;
    throw new AcceptFileError([
      { pos: { file, line: 1, col: 1 }, path: '(file)', message: `cannot read the accept file: ${why}` },
    ]);
  }
  return parseAcceptFile(source, file);
}

/**
 * Whether the entry names this scenario: by name (exact or glob), or by file glob relative to the accept file's folder.
 */
export function matchesScenario(e: AcceptEntry, s: { name: string; file: string }): boolean {
  if (e.scenario === s.name) return true;
  if (isGlob(e.scenario) && fileGlob(e.scenario).test(s.name)) return true;
  return fileGlob(resolve(dirname(e.pos.file), e.scenario)).test(resolve(s.file));
}

function matchesDivergence(e: AcceptEntry, d: Divergence): boolean {
  if (e.step !== undefined) {
    if (
      typeof e.step === 'number'
        ? d.step !== e.step
        : d.stepName === undefined || !(d.stepName === e.step || (isGlob(e.step) && fileGlob(e.step).test(d.stepName)))
    )
      return false;
  }
  return pathGlob(e.path).test(d.path);
}

/**
 * Mark the divergences the entries cover as accepted (the first matching entry gives the reason)
 * and settle each scenario's status. Returns the stale entries: those that name a compared
 * scenario (one that did not end in an infrastructure error) but matched none of its divergences.
 */
export function applyAccept(scenarios: ScenarioDiff[], entries: readonly AcceptEntry[]): AcceptEntry[] {
  const used = new Set<AcceptEntry>();
  const relevant = new Set<AcceptEntry>();
  for (const s of scenarios) {
    const mine = entries.filter((e) => matchesScenario(e, s));
    if (s.status !== 'error') for (const e of mine) relevant.add(e);
    for (const d of s.divergences) {
      const e = mine.find((x) => matchesDivergence(x, d));
      if (!e) continue;
      used.add(e);
      d.accepted = { reason: e.reason, pos: e.pos };
    }
    if (s.status === 'error' || s.status === 'skipped') continue;
    s.status = s.divergences.length === 0 ? 'same' : s.divergences.every((d) => d.accepted) ? 'accepted' : 'diverged';
  }
  return entries.filter((e) => relevant.has(e) && !used.has(e));
}
