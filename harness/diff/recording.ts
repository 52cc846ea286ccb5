// A recording: one side's results of a scenario run (`runFiles`), kept in a folder so that a later
// `saltnet diff --against <folder>` (or a conformance test) compares a live run with it. The folder
// holds one JSON file per scenario (`balances.json` for scenarios/balances.yaml) and manifest.json:
// the backend, the Salvium version, each program's SHA-256, the difficulty, the date, saltnet's
// version and every scenario file (relative to the project root) with its SHA-256, so a scenario
// changed since the recording is detected instead of being compared with an answer to other steps.
//
// Only what the comparison reads is kept: per scenario its file, name, status, backend and failure
// message; per step its index, name, action, status, failure message and answer. Artifact folders,
// log tails, requests and timings are left out, and the run's machine is scrubbed from what is kept
// (scrub.ts). Integers beyond 2^53 survive. Which scenario files are still those recorded, and what a
// diff against a recording runs, is recording-check.ts.
import { existsSync, statSync } from 'node:fs';
import { errnoWords, notUtf8Hint } from '../common/errno.js';
import { readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { stringify } from 'lossless-json';
import { z } from 'zod';
import { parseJson } from '../rpc/json.js';
import { sha256Hex } from '../scenario/metadata.js';
import { formatPath, type PathSegment } from '../common/path.js';
import type { ScenarioResult } from '../scenario/types.js';
import { recordScenario } from './scrub.js';
import { binaryHashes } from '../testnet/chain/chain-cache.js';
import { binaryVersion, resolveBackend } from '../testnet/programs/binaries.js';
import type { BackendName } from '../coin/backends.js';
import { backendNameSchema } from '../coin/backends.js';
import { makeDirsAsync } from '../common/mkdir.js';

export const RECORDING_FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256: 64 lowercase hex characters');
const relPath = z
  .string()
  .min(1)
  .refine(
    (p) => !isAbsolute(p) && !p.split(/[\\/]/).includes('..') && !p.includes('\\'),
    'expected a path relative to the project root, with / and no ..',
  );
const status = z.enum(['passed', 'failed', 'error', 'skipped']);
const message = z.strictObject({ message: z.string() });

const manifestSchema = z.strictObject({
  format: z.literal(RECORDING_FORMAT),
  backend: backendNameSchema({ auto: false }),
  /** `tag`: v1.1.3c; `program`: what `salviumd --version` prints; `rpc`: what get_info answered as its version. */
  version: z.strictObject({ tag: z.string().optional(), program: z.string(), rpc: z.string().optional() }),
  /** Program name → SHA-256 (the simulator: of its code). */
  binaries: z.record(z.string(), sha256),
  difficulty: z.number().int().min(1),
  /** How the scenarios ran (`fresh`: each on its own testnet from the cached chain state, so each stands alone). */
  isolation: z.enum(['shared', 'fresh']),
  recordedAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO date'),
  saltnet: z.string(),
  /** How to make it again, for the "re-record" message. */
  recordedWith: z.string().optional(),
  scenarios: z.array(
    z.strictObject({
      file: relPath,
      sha256,
      result: z.string().regex(/^[\w.-]+\.json$/, 'expected a file name ending in .json'),
      name: z.string(),
      status,
    }),
  ),
});
export type RecordingManifest = z.infer<typeof manifestSchema>;
export type RecordedScenarioEntry = RecordingManifest['scenarios'][number];

const stepSchema = z.strictObject({
  index: z.number().int().min(0),
  name: z.string(),
  action: z.string(),
  status: z.enum(['passed', 'failed', 'skipped']),
  failure: message.optional(),
  response: z.unknown().optional(),
});
const scenarioSchema = z.strictObject({
  file: relPath,
  name: z.string(),
  status,
  backend: z.string(),
  failure: message.optional(),
  steps: z.array(stepSchema),
});

export interface Recording {
  dir: string;
  manifest: RecordingManifest;
  /** As recorded, `file` relative to the project root; in the manifest's order. */
  results: ScenarioResult[];
}

/** A recording that cannot be read: every problem, each naming its file and field. */
export class RecordingError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'RecordingError';
  }
}

// ---- writing ----

