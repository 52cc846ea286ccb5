// Hostile and mistaken command lines (issue 12): each is refused with one line that names the
// option, the value and what would do, a non-zero exit and no stack trace.
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../../harness/sim/launch.js';
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

async function saltnet(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | undefined; out: string; stdout: string }> {
  const r = await execa(process.execPath, [CLI, ...args], {
    env: { SALTNET_STATE_DIR: state, SALTNET_CACHE_DIR: cache, CI: '1', ...env },
    reject: false,
    all: true,
    timeout: 60_000,
  });
  return { code: r.exitCode, out: String(r.all ?? ''), stdout: String(r.stdout ?? '') };
}

/** Refused: exit 1, the message, and nothing that looks like a stack trace. */
async function refused(args: string[], message: string | RegExp, env?: Record<string, string | undefined>): Promise<string> {
  const r = await saltnet(args, env);
  expect(r.code, r.out).toBe(1);
  if (typeof message === 'string') expect(r.out).toContain(message);
  else expect(r.out).toMatch(message);
  expect(r.out).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
  return r.out;
}

describe('saltnet down --run', () => {
  it('refuses what cannot be a run id', async () => {
    await refused(['down', '--run', '../../etc'], `saltnet: --run "../../etc" is not a run id (run ids are made of letters, digits, '.', '_' and '-'); \`saltnet status\` lists them`);
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
    expect(viaCache.runs).toMatchObject({ stateDir: join(cache, 'runs'), stateDirFrom: 'env SALTNET_CACHE_DIR (its runs folder)' });
    const explicit = JSON.parse((await saltnet(['doctor', '--json'])).stdout);
    expect(explicit.runs).toMatchObject({ stateDir: state, stateDirFrom: 'env SALTNET_STATE_DIR' });
  });
});
