// The last step of `npm run build` (and of the tests' build): bundle each program saltnet starts as a process into one
// file beside its compiled module, which its launcher runs while it is fresh (harness/common/bundle.ts,
// harness/sim/bin/launch.js). Node loads one file in about half the CPU time of the hundreds of modules tsc writes:
// a `saltnet` command that fails on its command line, a simulated wallet RPC start, the reaper watchdog's.
// Each bundle sits in the folder of its module, at the depth of every module it holds, so that the paths they build
// from import.meta.url still point where they did. A bundle already newer than tsc's last emit is kept.
import { renameSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { programFile } from '../harness/common/bundle.js';

const DIST = fileURLToPath(new URL('../', import.meta.url));
const PROGRAMS = [
  'harness/cli/saltnet.js',
  'harness/process/reaper-main.js',
  // The readiness probes' thread, wait-on and its dependencies with it (parsed from one file, not hundreds).
  'harness/process/probe-thread.js',
  'harness/sim/daemon/main.js',
  'harness/sim/wallet-rpc/main.js',
  'harness/sim/wallet-cli/main.js',
];
// koffi is a native module (a build per platform), loaded only when saltnet mines with RandomX itself.
const EXTERNAL = ['koffi'];

async function bundle(module: string): Promise<boolean> {
  const input = DIST + module;
  const target = input.replace(/\.js$/, '.bundle.js');
  // The launchers' own rule: a bundle they would run is fresh.
  if (programFile(input) === target) return false;
  const build = await rolldown({ input, platform: 'node', external: EXTERNAL, logLevel: 'warn' });
  // Written aside, then renamed: a launcher starting meanwhile reads the old bundle or the new one, never half of one.
  const partial = `${target}.${process.pid}.partial`;
  try {
    await build.write({ file: partial, format: 'esm', codeSplitting: false });
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
    await build.close();
  }
  return true;
}

const built = await Promise.all(PROGRAMS.map(bundle));
process.stdout.write(
  `bundled ${built.filter(Boolean).length} of ${PROGRAMS.length} programs (the others were fresh)\n`,
);
