// Hostile and mistaken command lines: each is refused with one line that names the
// option, the value and what would do, a non-zero exit and no stack trace.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/sim.js';
import { CLI } from './helpers.js';

let home: string;
let state: string;
let cache: string;

beforeAll(() => {
  home = tempDir('saltnet-faults-');
  state = join(home, 'state');
  cache = join(home, 'cache');
});
afterAll(() => cleanup(home));

async function saltnet(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | undefined; out: string; stdout: string }> {
  const r = await execa(process.execPath, [CLI, ...args], {
    env: { SALTNET_STATE_DIR: state, SALTNET_CACHE_DIR: cache, CI: '1', ...env },
    reject: false,
    all: true,
    timeout: 60_000,
  });
  return { code: r.exitCode, out: String(r.all ?? ''), stdout: String(r.stdout ?? '') };
}

/** Refused: exit 1, the message, and nothing that looks like a stack trace. */
async function refused(
  args: string[],
  message: string | RegExp,
  env?: Record<string, string | undefined>,
): Promise<string> {
  const r = await saltnet(args, env);
  expect(r.code, r.out).toBe(1);
  if (typeof message === 'string') expect(r.out).toContain(message);
  else expect(r.out).toMatch(message);
  expect(r.out).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
  return r.out;
}

describe('numbers on the command line', () => {
  it('are refused with the option, the value and what would do; exponents and out-of-range values too', async () => {
    const cases: [string[], string][] = [
      [['up', '--height', 'abc'], "saltnet: --height: 'abc' is not a whole number"],
      [
        ['up', '--height', '1e400'],
        "saltnet: --height: '1e400' is written with an exponent; write it in plain digits: a whole number from 1 to 100000",
      ],
      [
        ['up', '--height', '1e3'],
        "saltnet: --height: '1e3' is written with an exponent; write it in plain digits (1000)",
      ],
      [
        ['up', '--height', '100001'],
        'saltnet: --height: 100001 is more than 100000 (saltnet mines to height 100000 at most)',
      ],
      [['up', '--height', '0'], 'saltnet: --height: 0 is too small: it must be at least 1'],
      [['up', '--height'], 'saltnet: --height: needs a whole number'],
      [
        ['up', '--difficulty', '5000000'],
        'saltnet: --difficulty: 5000000 is more than 1000000 (a CPU miner would take hours per block)',
      ],
      [
        ['up', '--threads', '1e9'],
        "saltnet: --threads: '1e9' is written with an exponent; write it in plain digits: a whole number from 1 to 256",
      ],
      [
        ['up', '--threads', '257'],
        'saltnet: --threads: 257 is more than 256 (more threads than CPU cores do not mine faster)',
      ],
      [['up', '--timeout-factor', 'abc'], "saltnet: --timeout-factor: 'abc' is not a number"],
      [
        ['up', '--timeout-factor', '1000'],
        'saltnet: --timeout-factor: 1000 is more than 100 (slow machines need 2 or 3)',
      ],
      [
        ['up', '--unlocked', '1e3 SAL1'],
        "saltnet: --unlocked: '1e3 SAL1' is written with an exponent; write it in plain digits (e.g. 1000 for 1e3)",
      ],
      [
        ['up', '--backend', 'sim', '--unlocked', '0.000000001'],
        'saltnet: unlocked: 0.000000001 has 9 decimals, but SAL1 has 8',
      ],
      [
        ['up', '--unlocked', '0.000000001 SAL1'],
        "saltnet: --unlocked: '0.000000001 SAL1' is not an amount: SAL1 has 8 decimals, this has 9",
      ],
      [['mine', 'abc'], "saltnet: <blocks>: 'abc' is not a whole number"],
      [['mine', '100001'], 'saltnet: <blocks>: 100001 is more than 100000 (saltnet mines to height 100000 at most)'],
      [
        ['mine', '--to', '1e400'],
        "saltnet: --to: '1e400' is written with an exponent; write it in plain digits: a whole number from 1 to 100000",
      ],
      [['run', 'x.yaml', '--workers', 'two'], "saltnet: --workers: 'two' is not a whole number"],
      [['cache', 'key', '--height', 'NaN'], "saltnet: --height: 'NaN' is not a whole number"],
    ];
    await Promise.all(cases.map(([args, message]) => refused(args, message)));
  });

  it('environment variables and config files are held to the same ranges', async () => {
    await refused(
      ['status'],
      "saltnet: env SALTNET_TIMEOUT_FACTOR: timeoutFactor: '2e0' is written with an exponent; write it in plain digits (2)",
      { SALTNET_TIMEOUT_FACTOR: '2e0' },
    );
    await refused(
      ['status'],
      'saltnet: env SALTNET_WORKERS: run.workers: 65 is more than 64 (each worker runs a testnet of its own)',
      { SALTNET_WORKERS: '65' },
    );
    const dir = join(home, 'cfg');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'saltnet.config.yaml'), 'height: 200000\n');
    await refused(
      ['status', '--config', join(dir, 'saltnet.config.yaml')],
      'saltnet.config.yaml:1:9: height: expected a whole number from 1 to 100000, got the number 200000',
    );
  });
});

