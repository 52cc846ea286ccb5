// The hostile-input suite's cases: scenario files a stranger could send in a bug report, and
// command lines a careless or hostile user could type. Each must end promptly with a clear error
// (or, where noted, succeed), never with a stack trace, an orphan, a file read from outside the
// allowed folders or a password in sight. `{dir}` is the case's project folder (its cwd, where its
// files are written), `{canary}` a file outside it that nothing may read.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync } from 'node:fs';
import { ROUND_CASES } from './round-cases.js';
import { WORDING_CASES } from './wording-cases.js';

export interface HostileCase {
  id: string;
  /** Files written into the project folder before the run (name → text, or bytes). */
  files?: Record<string, string | Buffer>;
  /** Arguments to `saltnet` (`{dir}`, `{canary}` replaced). */
  args: string[];
  /** What the output must say (every pattern). */
  says: RegExp[];
  /** Expected exit code (default: 1). */
  exit?: number;
  /** Sets up something the files cannot express (a fifo, a symlink). */
  prepare?: (dir: string, canary: string) => unknown;
  /** Environment added for this case. */
  env?: Record<string, string>;
  /** Paths the user named on the command line: opening them (to look at them) is allowed. */
  mayOpen?: string[];
  /** Values that must appear in no output and no artifact. */
  secrets?: string[];
  /** What the output must not say (every pattern). */
  never?: RegExp[];
  /** The most characters the output may have (a flood is a failure too). */
  maxOutput?: number;
}

const H30 = 'requires: { height: 30 }\n';
const scenario = (steps: string, head = `name: hostile\n${H30}`): string => `${head}steps:\n${steps}`;
const run = (file = 's.yaml', ...more: string[]): string[] => ['run', file, '--backend', 'sim', ...more];
/** The file and a line:column, as every scenario error names them. */
const at = (file = 's.yaml'): RegExp => new RegExp(`${file.replace('.', '\\.')}:\\d+:\\d+`);

const unknownSteps = (bytes: number): string => {
  const one = '  - frobnicate: { a: 1 }\n';
  return `name: big\nsteps:\n${one.repeat(Math.ceil(bytes / one.length))}`;
};

const parseCases: HostileCase[] = [
  { id: 'empty file', files: { 's.yaml': '' }, args: run(), says: [/s\.yaml/, /empty|no scenario|name/i] },
  { id: 'only a comment', files: { 's.yaml': '# nothing here\n' }, args: run(), says: [/s\.yaml/, /empty|name/i] },
  {
    id: 'yaml syntax error',
    files: { 's.yaml': 'name: x\nsteps:\n  - mine: 1\n   - mine: 2\n' },
    args: run(),
    says: [at()],
  },
  { id: 'tab indentation', files: { 's.yaml': 'name: x\nsteps:\n\t- mine: 1\n' }, args: run(), says: [at()] },
  { id: 'a list at the top', files: { 's.yaml': '- mine: 1\n' }, args: run(), says: [/s\.yaml/, /mapping|object/i] },
  { id: 'a scalar at the top', files: { 's.yaml': 'hello\n' }, args: run(), says: [/s\.yaml/, /mapping|object/i] },
  {
    id: 'duplicate keys',
    files: { 's.yaml': 'name: a\nname: b\nsteps:\n  - mine: 1\n' },
    args: run(),
    says: [at(), /unique|duplicate/i],
  },
  {
    id: 'unknown top-level key',
    files: { 's.yaml': 'name: a\nstep:\n  - mine: 1\n' },
    args: run(),
    says: [at(), /steps/],
  },
  { id: 'no steps', files: { 's.yaml': 'name: a\n' }, args: run(), says: [/s\.yaml/, /steps/] },
  { id: 'steps not a list', files: { 's.yaml': 'name: a\nsteps: 3\n' }, args: run(), says: [at(), /steps/] },
  {
    id: 'two actions in a step',
    files: { 's.yaml': scenario('  - mine: 1\n    get_balance: {}\n') },
    args: run(),
    says: [at(), /one/i],
  },
  {
    id: 'unknown step kind',
    files: { 's.yaml': scenario('  - frobnicate: 1\n') },
    args: run(),
    says: [at(), /frobnicate/],
  },
  {
    id: '250 KB of unknown steps (under the size cap)',
    files: { 's.yaml': unknownSteps(250_000) },
    args: run(),
    says: [at(), /at most 1000/],
  },
  {
    id: '700 unknown steps: the first problems, then a count',
    files: { 's.yaml': unknownSteps(700 * 25) },
    args: run(),
    says: [/frobnicate/, /and \d+ more problems/],
  },
  { id: '1 MB of unknown steps', files: { 's.yaml': unknownSteps(1 << 20) }, args: run(), says: [/s\.yaml/] },
  {
    id: '10 MB of unknown steps',
    files: { 's.yaml': unknownSteps(10 << 20) },
    args: run(),
    says: [/s\.yaml/, /at most \d+ (KiB|MiB)/],
  },
  {
    id: 'alias bomb (billion laughs)',
    files: {
      's.yaml': `a: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nname: x\nsteps:\n  - mine: 1\n`,
    },
    args: run(),
    says: [/s\.yaml/, /alias/i],
  },
  {
    id: 'nesting 5000 deep',
    files: {
      's.yaml': `name: x\nsteps:\n  - call: { method: get_info, params: ${'['.repeat(5000)}${']'.repeat(5000)} }\n`,
    },
    args: run(),
    says: [/s\.yaml/],
  },
  {
    id: 'a 2 MB line',
    files: { 's.yaml': `name: "${'x'.repeat(2 << 20)}"\nsteps:\n  - mine: 1\n` },
    args: run(),
    says: [/s\.yaml/, /at most \d+ (KiB|MiB)/],
  },
  {
    id: 'binary garbage',
    files: { 's.yaml': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)) },
    args: run(),
    says: [/s\.yaml/],
  },
  {
    id: 'NUL bytes in a name',
    files: { 's.yaml': 'name: "a\\0b"\nsteps:\n  - mine: 1\n\0\0\0' },
    args: run(),
    says: [/s\.yaml/],
  },
  {
    id: 'prototype pollution keys',
    files: {
      's.yaml': scenario(
        '  - call: { method: get_info, params: { __proto__: { polluted: 1 }, constructor: { prototype: { x: 1 } } } }\n',
      ),
    },
    args: [...run(), '--grep', 'nomatch'],
    says: [/no scenario|0 passed|matches/i],
  },
];

