// The library form of `saltnet run`: one call runs a scenario file (or several) and returns what
// happened, with the same defaults as the command line; optionally on a testnet the caller started.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { RunnerOptions } from './options.js';
import { runFiles } from './run-scenarios.js';
import type { ScenarioResult } from '../scenario/types.js';

export type RunScenarioOptions = Partial<RunnerOptions>;

function withDefaults(o: RunScenarioOptions): RunnerOptions {
  return {
    backend: o.testnet?.backend.spec.name ?? 'auto',
    isolation: 'shared',
    workers: 1,
    bail: false,
    artifactsRoot: join(tmpdir(), 'saltnet-artifacts'),
    log: () => undefined,
    ...o,
  };
}

/**
 * Run scenario files (paths); results in file order. A file that does not parse is a failed result, not an exception.
 */
export function runScenarios(files: string[], o: RunScenarioOptions = {}): Promise<ScenarioResult[]> {
  return runFiles(files, withDefaults(o));
}

/**
 * Run one scenario file and return its result (status passed | failed | error (infrastructure) | skipped, steps,
 * failure, artifact folder).
 */
export async function runScenario(file: string, o: RunScenarioOptions = {}): Promise<ScenarioResult> {
  const [r] = await runScenarios([file], o);
  if (!r) throw new Error(`${file} holds no scenario that was run (filtered out?)`);
  return r;
}
