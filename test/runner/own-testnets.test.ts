// `--isolation fresh` takes each scenario's testnet from a pool that started it while the scenarios
// before it ran (harness/runner/own-testnets.ts), on the simulator: which scenarios got a testnet
// started ahead, `pool: 1` starting none ahead, and that a testnet started for a scenario that then
// never ran (--bail) is stopped with the run: no daemon of the run is left.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunnerOptions } from '../../harness/runner/options.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const FAST = { SALTNET_SIM_HASHRATE: '250000' };
let dir: string;

beforeAll(() => {
  dir = tempDir('saltnet-fresh-pool-');
});
afterAll(() => cleanup(dir));

function scenario(name: string, expectStatus = 'OK'): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    `name: ${name}\nrequires: { height: 30 }\nsteps:\n  - call: { path: /get_height }\n    expect: { result.status: ${expectStatus} }\n`,
  );
  return path;
}

/** The pids of live processes whose environment holds `tag` (the daemons of one run). */
function processesTagged(tag: string): number[] {
  const pids: number[] = [];
  for (const p of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${p}/environ`, 'latin1').includes(tag)) pids.push(Number(p));
    } catch {
      /* gone, or not ours */
    }
  }
  return pids;
}

async function run(files: string[], extra: Partial<RunnerOptions>, tag: string) {
  const lines: string[] = [];
  const results = await runFiles(files, {
    backend: 'sim',
    isolation: 'fresh',
    workers: 1,
    bail: false,
    artifactsRoot: join(dir, `arts-${tag}`),
    daemonEnv: { ...FAST, SALTNET_TEST_TAG: tag },
    log: (l) => lines.push(l),
    ...extra,
  });
  return { results, lines, ahead: lines.filter((l) => /was started ahead/.test(l)) };
}

describe('fresh isolation with a pool of testnets', () => {
  it('gives the scenarios after the first a testnet started while the ones before ran', async () => {
    const files = ['pa', 'pb', 'pc'].map((n) => scenario(n));
    const tag = `pool-auto-${process.pid}`;
    const { results, lines, ahead } = await run(files, {}, tag);
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['pa', 'passed'],
      ['pb', 'passed'],
      ['pc', 'passed'],
    ]);
    expect(lines.find((l) => l.startsWith('saltnet: testnet pool: '))).toMatch(
      /^saltnet: testnet pool: up to \d+ testnets? at once, \d+ starting at a time \(each needs about /,
    );
    // The first one is waited for (it started when the run did); the others were started ahead of them.
    expect(ahead.map((l) => l.match(/"(\w+)"/)![1])).toEqual(expect.arrayContaining(['pb', 'pc']));
    expect(ahead.every((l) => /: \d+\.\d\d s to get it$/.test(l))).toBe(true);
    expect(processesTagged(tag)).toEqual([]);
  }, 120_000);

  it('pool: 1 starts each testnet when its scenario begins', async () => {
    const files = ['qa', 'qb'].map((n) => scenario(n));
    const tag = `pool-one-${process.pid}`;
    const { results, lines, ahead } = await run(files, { pool: 1 }, tag);
    expect(results.map((r) => r.status)).toEqual(['passed', 'passed']);
    expect(lines).toContain('saltnet: testnet pool: up to 1 testnet at once, 1 starting at a time (as asked)');
    expect(ahead).toEqual([]);
  }, 120_000);

  it('stops the testnets started for scenarios that --bail then leaves out', async () => {
    const files = [scenario('ba', 'NOT-OK'), scenario('bb'), scenario('bc')];
    const tag = `pool-bail-${process.pid}`;
    const { results } = await run(files, { bail: true, pool: 3 }, tag);
    expect(results.map((r) => [r.name, r.status])).toEqual([['ba', 'failed']]);
    expect(processesTagged(tag)).toEqual([]);
  }, 120_000);
});
