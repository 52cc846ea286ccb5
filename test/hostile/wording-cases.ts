// Hostile-input cases about wording: each situation is called what it is —
// a loop of links a loop, a name that is not UTF-8 not "no such file", a folder that is not there
// not one "without manifest.json" — and a value saltnet would have dropped or accepted silently is
// refused, with the file, line and range. Part of CASES (cases.ts), run by hostile.test.ts.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostileCase } from './cases.js';

const BOMB =
  'a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n';

export const WORDING_CASES: HostileCase[] = [
  {
    id: 'a scenario file that is a link to itself',
    prepare: (dir) => symlinkSync('loop.yaml', join(dir, 'loop.yaml')),
    args: ['run', 'loop.yaml', '--backend', 'sim'],
    says: [/loop\.yaml/, /it is a loop of symbolic links/],
  },
  {
    id: 'two scenario links that point at each other',
    prepare: (dir) => {
      symlinkSync('b.yaml', join(dir, 'a.yaml'));
      symlinkSync('a.yaml', join(dir, 'b.yaml'));
    },
    args: ['run', 'a.yaml', '--backend', 'sim'],
    says: [/a\.yaml/, /it is a loop of symbolic links/],
  },
  {
    id: 'a scenario file whose name is not UTF-8',
    // The name's byte 0xff reaches saltnet as U+FFFD, as it does from a shell.
    prepare: (dir) =>
      writeFileSync(Buffer.from(`${join(dir, 'caf')}\xff.yaml`, 'latin1'), 'name: x\nsteps:\n  - mine: 1\n'),
    args: ['run', 'caf\uFFFD.yaml', '--backend', 'sim'],
    says: [/no such file; its name is not valid UTF-8/],
  },
  {
    id: 'diff --against a folder that does not exist',
    args: ['diff', '--against', 'nope', '--a', 'sim'],
    says: [/nope: no such folder \(a recording is a folder/],
  },
  {
    id: 'diff --against a file',
    files: { 'notes.txt': 'x' },
    args: ['diff', '--against', 'notes.txt', '--a', 'sim'],
    says: [/notes\.txt: not a recording: it is a file/],
  },
  {
    id: 'a config file that is an alias bomb',
    files: { 'saltnet.config.yaml': BOMB },
    args: ['status'],
    says: [/saltnet\.config\.yaml:1:1: \(yaml\): YAML: its aliases \(\*name\) expand to too many values/],
  },
  {
    id: '--timeout-factor 1e-10',
    args: ['status', '--timeout-factor', '1e-10'],
    says: [
      /--timeout-factor: '1e-10' is written with an exponent; write it in plain digits: a number from 0\.1 to 100/,
    ],
  },
  {
    id: '--timeout-factor 0.0000000001',
    args: ['status', '--timeout-factor', '0.0000000001'],
    says: [/--timeout-factor: 0\.0000000001 is too small: it must be at least 0\.1/],
  },
  {
    id: 'save: { __proto__: … }',
    files: {
      's.yaml':
        'name: x\nrequires: { height: 30 }\nsteps:\n  - call: { method: get_info, on: daemon }\n    save: { __proto__: result.height }\n',
    },
    args: ['run', 's.yaml', '--backend', 'sim'],
    says: [/s\.yaml:5:\d+/, /steps\[0\]\.save\.__proto__: "__proto__" cannot be a key/, /save under another name/],
  },
];
