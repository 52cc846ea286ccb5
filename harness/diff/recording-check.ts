// A recording against the scenario files as they are now: which are unchanged since it was made (and
// so compared with it), which changed, were deleted or were never recorded, and what a diff against it
// runs and compares with.
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { ScenarioResult } from '../scenario/types.js';
import { fileSha256 } from '../snapshot/key.js';
import type { RecordedScenarioEntry, Recording } from './recording.js';

/**
 * `fresh`: unchanged since the recording; `changed`: another SHA-256; `deleted`: recorded, gone; `unrecorded`: not in
 * the recording.
 */
export type RecordedState = 'fresh' | 'changed' | 'deleted' | 'unrecorded';

export interface ScenarioCheck {
  /** Absolute. */
  file: string;
  state: RecordedState;
  entry?: RecordedScenarioEntry;
  /** The file's SHA-256 now. */
  sha256?: string;
}

/** Each scenario file (default: every recorded one) against the recording, files resolved against `root`. */
export async function checkScenarios(
  rec: Recording,
  root: string,
  files?: readonly string[],
): Promise<ScenarioCheck[]> {
  const byFile = new Map(rec.manifest.scenarios.map((e) => [resolve(root, e.file), e]));
  const wanted = files ? files.map((f) => resolve(root, f)) : [...byFile.keys()];
  const out: ScenarioCheck[] = [];
  for (const file of wanted) {
    const entry = byFile.get(file);
    const now = existsSync(file) ? await fileSha256(file) : undefined;
    const state: RecordedState = !entry
      ? 'unrecorded'
      : now === undefined
        ? 'deleted'
        : now === entry.sha256
          ? 'fresh'
          : 'changed';
    out.push({ file, state, ...(entry ? { entry } : {}), ...(now ? { sha256: now } : {}) });
  }
  return out;
}

/** Why a scenario is not compared with the recording, telling the user what to do. */
export function staleMessage(c: ScenarioCheck, rec: Recording): string {
  const again = rec.manifest.recordedWith ? `re-record it (${rec.manifest.recordedWith})` : 're-record it';
  const where = relative(process.cwd(), rec.dir) || rec.dir;
  switch (c.state) {
    case 'changed':
      return `the scenario file changed since it was recorded in ${where} (SHA-256 ${c.entry!.sha256.slice(0, 12)}… then, ${c.sha256!.slice(0, 12)}… now): ${again}; not compared`;
    case 'deleted':
      return `the scenario file is gone, but ${where} has a recording of it: ${again}`;
    default:
      return `the scenario file is not in the recording ${where}: ${again}, or leave it out`;
  }
}

export interface AgainstPlan {
  /** Files to run on the live side. */
  run: string[];
  /** The live side's stand-ins for scenarios that are not run (skipped, saying why). */
  notRun: ScenarioResult[];
  /** The recorded side, `file` absolute; a stale scenario as an error telling the user to re-record. */
  recorded: ScenarioResult[];
}

/** What a diff against a recording runs and what it compares with. */
export function planAgainst(rec: Recording, checks: readonly ScenarioCheck[], live: string): AgainstPlan {
  const byFile = new Map(rec.results.map((r) => [r.file, r]));
  const plan: AgainstPlan = { run: [], notRun: [], recorded: [] };
  for (const c of checks) {
    const r = c.entry ? byFile.get(c.entry.file) : undefined;
    if (c.state === 'fresh' && r) {
      plan.run.push(c.file);
      plan.recorded.push({ ...r, file: c.file });
      continue;
    }
    const name = c.entry?.name ?? relative(process.cwd(), c.file);
    const why = staleMessage(c, rec);
    plan.recorded.push({
      file: c.file,
      name,
      status: 'error',
      ms: 0,
      backend: rec.manifest.backend,
      steps: [],
      failure: { message: why },
    });
    plan.notRun.push({
      file: c.file,
      name,
      status: 'skipped',
      ms: 0,
      backend: live,
      steps: [],
      failure: { message: 'not run: its recording is stale' },
    });
  }
  return plan;
}
