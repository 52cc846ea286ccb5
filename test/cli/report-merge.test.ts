// A suite split over three runners: each runs its shard as a separate `saltnet run --shard k/3` process with a
// HOME and a state folder of its own, sharing only the cache folder (SALTNET_CACHE_DIR, what CI runners share
// through a cache or an artifact) built once by `saltnet cache build --for`; `saltnet report merge` joins the three
// JSON reports into one.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/sim.js';
import { CLI } from './helpers.js';

let root: string;
const saltnet = (args: string[], env: Record<string, string>) =>
  execa(process.execPath, [CLI, ...args], { env: { CI: '1', ...env }, reject: false, all: true });

// Example-like scenarios (as scenarios/daemon-basics.yaml): the daemon's info, blocks mined, a wallet's address, a
// block count, and one whose expectation fails.
const SCENARIOS: Record<string, string> = {
  'info.yaml': 'name: info\nsteps:\n  - call: { path: /get_info }\n    expect:\n      result.offline: true\n',
  'mine.yaml': 'name: mine two\nsteps:\n  - mine: 2\n  - call: { on: daemon, method: get_block_count }\n',
  'address.yaml': 'name: address\nsteps:\n  - call: { method: get_address }\n',
  'fails.yaml':
    'name: fails on purpose\nsteps:\n  - call: { path: /get_info }\n    expect:\n      result.offline: false\n',
  'count.yaml': 'name: count\nsteps:\n  - call: { on: daemon, method: get_block_count }\n',
};

beforeAll(() => {
  root = tempDir('saltnet-merge-');
  mkdirSync(join(root, 'suite'));
  for (const [name, text] of Object.entries(SCENARIOS)) writeFileSync(join(root, 'suite', name), text);
});
afterAll(() => cleanup(root));

describe('saltnet report merge', { timeout: 300_000 }, () => {
  it('joins the JSON reports of three shards run apart: totals are their sums, every scenario once', async () => {
    const suite = join(root, 'suite', '*.yaml');
    const cache = { SALTNET_CACHE_DIR: join(root, 'cache') };
    const runner = (k: number) => ({
      ...cache,
      HOME: join(root, `home${k}`),
      SALTNET_STATE_DIR: join(root, `state${k}`),
    });
    const built = await saltnet(['cache', 'build', '--backend', 'sim', '--for', suite], runner(0));
    expect(built.exitCode, built.all).toBe(0);

    const reports: string[] = [];
    for (const k of [1, 2, 3]) {
      const out = join(root, `shard${k}.json`);
      const r = await saltnet(
        [
          'run',
          suite,
          '--backend',
          'sim',
          '--shard',
          `${k}/3`,
          '--reporter',
          'json',
          '--output',
          out,
          '--artifacts',
          join(root, `arts${k}`),
        ],
        runner(k),
      );
      expect(r.exitCode, r.all).toBeLessThanOrEqual(1);
      reports.push(out);
    }
    const shards = reports.map((f) => JSON.parse(readFileSync(f, 'utf8')));

    const merged = join(root, 'merged.json');
    const m = await saltnet(['report', 'merge', ...reports, '--output', merged], runner(0));
    expect(m.exitCode, m.all).toBe(0);
    const doc = JSON.parse(readFileSync(merged, 'utf8'));
    for (const key of ['passed', 'failed', 'errors', 'interrupted', 'skipped', 'total'] as const)
      expect(doc.summary[key], key).toBe(shards.reduce((a, s) => a + s.summary[key], 0));
    expect(doc.summary).toMatchObject({ total: 5, passed: 4, failed: 1 });
    const names = doc.results.map((r: { name: string }) => r.name);
    expect([...names].sort()).toEqual(['address', 'count', 'fails on purpose', 'info', 'mine two']);

    // A shard's report merged twice, or under two names, is named; so is a file that is no report of ours.
    const twice = await saltnet(['report', 'merge', reports[0]!, reports[1]!, reports[0]!], runner(0));
    expect(twice.exitCode).toBe(1);
    expect(twice.stderr).toContain(`${reports[0]} is given twice`);
    const copy = join(root, 'copy.json');
    copyFileSync(reports[0]!, copy);
    const overlap = await saltnet(['report', 'merge', ...reports, copy], runner(0));
    expect(overlap.exitCode).toBe(1);
    expect(overlap.stderr).toMatch(
      new RegExp(`^saltnet: ${copy} and ${reports[0]} both ran the scenario ".+" \\(.+\\): the shards overlap`),
    );
    expect(overlap.stderr).not.toMatch(/\n\s+at /);
    const scenario = join(root, 'suite', 'info.yaml');
    const notOurs = await saltnet(['report', 'merge', reports[0]!, scenario], runner(0));
    expect(notOurs.exitCode).toBe(1);
    expect(notOurs.stderr).toContain(`${scenario}: not a saltnet report (neither JSON nor JUnit XML)`);
  });
});