const regexCases: HostileCase[] = [
  {
    id: 'catastrophic regex',
    files: {
      's.yaml': scenario(
        '  - call: { method: get_address }\n    expect: { result.address: { matches: "^([A-Za-z0-9]+)+!$" } }\n',
      ),
    },
    args: run(),
    says: [/expected matching/, at()],
  },
  {
    id: 'nested quantifier regex (a*)*b',
    files: {
      's.yaml': scenario(
        '  - call: { method: get_address }\n    expect: { result.address: { matches: "^(a*)*b$" } }\n',
      ),
    },
    args: run(),
    says: [/match/i],
  },
  {
    id: 'backreference regex',
    files: { 's.yaml': scenario('  - mine: 1\n    expect: { result.height: { matches: "(a)\\\\1" } }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'lookahead regex',
    files: { 's.yaml': scenario('  - mine: 1\n    expect: { result.height: { matches: "(?=a)a" } }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'invalid regex',
    files: { 's.yaml': scenario('  - mine: 1\n    expect: { result.height: { matches: "[" } }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'a 100 000-character regex',
    files: {
      's.yaml': scenario(`  - mine: 1\n    expect: { result.height: { matches: "${'a?'.repeat(50_000)}" } }\n`),
    },
    args: run(),
    says: [at()],
  },
];

const fileCases: HostileCase[] = [
  {
    id: 'metadata file /etc/passwd',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: /etc/passwd }\n') },
    args: run(),
    says: [at(), /passwd/],
  },
  {
    id: 'metadata file ../../../etc/shadow',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: ../../../../../../etc/shadow }\n') },
    args: run(),
    says: [at(), /shadow/],
  },
  {
    id: 'metadata file /dev/zero',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: /dev/zero }\n') },
    args: run(),
    says: [at(), /zero/],
  },
  {
    id: 'metadata file /proc/self/environ',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: /proc/self/environ }\n') },
    args: run(),
    says: [at(), /environ/],
  },
  {
    id: 'metadata file: the canary outside',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: "{canary}" }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'metadata file: a symlink out of the folder',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: link.json }\n') },
    prepare: (dir, canary) => symlinkSync(canary, `${dir}/link.json`),
    args: run(),
    says: [at(), /link\.json/],
  },
  {
    id: 'metadata file: a folder',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: . }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'metadata file: a fifo',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: pipe.json }\n') },
    prepare: (dir) => execFileSync('mkfifo', [`${dir}/pipe.json`]),
    args: run(),
    says: [at(), /pipe\.json/],
  },
  {
    id: 'metadata file over the size cap',
    files: {
      's.yaml': scenario('  - metadata: { name: m, file: big.json }\n'),
      'big.json': `{"a":"${'x'.repeat(3 << 20)}"}`,
    },
    args: run(),
    says: [/big\.json/, /MiB|too (big|large)/i],
  },
  {
    id: 'metadata file that does not exist',
    files: { 's.yaml': scenario('  - metadata: { name: m, file: nope.json }\n') },
    args: run(),
    says: [/nope\.json/],
  },
];

