// `saltnet repro <artifact folder>`: run a recorded scenario again, on a fresh testnet of the same backend.
import { existsSync, lstatSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CommandModule } from 'yargs';
import { readArtifacts } from '../runner/artifacts.js';
import { isUnsuccessful } from '../scenario/types.js';
import { interruptedExitCode } from './interruptible.js';
import { runCommandLine } from './run.js';
import type { BackendChoice } from '../coin/backends.js';
import { makeDirs } from '../common/mkdir.js';

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
    // The replay's scenario copy and artifacts go to dir/repro: never through a link to elsewhere.
    refuseLink(dir, join(dir, 'repro'));
    const source = (a.scenario as { source?: string } | undefined)?.source;
    // The recorded source goes next to the recording, so the replay reads exactly what ran.
    const file = source !== undefined ? join(dir, 'repro', 'scenario.yaml') : a.result?.file;
    if (!file) throw new Error(`${dir} holds no scenario to replay`);
    if (source !== undefined) writeInside(dir, 'repro', 'scenario.yaml', source);
    // Reported as the file that ran: its lines are the recorded source's (repro/scenario.yaml is its copy).
    const original = a.result?.file;
    const backend = (a.result?.backend ?? 'auto') as BackendChoice;
    const results = await runCommandLine(
      {
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
      },
      source !== undefined && original ? { originals: { [file]: original } } : {},
    );
    process.exitCode = interruptedExitCode() ?? (results.some(isUnsuccessful) ? 1 : 0);
  },
};

function refuseLink(dir: string, p: string): void {
  let link: boolean;
  try {
    link = lstatSync(p).isSymbolicLink();
  } catch {
    return;
  }
  if (link)
    throw new Error(`${p} is a symbolic link: saltnet repro writes only inside ${dir}; remove the link and try again`);
}

/** Write `dir/sub/name` for the replay: no symbolic link on the way (the folder, the file). */
function writeInside(dir: string, sub: string, name: string, text: string): void {
  const folder = join(dir, sub);
  refuseLink(dir, folder);
  refuseLink(dir, join(folder, name));
  makeDirs(folder, 0o700);
  writeFileSync(join(folder, name), text, { mode: 0o600 });
}
