// `diffScenarios`: run the same scenario files on two sides (two backends, or one backend with two
// bin dirs) with the scenario runner, one after the other — a simulator side last, following the draws
// the other side's wallet made (replay.ts) —, then pair the results — scenario by file, step by
// index — and compare each step's status and answer (compare.ts, rules.ts).
// `diffAgainstRecording`: the same with side B read from a recording (recording.ts) instead of run.
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { suiteChain } from '../scenario/needs.js';
import type { RunnerOptions, StepReplay } from '../runner/options.js';
import { runFiles } from '../runner/run-scenarios.js';
import type { ScenarioResult, StepResult } from '../scenario/types.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import type { BackendSpec } from '../coin/backends.js';
import type { TestnetOptions } from '../testnet/types.js';
import { applyAccept, loadAcceptFile } from './accept.js';
import { builtTxids } from './inputs.js';
import { ABSENT, compareAnswers } from './compare.js';
import { readRecording } from './recording.js';
import { replayFrom } from './replay.js';
import { checkScenarios, planAgainst } from './recording-check.js';
import type { AcceptEntry, DiffResult, DiffSide, Divergence, ScenarioDiff, SideOutcome } from './types.js';

export type SideName = 'a' | 'b';

export interface DiffHooks {
  /** A side starts running its scenarios. */
  sideStart?(side: SideName, s: DiffSide): void;
  scenarioEnd?(side: SideName, r: ScenarioResult): void;
}

/**
 * Both sides' testnet options (TestnetOptions: difficulty, mining, the chain-state cache both use — each backend and
 * build has its own entries in it —, …), each side's backend and programs (DiffSide), and the diff's own options.
 */
export interface DiffOptions extends Omit<TestnetOptions, 'backend' | 'binDir' | 'log'> {
  a: DiffSide;
  b: DiffSide;
  /** As for `saltnet run` (default `shared`). */
  isolation?: 'shared' | 'fresh';
  /**
   * Each side's artifact folders go under `<artifactsRoot>/a` and `<artifactsRoot>/b` (default: the temporary folder).
   */
  artifactsRoot?: string;
  /** Accepted divergences: the entries, or the path of an accept file (accept.ts). */
  accept?: readonly AcceptEntry[] | string;
  /** Progress lines of the testnets (which backend, building the chain…). */
  log?: (line: string) => void;
  hooks?: DiffHooks;
}

const firstLine = (s: string | undefined): string | undefined => s?.split('\n', 1)[0];

function outcome(r: ScenarioResult): SideOutcome {
  const o: SideOutcome = { status: r.status, backend: r.backend };
  const message =
    r.status === 'passed'
      ? undefined
      : firstLine(r.failure?.message ?? r.steps.find((s) => s.status === 'failed')?.failure?.message);
  if (message) o.message = message;
  if (r.artifactDir) o.artifactDir = r.artifactDir;
  return o;
}

function stepStatus(s: StepResult | undefined): string {
  if (!s) return ABSENT;
  return s.status === 'failed' ? `failed: ${firstLine(s.failure?.message) ?? 'step failed'}` : s.status;
}

function scenarioStatus(o: SideOutcome): string {
  if (!o.message) return o.status;
  return o.message.startsWith(`${o.status}: `) ? o.message : `${o.status}: ${o.message}`;
}

/**
 * The divergences of one step pair. A step that ran on both sides: its status, and (same status) its
 * answer. A step whose status differs is one divergence, whatever its answers: the failure says why.
 * A step one side skipped (after its own failure) while the other ran it is not a divergence: undefined.
 */
function compareStep(
  sa: StepResult | undefined,
  sb: StepResult | undefined,
  followed: boolean,
  built: { a: ReadonlySet<string>; b: ReadonlySet<string> },
): Divergence[] | undefined {
  const any = (sa ?? sb)!;
  const where = { step: any.index + 1, stepName: any.name };
  const [a, b] = [sa?.status ?? 'skipped', sb?.status ?? 'skipped'];
  if (a !== b && (a === 'skipped' || b === 'skipped')) return undefined;
  if (a !== b) return [{ ...where, path: '(status)', kind: 'status', a: stepStatus(sa), b: stepStatus(sb) }];
  return compareAnswers(sa!.response, sb!.response, { followed, built }).map((d) => ({ ...where, ...d }));
}

/**
 * One scenario's results on both sides, compared (before accept entries are applied); `followed`: one side took the
 * other's input counts (compareAnswers).
 */