/** A scenario file relative to the project root, with `/`; an error for one outside it. */
export function relativeToRoot(root: string, file: string): string {
  const rel = relative(root, resolve(root, file));
  if (!rel || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new Error(`${file} is outside the project root ${root}: a recording names scenario files relative to it`);
  return rel.split(sep).join('/');
}

/** `scenarios/balances.yaml` → `balances.json`; a base name taken already → `scenarios__balances.json`. */
function resultName(rel: string, taken: Set<string>): string {
  const base = basename(rel)
    .replace(/\.ya?ml$/i, '')
    .replace(/[^\w.-]/g, '_');
  let name = `${base}.json`;
  if (taken.has(name))
    name = `${rel
      .replace(/\.ya?ml$/i, '')
      .replace(/[^\w.-]/g, '_')
      .replace(/_+/g, '_')}.json`;
  for (let i = 2; taken.has(name); i++) name = `${base}-${i}.json`;
  taken.add(name);
  return name;
}

export interface ProgramInfo {
  binaries: Record<string, string>;
  /** What the daemon prints for --version. */
  program: string;
  /** `v1.1.3c`, from that line. */
  tag?: string;
}

/** The programs of a backend: their SHA-256 and the daemon's version line. */
export async function programInfo(backend: BackendName, binDir?: string): Promise<ProgramInfo> {
  const be = resolveBackend(backend, binDir);
  const program = await binaryVersion(be.paths.daemon);
  const tag = /\(v?(\d+\.\d+\.\d+[a-z]?)\b/.exec(program)?.[1];
  return { binaries: await binaryHashes(be), program, ...(tag ? { tag: `v${tag}` } : {}) };
}

/** The version the daemon's get_info answered in the results (`1.1.3c-bcd1c3b84, based on Monero …`). */
export function rpcVersion(results: readonly ScenarioResult[]): string | undefined {
  for (const r of results) {
    for (const s of r.steps) {
      const v = (s.response as { result?: { version?: unknown; nettype?: unknown } } | undefined)?.result;
      if (v && typeof v.version === 'string' && v.nettype !== undefined) return v.version;
    }
  }
  return undefined;
}

export interface WriteOptions {
  /** Scenario files are stored relative to it. */
  root: string;
  backend: BackendName;
  program: ProgramInfo;
  difficulty: number;
  isolation: 'shared' | 'fresh';
  saltnetVersion: string;
  recordedWith?: string;
  date?: Date;
  /**
   * A recording of the same programs (the same binaries' hashes) whose scenarios not in `results` are kept, when their
   * file is still there: `record-conformance --only` re-records a few scenarios of a corpus.
   */
  keepFrom?: string;
}

const toJson = (v: unknown): string => `${stringify(v, undefined, 2) ?? 'null'}\n`;

/** The entries of the recording in `from` that `written` does not hold and whose file exists, copied into `staging`. */
async function carryOver(
  from: string,
  staging: string,
  root: string,
  program: ProgramInfo,
  written: readonly RecordedScenarioEntry[],
  taken: Set<string>,
): Promise<{ kept: RecordedScenarioEntry[]; rpc?: string }> {
  const old = await readRecording(from);
  const same = JSON.stringify(old.manifest.binaries) === JSON.stringify(program.binaries);
  if (!same)
    throw new Error(
      `${from} was recorded with other programs (${old.manifest.version.program}): record every scenario again`,
    );
  const kept: RecordedScenarioEntry[] = [];
  for (const e of old.manifest.scenarios) {
    if (written.some((w) => w.file === e.file) || !existsSync(resolve(root, e.file))) continue;
    const result = resultName(e.file, taken);
    await writeFile(join(staging, result), await readFile(join(old.dir, e.result)));
    kept.push({ ...e, result });
  }
  return { kept, ...(old.manifest.version.rpc ? { rpc: old.manifest.version.rpc } : {}) };
}

/**
 * Write the results as a recording in `dir`, replacing one that is there (written beside it
 * first, then swapped in, so a failed write leaves the old recording whole).
 */
export async function writeRecording(
  dir: string,
  results: readonly ScenarioResult[],
  o: WriteOptions,
): Promise<RecordingManifest> {
  const root = resolve(o.root);
  const target = resolve(dir);
  const staging = `${target}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await makeDirsAsync(staging);
  const taken = new Set([MANIFEST_FILE]);
  const scenarios: RecordedScenarioEntry[] = [];
  // A run stopped half-way records nothing: its statuses say how it was stopped, not how the backend answers.
  const cut = results.find((r) => r.status === 'interrupted');
  if (cut) throw new Error(`the run was interrupted (at ${cut.file}): nothing recorded`);
  const sorted = [...results].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  try {
    for (const r of sorted) {
      const file = relativeToRoot(root, r.file);
      const bytes = await readFile(resolve(root, file));
      const source = bytes.toString('utf8');
      const result = resultName(file, taken);
      await writeFile(join(staging, result), toJson(recordScenario(r, file, { root, source })));
      scenarios.push({
        file,
        sha256: sha256Hex(bytes),
        result,
        name: r.name,
        status: r.status as Exclude<typeof r.status, 'interrupted'>,
      });
    }
    const carried = o.keepFrom ? await carryOver(o.keepFrom, staging, root, o.program, scenarios, taken) : undefined;
    if (carried) scenarios.push(...carried.kept);
    scenarios.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    // The same programs' version as the kept recording saw it, when none of the scenarios run now asked get_info.
    const rpc = rpcVersion(results) ?? carried?.rpc;
    const manifest: RecordingManifest = {
      format: RECORDING_FORMAT,
      backend: o.backend,
      version: {
        ...(o.program.tag ? { tag: o.program.tag } : {}),
        program: o.program.program,
        ...(rpc ? { rpc } : {}),
      },
      binaries: o.program.binaries,
      difficulty: o.difficulty,
      isolation: o.isolation,
      recordedAt: (o.date ?? new Date()).toISOString(),
      saltnet: o.saltnetVersion,
      ...(o.recordedWith ? { recordedWith: o.recordedWith } : {}),
      scenarios,
    };
    manifestSchema.parse(manifest);
    await writeFile(join(staging, MANIFEST_FILE), toJson(manifest));
    await rm(target, { recursive: true, force: true });
    await makeDirsAsync(dirname(target));
    await rename(staging, target);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

// ---- reading ----

function problemsOf(file: string, error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const path = formatPath(i.path.filter((s): s is PathSegment => typeof s !== 'symbol')) || '(file)';
    return `${file}: ${path}: ${i.message}`;
  });
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new RecordingError([`${file}: cannot read it: ${code === 'ENOENT' ? 'no such file' : (e as Error).message}`]);
  }
  try {
    return parseJson(text);
  } catch (e) {
    throw new RecordingError([`${file}: not valid JSON: ${(e as Error).message}`]);
  }
}

function toResult(data: z.infer<typeof scenarioSchema>): ScenarioResult {
  return {
    file: data.file,
    name: data.name,
    status: data.status,
    ms: 0,
    backend: data.backend,
    ...(data.failure ? { failure: data.failure } : {}),
    steps: data.steps.map((s) => ({
      index: s.index,
      name: s.name,
      action: s.action,
      status: s.status,
      ms: 0,
      ...(s.failure ? { failure: s.failure } : {}),
      ...(s.response !== undefined ? { response: s.response } : {}),
    })),
  };
}

/** Why `root` holds no manifest.json: it does not exist, is not a folder, or is a folder without one. */
function whyNoRecording(root: string): string {
  let st;
  try {
    st = statSync(root);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      return `no such folder${notUtf8Hint(root)} (a recording is a folder such as fixtures/conformance/salvium-v1.1.3c)`;
    return `cannot read it: ${errnoWords(e)}`;
  }
  if (!st.isDirectory()) return 'not a recording: it is a file, and a recording is a folder';
  return `not a recording: the folder has no ${MANIFEST_FILE}`;
}

/** Read and validate a recording; a RecordingError lists every problem with its file and field. */
export async function readRecording(dir: string): Promise<Recording> {
  const root = resolve(dir);
  const manifestFile = join(root, MANIFEST_FILE);
  if (!existsSync(manifestFile)) throw new RecordingError([`${root}: ${whyNoRecording(root)}`]);
  const m = manifestSchema.safeParse(await readJson(manifestFile));
  if (!m.success) throw new RecordingError(problemsOf(manifestFile, m.error));
  const problems: string[] = [];
  const results: ScenarioResult[] = [];
  for (const [i, e] of m.data.scenarios.entries()) {
    const file = join(root, e.result);
    let data: unknown;
    try {
      data = await readJson(file);
    } catch (err) {
      problems.push(...(err instanceof RecordingError ? err.problems : [String(err)]));
      continue;
    }
    const s = scenarioSchema.safeParse(data);
    if (!s.success) problems.push(...problemsOf(file, s.error));
    else if (s.data.file !== e.file)
      problems.push(
        `${file}: file: ${JSON.stringify(s.data.file)}, but ${MANIFEST_FILE} (scenarios[${i}].file) says ${JSON.stringify(e.file)}`,
      );
    else results.push(toResult(s.data));
  }
  if (problems.length) throw new RecordingError(problems);
  return { dir: root, manifest: m.data, results };
}

/** `v1.1.3c` → [1, 1, 3, 'c'] for ordering releases. */
function versionKey(tag: string | undefined): [number, number, number, string] {
  const m = /(\d+)\.(\d+)\.(\d+)([a-z]?)/.exec(tag ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''] : [-1, -1, -1, ''];
}

/**
 * The recording of the newest release among the folders of `parent` (then the latest recorded); undefined when there is
 * none.
 */
export async function newestRecording(parent: string): Promise<string | undefined> {
  const entries = existsSync(parent) ? await readdir(parent, { withFileTypes: true }) : [];
  const found: { dir: string; key: [number, number, number, string]; at: number }[] = [];
  for (const e of entries) {
    const dir = join(parent, e.name);
    if (!e.isDirectory() || !existsSync(join(dir, MANIFEST_FILE))) continue;
    const m = manifestSchema.safeParse(await readJson(join(dir, MANIFEST_FILE)).catch(() => undefined));
    if (m.success) found.push({ dir, key: versionKey(m.data.version.tag), at: Date.parse(m.data.recordedAt) });
  }
  const cmp = (a: (typeof found)[number], b: (typeof found)[number]): number => {
    for (let i = 0; i < 4; i++) if (a.key[i] !== b.key[i]) return a.key[i]! < b.key[i]! ? -1 : 1;
    return a.at - b.at;
  };
  return found.sort(cmp).at(-1)?.dir;
}
