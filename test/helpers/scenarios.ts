// Scenarios written as text and run together on one shared sim testnet, each looked up by its name
// afterwards: what the step-kind tests (mine, automine) need.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunnerOptions } from '../../harness/runner/options.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import type { ScenarioResult } from '../../harness/scenario/types.js';

/** `[name, body]`: the body is everything of the file after its `name:` line. */
export type ScenarioText = readonly [name: string, body: string];

/** Write each scenario into `dir` and run them all (shared isolation, one worker); results by scenario name. */
export async function runScenarioTexts(
  dir: string,
  scenarios: readonly ScenarioText[],
  o: Partial<RunnerOptions> & { deadlineMs?: number } = {},
): Promise<Map<string, ScenarioResult>> {
  // A run that hangs ends before the test's hook does, with results and a log that say where it stood (a hook that
  // times out shows neither).
  const { deadlineMs = 100_000, ...opts } = o;
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new Error(`the run went past the test's deadline of ${deadlineMs / 1000} s`)),
    deadlineMs,
  );
  const files = scenarios.map(([name, body]) => {
    const f = join(dir, `${name.replace(/\W+/g, '-')}.yaml`);
    writeFileSync(f, `name: ${name}\n${body}`);
    return f;
  });
  const lines: string[] = [];
  const r = await runFiles(files, {
    backend: 'sim',
    isolation: 'shared',
    workers: 1,
    bail: false,
    artifactsRoot: join(dir, 'artifacts'),
    log: (line) => void lines.push(line),
    signal: deadline.signal,
    ...opts,
  }).finally(() => clearTimeout(timer));
  const results = new Map(r.map((x) => [x.name, x]));
  logs.set(results, lines);
  return results;
}

/** The run's own log, kept for a failure's message (the folder, artifacts included, is gone by then). */
const logs = new WeakMap<Map<string, ScenarioResult>, string[]>();

/** `passed`, or the status with the failure's message and actual value: what an assertion should show. */
export function outcomeOf(results: Map<string, ScenarioResult>, name: string): string {
  const r = results.get(name);
  if (!r) return `no scenario named ${name}`;
  if (r.status === 'passed') return 'passed';
  const log = (logs.get(results) ?? []).slice(-30).join('\n');
  return `${r.status}: ${r.failure?.message} ${r.failure?.actual ?? ''}${log ? `\nthe run's log (last lines):\n${log}` : ''}`;
}