const boundCases: HostileCase[] = [
  { id: 'mine: 100000', files: { 's.yaml': scenario('  - mine: 100000\n') }, args: run(), says: [at()] },
  { id: 'mine: -1', files: { 's.yaml': scenario('  - mine: -1\n') }, args: run(), says: [at()] },
  { id: 'mine: 1e308', files: { 's.yaml': scenario('  - mine: 1e308\n') }, args: run(), says: [at()] },
  { id: 'mine: abc', files: { 's.yaml': scenario('  - mine: abc\n') }, args: run(), says: [at()] },
  {
    id: 'requires.height: 2^53-1',
    files: { 's.yaml': scenario('  - mine: 1\n', 'name: h\nrequires: { height: 9007199254740991 }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'requires.height: -5',
    files: { 's.yaml': scenario('  - mine: 1\n', 'name: h\nrequires: { height: -5 }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'requires.height: 1.5',
    files: { 's.yaml': scenario('  - mine: 1\n', 'name: h\nrequires: { height: 1.5 }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'unlocked above the supply',
    files: { 's.yaml': scenario('  - mine: 1\n', 'name: u\nrequires: { unlocked: { SAL1: "999999999999 SAL1" } }\n') },
    args: run(),
    says: [at(), /suppl|mint/i],
  },
  {
    id: 'unlocked negative',
    files: { 's.yaml': scenario('  - mine: 1\n', 'name: u\nrequires: { unlocked: { SAL1: "-5 SAL1" } }\n') },
    args: run(),
    says: [at()],
  },
  {
    id: 'a wallet funded above the supply',
    files: {
      's.yaml': scenario('  - mine: 1\n', 'name: u\nwallets: { bob: { unlocked: { SAL1: "999999999999 SAL1" } } }\n'),
    },
    args: run(),
    says: [at(), /suppl|mint/i],
  },
  {
    id: 'wait seconds 1e308',
    files: {
      's.yaml': scenario('  - wait: { call: { method: get_height }, until: { result.height: 5 }, seconds: 1e308 }\n'),
    },
    args: run(),
    says: [at()],
  },
  {
    id: 'wait seconds -1',
    files: {
      's.yaml': scenario('  - wait: { call: { method: get_height }, until: { result.height: 5 }, seconds: -1 }\n'),
    },
    args: run(),
    says: [at()],
  },
  {
    id: 'wait blocks 1e9',
    files: {
      's.yaml': scenario(
        '  - wait: { call: { method: get_height }, until: { result.height: 5 }, blocks: 1000000000, mine: true }\n',
      ),
    },
    args: run(),
    says: [at()],
  },
  {
    id: 'an amount of 10^26',
    files: {
      's.yaml': scenario(
        '  - transfer: { destinations: [{ address: "${main.address}", amount: "99999999999999999999999999 SAL1" }] }\n',
      ),
    },
    args: run(),
    says: [at()],
  },
  {
    id: 'an amount with 9 decimals',
    files: {
      's.yaml': scenario(
        '  - transfer: { destinations: [{ address: "${main.address}", amount: "0.000000001 SAL1" }] }\n',
      ),
    },
    args: run(),
    says: [at(), /decimal/i],
  },
  {
    id: 'a 10 000-character method name',
    files: { 's.yaml': scenario(`  - call: { method: ${'m'.repeat(10_000)} }\n`) },
    args: run(),
    says: [/s\.yaml/],
  },
];

const placeholderCases: HostileCase[] = [
  {
    id: 'an unknown placeholder',
    files: { 's.yaml': scenario('  - call: { method: get_info, params: { x: "${nope}" } }\n') },
    args: run(),
    says: [at(), /nope/],
  },
  {
    id: 'an unset env variable',
    files: { 's.yaml': scenario('  - call: { method: get_info, params: { x: "${env.SALTNET_HOSTILE_UNSET}" } }\n') },
    args: run(),
    says: [/SALTNET_HOSTILE_UNSET/],
  },
  {
    id: 'an env secret is used, and appears in no artifact',
    files: { 's.yaml': scenario('  - call: { method: "nope_${env.HOSTILE_TOKEN}" }\n') },
    env: { HOSTILE_TOKEN: 'tok-5f2a9c81e7d3' },
    secrets: ['tok-5f2a9c81e7d3'],
    args: run('s.yaml', '--reporter', 'junit', '--output', 'report.xml'),
    says: [/nope_\$\{env\.HOSTILE_TOKEN\}/, /Method not found/],
  },
  {
    id: 'a wallet that is not declared',
    files: { 's.yaml': scenario('  - get_balance: {}\n    wallet: ghost\n') },
    args: run(),
    says: [at(), /ghost/],
  },
  {
    id: 'a revert to no checkpoint',
    files: { 's.yaml': scenario('  - revert: never\n') },
    args: run(),
    says: [at(), /never/],
  },
];

const cliCases: HostileCase[] = [
  { id: 'run: a file that does not exist', args: run('missing.yaml'), says: [/missing\.yaml/] },
  { id: 'run: an empty folder', prepare: (dir) => mkdirSync(`${dir}/empty`), args: run('empty'), says: [/empty/] },
  {
    id: 'run: /dev/zero as the scenario',
    args: run('/dev/zero'),
    says: [/zero/, /not a (regular|scenario) file/],
    mayOpen: ['/dev/zero'],
  },
  {
    id: 'run: --reporter junit --output into a folder',
    files: { 's.yaml': scenario('  - mine: 1\n') },
    args: run('s.yaml', '--reporter', 'junit', '--output', '/'),
    says: [/\//],
  },
  { id: 'up --height abc', args: ['up', '--backend', 'sim', '--height', 'abc'], says: [/--height/, /abc/] },
  { id: 'up --height 1e400', args: ['up', '--backend', 'sim', '--height', '1e400'], says: [/--height/] },
  {
    id: 'up --height 9007199254740993',
    args: ['up', '--backend', 'sim', '--height', '9007199254740993'],
    says: [/--height/],
  },
  {
    id: 'up --unlocked 0.0000001 (fine)',
    args: ['up', '--backend', 'sim', '--unlocked', '0.000000001'],
    says: [/--unlocked|decimal/i],
  },
  { id: 'up --difficulty -1', args: ['up', '--backend', 'sim', '--difficulty', '-1'], says: [/difficulty/] },
  { id: 'up --backend nope', args: ['up', '--backend', 'nope'], says: [/backend/] },
  {
    id: 'up --workdir a file',
    files: { afile: 'x' },
    args: ['up', '--backend', 'sim', '--workdir', 'afile'],
    says: [/afile/, /not a folder|is a file/i],
  },
  { id: 'down --run ../../etc', args: ['down', '--run', '../../etc'], says: [/etc/] },
  { id: 'mine -5', args: ['mine', '--', '-5'], says: [/mine|blocks/i] },
  { id: '--timeout-factor 0', args: ['status', '--timeout-factor', '0'], says: [/timeout-factor/] },
  {
    id: 'snapshot load /dev/zero',
    args: ['snapshot', 'load', '/dev/zero', '--backend', 'sim'],
    says: [/zero/],
    mayOpen: ['/dev/zero'],
  },
  {
    id: 'snapshot load of a text file',
    files: { 'notes.tar.gz': 'not an archive' },
    args: ['snapshot', 'load', 'notes.tar.gz', '--backend', 'sim'],
    says: [/notes\.tar\.gz/],
  },
  { id: 'cache rm ../x', args: ['cache', 'rm', '../x'], says: [/\.\.\/x/] },
  {
    id: 'ui --ui-port abc',
    args: ['ui', '--ui-port', 'abc'],
    says: [/--ui-port needs a port number from 1 to 65535, got "abc"/],
  },
  {
    id: 'up --ui --ui-port 0',
    args: ['up', '--backend', 'sim', '--ui', '--ui-port', '0'],
    says: [/--ui-port needs a port number from 1 to 65535, got "0"/],
  },
  {
    id: "up --ui --ui-port 29088 --ports standard: the wallet RPC's port, refused before anything starts",
    args: ['up', '--backend', 'sim', '--ui', '--ui-port', '29088', '--ports', 'standard'],
    says: [/--ports standard puts the main wallet's salvium-wallet-rpc on port 29088/, /nothing was started/],
  },
  // What follows `--` is a positional: these get as far as asking for the running testnet.
  { id: 'fund ADDR -- 5', args: ['fund', 'ADDR', '--', '5'], says: [/no testnet is running/] },
  { id: 'automine interval -- 5', args: ['automine', 'interval', '--', '5'], says: [/no testnet is running/] },
];

export const CASES: HostileCase[] = [
  ...WORDING_CASES,
  ...parseCases,
  ...regexCases,
  ...fileCases,
  ...boundCases,
  ...placeholderCases,
  ...cliCases,
  ...ROUND_CASES,
];
