// Hostile-input cases of a later round: a --grep that would backtrack forever, reports written into
// pipes, a cache or artifacts folder that cannot be one, and programs that misbehave. Part of CASES
// (cases.ts), run by hostile.test.ts.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HostileCase } from './cases.js';

/** The simulator's programs, which a --bin-dir of them runs under the salvium backend's names. */
const SIM_BIN = fileURLToPath(new URL('../../harness/sim/bin', import.meta.url));

/** `{dir}/bin`: the simulator's wallet programs and a `salviumd` that is this shell script. */
function fakeDaemon(dir: string, script: string): void {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const p of ['salvium-wallet-cli', 'salvium-wallet-rpc']) symlinkSync(join(SIM_BIN, p), join(bin, p));
  writeFileSync(join(bin, 'salviumd'), `#!/bin/sh\n${script}`);
  chmodSync(join(bin, 'salviumd'), 0o755);
}

const OK = 'name: ok\nrequires: { height: 30 }\nsteps:\n  - mine: 1\n';

export const ROUND_CASES: HostileCase[] = [
  {
    id: '--artifacts that is a file: the option named, before anything starts',
    files: { 's.yaml': OK, afile: 'not a folder' },
    args: ['run', 's.yaml', '--backend', 'sim', '--artifacts', 'afile'],
    says: [/^saltnet: --artifacts afile is not a folder; give a folder path$/m],
    maxOutput: 200,
  },
  {
    id: 'a cache folder that is a file: said before a workdir is made (none left behind)',
    files: { afile: 'not a folder' },
    env: { SALTNET_CACHE_DIR: 'afile' },
    args: ['up', '--verbose', '--backend', 'sim'],
    says: [/the cache folder \S*afile cannot be created: a part of the path is not a folder/],
    never: [/logs kept in/, /daemon ready/],
    maxOutput: 400,
  },
  {
    id: '--grep (a+)+$ against a 50 000-character scenario name: no match, no hang',
    files: { 's.yaml': `name: ${'a'.repeat(50_000)}!\nrequires: { height: 30 }\nsteps:\n  - mine: 1\n` },
    args: ['run', 's.yaml', '--backend', 'sim', '--grep', '(a+)+$'],
    says: [/0 passed, 0 failed/],
  },
  {
    id: '--grep that is not a regular expression: the option named',
    files: { 's.yaml': OK },
    args: ['run', 's.yaml', '--backend', 'sim', '--grep', '(('],
    says: [/--grep "\(\(": .*Unterminated group/],
  },
  {
    id: 'a daemon that prints a 5 MB line and exits: its crash told with the line cut short, promptly',
    files: { 's.yaml': OK },
    prepare: (dir) => fakeDaemon(dir, "yes x | tr -d '\\n' | head -c 5000000\nexit 1\n"),
    args: ['run', 's.yaml', '--backend', 'salvium', '--bin-dir', 'bin', '--no-snapshots'],
    says: [/daemon exited with code 1/, /x{1000} \[… \d+ more characters\]/],
    maxOutput: 200_000,
  },
];