export function compareScenario(ra: ScenarioResult, rb: ScenarioResult, followed = false): ScenarioDiff {
  const d: ScenarioDiff = {
    file: ra.file,
    name: ra.name,
    status: 'same',
    a: outcome(ra),
    b: outcome(rb),
    stepsCompared: 0,
    stepsSkipped: 0,
    divergences: [],
  };
  if (ra.status === 'error' || rb.status === 'error') return { ...d, status: 'error' };
  if (ra.status === 'skipped' && rb.status === 'skipped') return { ...d, status: 'skipped' };
  // Skipped on one side only (written for other backends, no tokens there): nothing to pair its steps with.
  if (ra.status === 'skipped' || rb.status === 'skipped') {
    return {
      ...d,
      status: 'diverged',
      divergences: [{ path: '(status)', kind: 'status', a: scenarioStatus(d.a), b: scenarioStatus(d.b) }],
    };
  }
  const built = {
    a: builtTxids(ra.steps.map((s) => s.response)),
    b: builtTxids(rb.steps.map((s) => s.response)),
  };
  for (let i = 0; i < Math.max(ra.steps.length, rb.steps.length); i++) {
    const [sa, sb] = [ra.steps[i], rb.steps[i]];
    if ((sa?.status ?? 'skipped') === 'skipped' && (sb?.status ?? 'skipped') === 'skipped') continue;
    const found = compareStep(sa, sb, followed, built);
    if (!found) {
      d.stepsSkipped++;
      continue;
    }
    d.stepsCompared++;
    d.divergences.push(...found);
  }
  // A scenario status no step explains (skipped on one side, a file one side could not read…).
  if (ra.status !== rb.status && !d.divergences.some((x) => x.kind === 'status')) {
    d.divergences.unshift({ path: '(status)', kind: 'status', a: scenarioStatus(d.a), b: scenarioStatus(d.b) });
  }
  d.status = d.divergences.length ? 'diverged' : 'same';
  return d;
}

/** A scenario one side has no result for (it was not run there). */
function missing(r: ScenarioResult, backend: string): ScenarioResult {
  return {
    file: r.file,
    name: r.name,
    status: 'error',
    ms: 0,
    backend,
    steps: [],
    failure: { message: 'not run on this side' },
  };
}

/**
 * Compare two runs of the same scenario files (`runFiles` results of side A and side B), pairing
 * scenarios by file and steps by index, and apply the accept entries. `followed`: one side ran with the
 * other's input counts (replay.ts). Pure: no process is started.
 */
export function compareRuns(
  a: readonly ScenarioResult[],
  b: readonly ScenarioResult[],
  o: { a: DiffSide; b: DiffSide; accept?: readonly AcceptEntry[]; followed?: boolean },
): DiffResult {
  const byFile = (rs: readonly ScenarioResult[]): Map<string, ScenarioResult> => new Map(rs.map((r) => [r.file, r]));
  const [ma, mb] = [byFile(a), byFile(b)];
  const files = [...new Set([...ma.keys(), ...mb.keys()])];
  const scenarios = files.map((f) => {
    const [ra, rb] = [ma.get(f), mb.get(f)];
    return compareScenario(ra ?? missing(rb!, o.a.backend), rb ?? missing(ra!, o.b.backend), o.followed);
  });
  const stale = applyAccept(scenarios, o.accept ?? []);
  const all = scenarios.flatMap((s) => s.divergences);
  const summary = {
    scenarios: scenarios.length,
    steps: scenarios.reduce((n, s) => n + s.stepsCompared, 0),
    skipped: scenarios.reduce((n, s) => n + s.stepsSkipped, 0),
    divergences: all.filter((d) => !d.accepted).length,
    accepted: all.filter((d) => d.accepted).length,
    diverged: scenarios.filter((s) => s.status === 'diverged').length,
    errors: scenarios.filter((s) => s.status === 'error').length,
    stale: stale.length,
  };
  return {
    a: o.a,
    b: o.b,
    scenarios,
    stale,
    summary,
    ok: scenarios.length > 0 && summary.diverged === 0 && summary.errors === 0,
  };
}

async function runSide(
  side: SideName,
  files: string[],
  spec: BackendSpec,
  o: DiffOptions & { signal?: AbortSignal },
  root: string,
  replay?: StepReplay,
): Promise<ScenarioResult[]> {
  const s = o[side];
  o.hooks?.sideStart?.(side, s);
  const chain = (o.isolation ?? 'shared') === 'shared' ? await suiteChain(files, spec) : undefined;
  const { a: _a, b: _b, isolation: _i, artifactsRoot: _r, accept: _accept, log: _log, hooks: _h, ...testnet } = o;
  const { recording: _rec, ...own } = s;
  const options: RunnerOptions = {
    ...testnet,
    ...own,
    ...(chain ? { chain } : {}),
    isolation: o.isolation ?? 'shared',
    workers: 1,
    bail: false,
    artifactsRoot: join(root, side),
    log: o.log ?? (() => undefined),
    hooks: { scenarioEnd: (r) => o.hooks?.scenarioEnd?.(side, r) },
    ...(replay ? { replay } : {}),
  };
  return runFiles(files, options);
}

