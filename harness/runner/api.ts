// The library form of `saltnet run`: one call runs a scenario file (or several) and returns what
// happened, with the same defaults as the command line; optionally on a testnet the caller started.
import { statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import type { RunnerOptions } from './options.js';
import { runFiles } from './run-scenarios.js';
import { EXAMPLE_SCENARIOS_DIR } from '../scenario/examples.js';
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

/** Whether nothing is at `path` (a file that is there but unreadable is the runner's to report). */
function isMissing(path: string): boolean {
  try {
    statSync(path);
    return false;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
}

/** One missing file, said: where it was looked for and, when saltnet ships one of that name, where that is. */
function missingLine(file: string): string {
  const where = isAbsolute(file) ? '' : ` (looked for ${resolve(file)}: relative to the working directory)`;
  const example = join(EXAMPLE_SCENARIOS_DIR, basename(file));
  const hint =
    resolve(file) !== example && !isMissing(example)
      ? `; saltnet's own example is ${example} (join(EXAMPLE_SCENARIOS_DIR, '${basename(file)}'))`
      : '';
  return `${file}${where}${hint}`;
}

/** A path that names nothing is the caller's mistake: an error naming it, before any testnet starts. */
function checkFilesExist(files: string[]): void {
  const missing = files.filter(isMissing);
  if (missing.length === 1) throw new Error(`no such scenario file: ${missingLine(missing[0]!)}`);
  if (missing.length > 1)
    throw new Error(`no such scenario files:\n${missing.map((f) => `  ${missingLine(f)}`).join('\n')}`);
}

/**
 * Run scenario files (paths); results in file order. A path where no file is throws an error naming it, before
 * anything starts; a file that does not parse is a failed result (its reason in `failure.message`), not an exception.
 */
export async function runScenarios(files: string[], o: RunScenarioOptions = {}): Promise<ScenarioResult[]> {
  checkFilesExist(files);
  return runFiles(files, withDefaults(o));
}

/**
 * Run one scenario file and return its result (status passed | failed | error (infrastructure) | skipped, steps,
 * failure, artifact folder). A path where no file is throws an error naming it.
 */
export async function runScenario(file: string, o: RunScenarioOptions = {}): Promise<ScenarioResult> {
  const [r] = await runScenarios([file], o);
  if (!r) throw new Error(`${file} holds no scenario that was run (filtered out?)`);
  return r;
}