describe('--workdir', () => {
  it('a file, or a folder under a file, is refused before anything starts', async () => {
    const file = join(home, 'a-file');
    writeFileSync(file, 'not a folder');
    await refused(
      ['up', '--backend', 'sim', '--workdir', file],
      `saltnet: --workdir ${file} is a file, not a folder: give another --workdir`,
    );
    await refused(
      ['up', '--backend', 'sim', '--workdir', join(file, 'sub')],
      `saltnet: --workdir ${join(file, 'sub')} cannot be created: ${file} is a file, not a folder: give another --workdir`,
    );
    const out = await refused(['up', '--backend', 'sim'], 'cannot be created: ', { TMPDIR: file });
    expect(out).toContain(`is a file, not a folder: set TMPDIR to a folder you can write, or give --workdir`);
    expect(out).not.toContain('ENOTDIR');
  });

  it.skipIf(process.getuid?.() === 0)(
    'a folder saltnet may not write is refused with "permission denied"',
    async () => {
      const locked = join(home, 'locked');
      mkdirSync(locked, { mode: 0o500 });
      await refused(
        ['up', '--backend', 'sim', '--workdir', join(locked, 'w')],
        `saltnet: --workdir ${join(locked, 'w')} cannot be created or written: permission denied`,
      );
    },
  );
});

describe('saltnet down --run', () => {
  it('refuses what cannot be a run id', async () => {
    await refused(
      ['down', '--run', '../../etc'],
      `saltnet: --run "../../etc" is not a run id (run ids are made of letters, digits, '.', '_' and '-'); \`saltnet status\` lists them`,
    );
    await refused(['down', '--run', ''], 'saltnet: --run needs a run id; `saltnet status` lists them');
    await refused(['mine', '1', '--run', 'a/b'], '--run "a/b" is not a run id');
  });

  it('refuses a run id that names no run', async () => {
    await refused(['down', '--run', 'nope'], 'saltnet: no run nope; `saltnet status` lists them');
  });

  it('with no runs and no --run, there is nothing to stop', async () => {
    const r = await saltnet(['down']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('nothing to stop');
  });
});

describe('the run registry folder', () => {
  it('is the runs folder of SALTNET_CACHE_DIR unless SALTNET_STATE_DIR says otherwise; doctor says which', async () => {
    const viaCache = JSON.parse((await saltnet(['doctor', '--json'], { SALTNET_STATE_DIR: undefined })).stdout);
    expect(viaCache.runs).toMatchObject({
      stateDir: join(cache, 'runs'),
      stateDirFrom: 'env SALTNET_CACHE_DIR (its runs folder)',
    });
    const explicit = JSON.parse((await saltnet(['doctor', '--json'])).stdout);
    expect(explicit.runs).toMatchObject({ stateDir: state, stateDirFrom: 'env SALTNET_STATE_DIR' });
  });
});
