// `saltnet repro <artifact folder>`: run a recorded scenario again, on a fresh testnet of the same backend.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { readArtifacts } from '../scenario/artifacts.js';
import { isUnsuccessful } from '../scenario/types.js';
import { interruptedExitCode } from './interruptible.js';
import { runCommandLine } from './run.js';
import type { BackendChoice } from '../testnet/backends.js';

export const reproCommand: CommandModule<object, { dir: string; keep: boolean; binDir?: string }> = {
  command: 'repro <dir>',
  describe: 'replay a scenario run from its artifact folder',
  builder: (y) =>
    y
      .positional('dir', { type: 'string', demandOption: true })
      .option('keep', { type: 'boolean', default: false, describe: 'leave the testnet up if it fails again' })
      .option('bin-dir', { type: 'string' }) as never,
  handler: async (argv) => {
    const dir = resolve(argv.dir);
    if (!existsSync(dir)) throw new Error(`${dir} does not exist: give the artifact folder a run printed`);
    const a = readArtifacts(dir);
    const source = (a.scenario as { source?: string } | undefined)?.source;
    // The recorded source goes next to the recording, so the replay reads exactly what ran.
    const file = source !== undefined ? join(dir, 'repro', 'scenario.yaml') : a.result?.file;
    if (!file) throw new Error(`${dir} holds no scenario to replay`);
    if (source !== undefined) {
      mkdirSync(join(dir, 'repro'), { recursive: true });
      writeFileSync(file, source);
    }
    const backend = (a.result?.backend ?? 'auto') as BackendChoice;
    const results = await runCommandLine({
      files: [file],
      backend,
      isolation: 'fresh',
      workers: 1,
      bail: true,
      reporter: 'human',
      artifacts: join(dir, 'repro', 'artifacts'),
      keep: argv.keep,
      snapshots: true,
      ...(argv.binDir ? { binDir: argv.binDir } : {}),
    });
    process.exitCode = interruptedExitCode() ?? (results.some(isUnsuccessful) ? 1 : 0);
  },
};
