// `saltnet fuzz`: draw programs from a seed (program.ts), run them all on two sides at once through the comparison
// `saltnet diff` uses (diffScenarios, accept rules included), and shrink each program that diverged to the smallest
// scenario file that still diverges the same way (shrink.ts), written to the out folder. With `invariants`, each
// program runs on side A only and is checked against what any chain must keep (invariants.ts) instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { diffScenarios, runOneSide, type DiffHooks, type DiffOptions } from '../diff/diff.js';
import { describeSide } from '../diff/report.js';
import type { Divergence, ScenarioDiff } from '../diff/types.js';
import type { ScenarioResult } from '../scenario/types.js';
import type { FuzzStep } from './forms.js';
import { checkInvariants, type Violation } from './invariants.js';
import { generateProgram, programYaml, withInvariants, type FuzzProgram } from './program.js';
import { shrink } from './shrink.js';
import { counted } from '../common/describe.js';

export interface FuzzOptions {
  /** Program i (from 0) is drawn from seed + i. */
  seed: number;
  programs: number;
  steps: number;
  /** Both sides and their testnet options, as for diffScenarios (its hooks are the fuzzer's: `progress`). */
  diff: Omit<DiffOptions, 'hooks'>;
  /** One side only (A), checked against the invariants. */
  invariants?: boolean;
  /** Where the shrunk programs go (one file per divergence); undefined: not shrunk. */
  out?: string;
  /** Where the drawn programs and the shrinker's candidates are written. */
  workDir: string;
  /** The most candidate runs when shrinking one program. */
  shrinkRuns: number;
  /** A line per program, and the shrinker's progress. */
  line(s: string): void;
  /** A line each time a side finishes a drawn program (a side runs them all before the other starts). */
  progress?(s: string): void;
}

export interface Finding {
  /** 1-based step of the program as run. */
  step?: number;
  /** The step's kind (`transfer`, `call get_transfer_by_txid`…). */
  action: string;
  path: string;
  a: string;
  b: string;
  kind: string;
}

export interface ProgramOutcome {
  index: number;
  seed: number;
  steps: number;
  /** same: no divergence; diverged; error: the infrastructure let a side down; violated: an invariant broke. */
  status: 'same' | 'diverged' | 'error' | 'violated';
  /** Steps compared (or run, one side) of the program's steps. */
  compared: number;
  first?: Finding;
  violations?: Violation[];
  message?: string;
  shrunk?: { file: string; steps: number; runs: number; reproduced: boolean };
}

export interface FuzzReport {
  seed: number;
  a: string;
  b?: string;
  programs: ProgramOutcome[];
  steps: number;
  divergences: number;
  errors: number;
}

const STEP_FIELDS = new Set(['name', 'wallet', 'node', 'expect', 'expect_error', 'save']);

/** A step's kind as reports name it: its action key, with the method of a `call`. */
export function stepAction(step: FuzzStep | undefined): string {
  if (!step) return '?';
  const key = Object.keys(step).find((k) => !STEP_FIELDS.has(k)) ?? '?';
  const call = key === 'call' ? (step.call as { method?: string; path?: string }) : undefined;
  const what = call?.method ?? call?.path;
  return what ? `call ${what}` : key;
}

function finding(p: FuzzProgram, d: Divergence): Finding {
  return {
    ...(d.step !== undefined ? { step: d.step } : {}),
    action: d.step !== undefined ? stepAction(p.steps[d.step - 1]) : '(scenario)',
    path: d.path,
    a: d.a,
    b: d.b,
    kind: d.kind,
  };
}

/** What makes two divergences the same one as steps come and go: the step's kind and the path, indices aside. */
const signature = (f: Finding): string => `${f.action}|${f.path.replace(/\[\d+\]/g, '[]')}|${f.kind}`;

const open = (d: ScenarioDiff): Divergence[] => d.divergences.filter((x) => !x.accepted);

function fileOf(dir: string, p: FuzzProgram, tag: string): string {
  return join(dir, `fuzz-${p.seed}${tag}.yaml`);
}

/** The program as the sides run it (with the invariant steps in one-side mode). */
const asRun = (o: FuzzOptions, p: FuzzProgram): FuzzProgram => (o.invariants ? withInvariants(p) : p);

function write(o: FuzzOptions, p: FuzzProgram, tag: string, header: string[] = []): string {
  const file = fileOf(o.workDir, p, tag);
  writeFileSync(file, programYaml(asRun(o, p), header));
  return file;
}