/** The side's backend, or an error that says which side lacks its programs. */
function specOf(side: SideName, s: DiffSide): BackendSpec {
  try {
    return resolveBackend(s.backend, s.binDir).spec;
  } catch (err) {
    const what = s.binDir ? `${s.backend}, bin dir ${s.binDir}` : s.backend;
    throw new Error(
      `side ${side.toUpperCase()} (${what}): ${err instanceof Error ? err.message : String(err)}\n(give that side a folder of its programs, or the sim backend)`,
      { cause: err },
    );
  }
}

/**
 * Run the scenario files on side A, then on side B, and compare them step by step. Both sides'
 * programs are looked up first, so a missing build fails at once rather than after side A ran.
 * A file that does not parse is compared like any failed scenario (it fails the same way on both sides).
 */
export async function diffScenarios(files: string[], o: DiffOptions): Promise<DiffResult> {
  const accept = typeof o.accept === 'string' ? await loadAcceptFile(o.accept) : (o.accept ?? []);
  const abs = files.map((f) => resolve(f));
  const specs = { a: specOf('a', o.a), b: specOf('b', o.b) };
  const root = resolve(o.artifactsRoot ?? join(tmpdir(), 'saltnet-artifacts', 'diff'));
  // A simulator side runs after the other, following its draws; two real sides cannot follow each other.
  const follower: SideName | undefined = specs.b.name === 'sim' ? 'b' : specs.a.name === 'sim' ? 'a' : undefined;
  const leader: SideName = follower === 'a' ? 'b' : 'a';
  const first = await runSide(leader, abs, specs[leader], o, root);
  const replay = follower ? replayFrom(first) : undefined;
  const second = await runSide(follower ?? 'b', abs, specs[follower ?? 'b'], o, root, replay);
  const [a, b] = leader === 'a' ? [first, second] : [second, first];
  return compareRuns(a, b, { a: o.a, b: o.b, accept, followed: replay !== undefined });
}

/** The scenario files on one side only, run as diffScenarios runs that side (`saltnet fuzz --invariants`). */
export async function runOneSide(files: string[], o: DiffOptions, side: SideName = 'a'): Promise<ScenarioResult[]> {
  const root = resolve(o.artifactsRoot ?? join(tmpdir(), 'saltnet-artifacts', 'diff'));
  return runSide(
    side,
    files.map((f) => resolve(f)),
    specOf(side, o[side]),
    o,
    root,
  );
}

export interface AgainstOptions extends Omit<DiffOptions, 'b'> {
  /** The recording folder (recording.ts) that stands for side B. */
  recording: string;
  /** The project root the recording's scenario files are relative to (default: the working directory). */
  root?: string;
}

/**
 * Run the scenario files (default: every scenario of the recording) on side A only and compare them
 * with a recording, step by step. A scenario whose file changed since the recording (another
 * SHA-256), is gone, or is not in the recording is not run: it is reported as an error telling the
 * user to re-record. Side A runs at the recording's difficulty and isolation unless given.
 */
export async function diffAgainstRecording(files: string[] | undefined, o: AgainstOptions): Promise<DiffResult> {
  const accept = typeof o.accept === 'string' ? await loadAcceptFile(o.accept) : (o.accept ?? []);
  const rec = await readRecording(o.recording);
  const b: DiffSide = { backend: rec.manifest.backend, recording: rec.dir };
  const spec = specOf('a', o.a);
  const root = resolve(o.root ?? process.cwd());
  const plan = planAgainst(rec, await checkScenarios(rec, root, files), spec.name);
  const m = rec.manifest;
  const { recording: _recording, root: _root, ...rest } = o;
  const options: DiffOptions = {
    ...rest,
    b,
    difficulty: o.difficulty ?? m.difficulty,
    isolation: o.isolation ?? m.isolation,
  };
  o.log?.(
    `saltnet diff: the recording: ${m.backend}, ${m.version.program}, difficulty ${m.difficulty}, isolation ${m.isolation}, recorded ${m.recordedAt}; side A runs at difficulty ${options.difficulty}, isolation ${options.isolation}`,
  );
  const artifacts = resolve(o.artifactsRoot ?? join(tmpdir(), 'saltnet-artifacts', 'diff'));
  const replay = spec.name === 'sim' ? replayFrom(plan.recorded) : undefined;
  const ran = plan.run.length ? await runSide('a', plan.run, spec, options, artifacts, replay) : [];
  return compareRuns([...ran, ...plan.notRun], plan.recorded, { a: o.a, b, accept, followed: replay !== undefined });
}
