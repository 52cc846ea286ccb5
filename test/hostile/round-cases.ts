// Hostile-input cases of a later round: a --grep that would backtrack forever, reports written into
// pipes, a cache or artifacts folder that cannot be one, and programs that misbehave. Part of CASES
// (cases.ts), run by hostile.test.ts.
import type { HostileCase } from './cases.js';

const OK = 'name: ok\nrequires: { height: 30 }\nsteps:\n  - mine: 1\n';

export const ROUND_CASES: HostileCase[] = [
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
];