function sidesLine(o: FuzzOptions): string {
  const d = o.diff;
  const level = d.difficulty !== undefined ? `, difficulty ${d.difficulty}` : '';
  return o.invariants
    ? `side: ${describeSide(d.a)} alone, invariants checked${level}`
    : `sides: A = ${describeSide(d.a)}, B = ${describeSide(d.b)}${level}`;
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

function describeFinding(f: Finding): string {
  const at = f.step !== undefined ? `step ${f.step} (${f.action})` : 'the scenario';
  return `${at} ${f.path}: A ${f.a}, B ${f.b}`;
}

/** How a program ended on both sides (or one). */
function outcomeOf(
  o: FuzzOptions,
  index: number,
  p: FuzzProgram,
  d: ScenarioDiff | undefined,
  r?: ScenarioResult,
): ProgramOutcome {
  const base = { index, seed: p.seed, steps: p.steps.length };
  if (o.invariants) {
    if (!r || r.status === 'error' || r.status === 'interrupted')
      return { ...base, status: 'error', compared: 0, message: r?.failure?.message ?? 'not run' };
    const run = asRun(o, p);
    const violations = checkInvariants(run, r);
    const compared = r.steps.filter((s) => s.status !== 'skipped').length;
    return violations.length
      ? { ...base, status: 'violated', compared, violations }
      : { ...base, status: 'same', compared, ...(r.status !== 'passed' ? { message: r.failure?.message ?? '' } : {}) };
  }
  if (!d || d.status === 'error')
    return { ...base, status: 'error', compared: 0, message: d?.a.message ?? d?.b.message ?? 'not run' };
  const divs = open(d);
  if (!divs.length) return { ...base, status: 'same', compared: d.stepsCompared };
  return { ...base, status: 'diverged', compared: d.stepsCompared, first: finding(p, divs[0]!) };
}

/** Run the programs (each one file) on the sides: their outcomes, by file. */
async function runAll(
  o: FuzzOptions,
  files: string[],
  hooks?: DiffHooks,
): Promise<{ diffs: Map<string, ScenarioDiff>; results: Map<string, ScenarioResult> }> {
  const diff = hooks ? { ...o.diff, hooks } : o.diff;
  if (o.invariants) {
    const rs = await runOneSide(files, diff);
    return { diffs: new Map(), results: new Map(rs.map((r) => [r.file, r])) };
  }
  const r = await diffScenarios(files, diff);
  return { diffs: new Map(r.scenarios.map((s) => [s.file, s])), results: new Map() };
}

/**
 * Whether a candidate still shows the program's first divergence (a divergence of the same step kind and path), or a
 * violation of the same rule; `kept` is the outcome of the last candidate that did.
 */
function stillFails(o: FuzzOptions, first: ProgramOutcome) {
  const state: { n: number; kept?: ProgramOutcome } = { n: 0 };
  const test = async (candidate: FuzzProgram): Promise<boolean> => {
    const file = resolve(write(o, candidate, `-shrink-${++state.n}`));
    const { diffs, results } = await runAll(o, [file]);
    const got = outcomeOf(o, first.index, candidate, diffs.get(file), results.get(file));
    let same: boolean;
    if (o.invariants) same = (got.violations ?? []).some((v) => first.violations?.some((w) => w.rule === v.rule));
    else {
      const d = diffs.get(file);
      const want = signature(first.first!);
      same = !!d && got.status === 'diverged' && open(d).some((x) => signature(finding(candidate, x)) === want);
      // The header shows the divergence that was shrunk for, not another one the candidate shows first.
      const match = d && open(d).find((x) => signature(finding(candidate, x)) === want);
      if (match) got.first = finding(candidate, match);
    }
    if (same) state.kept = got;
    return same;
  };
  return { test, state };
}

function header(
  o: FuzzOptions,
  p: FuzzProgram,
  first: ProgramOutcome,
  shrunkOutcome: ProgramOutcome | undefined,
  runs: number,
): string[] {
  const lines = [
    `saltnet fuzz: program ${first.index + 1} of seed ${o.seed}; its own seed ${p.seed} (saltnet fuzz --seed ${p.seed} --programs 1 --steps ${o.steps} draws it again)`,
    sidesLine(o),
    shrunkOutcome
      ? `shrunk from ${first.steps} steps to ${p.steps.length} in ${counted(runs, 'run')}`
      : `not shrunk: ${runs ? `it did not ${o.invariants ? 'break the invariant' : 'diverge'} when run alone (${plural(runs, 'run')})` : 'as drawn'}`,
  ];
  const shown = shrunkOutcome ?? first;
  if (shown.first) lines.push(`divergence: ${describeFinding(shown.first)}`);
  for (const v of shown.violations ?? [])
    lines.push(`invariant broken (${v.rule})${v.step ? ` at step ${v.step}` : ''}: ${v.detail}`);
  return lines.map((l) => l.replace(/\n/g, ' '));
}

/** Shrink a divergent program and write it to the out folder. */
async function shrinkOne(o: FuzzOptions, p: FuzzProgram, first: ProgramOutcome): Promise<ProgramOutcome['shrunk']> {
  const { test, state } = stillFails(o, first);
  // The program alone first: a divergence that needs the programs run before it on the shared chain is kept as drawn.
  const alone = o.shrinkRuns > 0 && (await test(p));
  let best = p;
  let runs = o.shrinkRuns > 0 ? 1 : 0;
  if (alone) {
    const s = await shrink(p, { test, budget: o.shrinkRuns - 1, log: o.line });
    best = s.program;
    runs += s.runs;
  }
  mkdirSync(o.out!, { recursive: true });
  const file = join(o.out!, `fuzz-${p.seed}.yaml`);
  writeFileSync(file, programYaml(asRun(o, best), header(o, best, first, alone ? state.kept : undefined, runs)));
  return { file, steps: best.steps.length, runs, reproduced: alone };
}

function programLine(r: ProgramOutcome): string {
  const head = `program ${r.index + 1} seed ${r.seed}: ${plural(r.steps, 'step')}, `;
  const compared = r.compared < r.steps ? ` (${r.compared} of them compared)` : '';
  switch (r.status) {
    case 'same':
      return `${head}same${compared}`;
    case 'diverged':
      return `${head}diverged at ${describeFinding(r.first!)}`;
    case 'violated':
      return `${head}invariant broken: ${r.violations!.map((v) => `${v.rule}${v.step ? ` at step ${v.step}` : ''}: ${v.detail}`).join('; ')}`;
    default:
      return `${head}error: ${r.message ?? ''}`;
  }
}

export async function runFuzz(o: FuzzOptions): Promise<FuzzReport> {
  mkdirSync(o.workDir, { recursive: true });
  o.line(
    `saltnet fuzz: seed ${o.seed}, ${plural(o.programs, 'program')} of ${plural(o.steps, 'step')}; ${sidesLine(o)}`,
  );
  const programs = Array.from({ length: o.programs }, (_, i) => generateProgram(o.seed + i, { steps: o.steps }));
  const files = programs.map((p) => resolve(write(o, p, '')));
  const done = { a: 0, b: 0 };
  const progress: DiffHooks | undefined = o.progress && {
    scenarioEnd: (side, r) =>
      o.progress!(
        `side ${side.toUpperCase()}: ${++done[side]} of ${counted(files.length, 'program')} run (${r.name}: ${r.status})`,
      ),
  };
  const { diffs, results } = await runAll(o, files, progress);
  const outcomes = programs.map((p, i) => outcomeOf(o, i, p, diffs.get(files[i]!), results.get(files[i]!)));
  for (const r of outcomes) o.line(programLine(r));
  // Then each divergent program shrunk, one after the other (each candidate is a run on the sides).
  for (const r of outcomes) {
    if (!o.out || (r.status !== 'diverged' && r.status !== 'violated')) continue;
    o.line(`shrinking program ${r.index + 1} (seed ${r.seed})`);
    r.shrunk = await shrinkOne(o, programs[r.index]!, r);
    o.line(
      `  ${r.shrunk!.reproduced ? `shrunk to ${plural(r.shrunk!.steps, 'step')}` : 'kept as drawn'}: ${r.shrunk!.file}`,
    );
  }
  const report: FuzzReport = {
    seed: o.seed,
    a: describeSide(o.diff.a),
    ...(o.invariants ? {} : { b: describeSide(o.diff.b) }),
    programs: outcomes,
    steps: outcomes.reduce((n, r) => n + r.steps, 0),
    divergences: outcomes.filter((r) => r.status === 'diverged' || r.status === 'violated').length,
    errors: outcomes.filter((r) => r.status === 'error').length,
  };
  return report;
}

/** The closing line: `fuzz: P programs, S steps, D divergences` (and the errors, if any). */
export function fuzzSummaryLine(r: FuzzReport): string {
  const errors = r.errors ? `, ${plural(r.errors, 'error')}` : '';
  return `fuzz: ${plural(r.programs.length, 'program')}, ${plural(r.steps, 'step')}, ${plural(r.divergences, 'divergence')}${errors}`;
}
