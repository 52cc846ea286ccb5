// The runner end to end on the simulator: every example scenario passes; a failing scenario is
// reported with where and why, leaves complete artifacts, and replays with `saltnet repro`.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandFiles, shard } from '../../harness/cli/run.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { cleanup, tempDir, waitFor } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/harness/cli/main.js');
const FAST = { SALTNET_SIM_HASHRATE: '250000' };
let dir: string;
let state: string;

beforeAll(() => {
  dir = tempDir('saltnet-runner-');
  state = join(dir, 'state');
  mkdirSync(state);
});
afterAll(() => cleanup(dir));

const saltnet = (args: string[]) =>
  execa(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { ...FAST, SALTNET_STATE_DIR: state, CI: '1' },
    reject: false,
    all: true,
  });

describe('the example scenarios', () => {
  it('all pass on sim, in one shared testnet, two at a time', async () => {
    const files = await expandFiles([join(ROOT, 'scenarios/*.yaml')]);
    expect(files.length).toBeGreaterThanOrEqual(12);
    const lines: string[] = [];
    const results = await runFiles(files, {
      backend: 'sim',
      isolation: 'shared',
      workers: 2,
      bail: false,
      artifactsRoot: join(dir, 'artifacts-examples'),
      daemonEnv: FAST,
      log: (l) => lines.push(l),
    });
    const failed = results.filter((r) => r.status !== 'passed');
    expect(
      failed.map((r) => `${r.name}: ${r.failure?.message} ${r.failure?.expected ?? ''} ${r.failure?.actual ?? ''}`),
    ).toEqual([]);
    expect(results).toHaveLength(files.length);
  }, 300_000);
});

const FAILING = `name: a failing expectation
requires:
  height: 30
steps:
  - name: daemon height
    call: { path: /get_height }
    expect:
      result.status: OK
  - name: wrong on purpose
    call: { path: /get_info }
    expect:
      result.nettype: mainnet
  - name: never reached
    mine: 1
`;

describe('a failing scenario', () => {
  let out: Awaited<ReturnType<typeof saltnet>>;
  let artifactDir: string;
  beforeAll(async () => {
    writeFileSync(join(dir, 'failing.yaml'), FAILING);
    out = await saltnet([
      'run',
      'failing.yaml',
      '--backend',
      'sim',
      '--reporter',
      'junit',
      '--output',
      'report.xml',
      '--artifacts',
      'arts',
    ]);
    const runs = readdirSync(join(dir, 'arts'));
    expect(runs).toHaveLength(1);
    artifactDir = join(dir, 'arts', runs[0]!);
  }, 120_000);

  it('exits 1 and says which step, where, what was expected and what came', () => {
    expect(out.exitCode).toBe(1);
    expect(out.all).toContain('wrong on purpose');
    expect(out.all).toMatch(/failing\.yaml:9:\d+/);
    expect(out.all).toContain('result.nettype');
    expect(out.all).toContain('mainnet');
    expect(out.all).toContain('testnet');
    expect(out.all).toMatch(/0 passed, 1 failed/);
  });

  it('writes a JUnit report CI can read', () => {
    const xml = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'report.xml'), 'utf8'));
    expect(xml.testsuites['@_failures']).toBe('1');
    // a step that failed on a healthy testnet is the scenario's failure, not an infrastructure error
    expect(xml.testsuites['@_errors']).toBe('0');
    const cases = [xml.testsuites.testsuite.testcase].flat();
    expect(cases.map((c: any) => c['@_name'])).toEqual(['daemon height', 'wrong on purpose', 'never reached']);
    expect(cases[1].failure['@_type']).toBe('assertion');
    expect(cases.some((c: any) => c.error !== undefined)).toBe(false);
    expect(cases[2].skipped).toBeDefined();
  });

  it('leaves the resolved scenario, command lines, logs and an RPC transcript', () => {
    const files = readdirSync(artifactDir);
    expect(files).toEqual(expect.arrayContaining(['transcript.jsonl', 'logs']));
    const transcript = readFileSync(join(artifactDir, 'transcript.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(transcript.some((e) => e.path === '/get_info' && e.response.nettype === 'testnet')).toBe(true);
    expect(readdirSync(join(artifactDir, 'logs')).length).toBeGreaterThanOrEqual(2);
    const all = readdirSync(artifactDir)
      .map((f) => (f === 'logs' ? '' : readFileSync(join(artifactDir, f), 'utf8')))
      .join('\n');
    // command lines are recorded; the wallet password is in none of them (it is read from a file)
    expect(all).toMatch(/--password-file \S+\/wallets\/\.password/);
    expect(all).not.toMatch(/--password /);
  });

  it('replays from its artifact folder and fails the same way', async () => {
    const r = await saltnet(['repro', artifactDir]);
    expect(r.exitCode).toBe(1);
    expect(r.all).toContain('wrong on purpose');
    expect(existsSync(join(artifactDir, 'repro'))).toBe(true);
  }, 120_000);
});

describe('fresh isolation and --keep', () => {
  it('runs a scenario on a testnet of its own', async () => {
    const r = await saltnet([
      'run',
      join(ROOT, 'scenarios/token-lowercase.yaml'),
      '--backend',
      'sim',
      '--isolation',
      'fresh',
      '--reporter',
      'json',
      '--output',
      'fresh.json',
    ]);
    expect(r.exitCode).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'fresh.json'), 'utf8'));
    expect(report.summary).toMatchObject({ passed: 1, failed: 0 });
  }, 120_000);

  it('--keep leaves the failed testnet up, says how to reach it, and stops it on Ctrl-C', async () => {
    writeFileSync(join(dir, 'failing-keep.yaml'), FAILING);
    const p = execa(
      process.execPath,
      [CLI, 'run', 'failing-keep.yaml', '--backend', 'sim', '--isolation', 'fresh', '--keep'],
      {
        cwd: dir,
        env: { ...FAST, SALTNET_STATE_DIR: state, CI: '1' },
        reject: false,
        all: true,
        buffer: false,
      },
    );
    let out = '';
    p.all!.on('data', (d: Buffer) => (out += d.toString()));
    const line = await waitFor(
      'the --keep line',
      async () => out.split('\n').find((l) => l.startsWith('--keep:')),
      60_000,
      50,
    );
    const url = /daemon (http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!;
    expect(
      ((await (await fetch(`${url}/get_height`, { method: 'POST', body: '{}' })).json()) as { status: string }).status,
    ).toBe('OK');
    p.kill('SIGINT');
    const r = await p;
    expect(r.exitCode).toBe(130);
    await expect(fetch(`${url}/get_height`, { method: 'POST', body: '{}' })).rejects.toThrow();
  }, 120_000);
});

describe('selection and bad files', () => {
  it('splits files into shards that cover everything once', () => {
    const files = ['a', 'b', 'c', 'd', 'e'];
    const parts = [1, 2, 3].map((i) => shard(files, `${i}/3`));
    expect(parts).toEqual([['a', 'd'], ['b', 'e'], ['c']]);
    expect(() => shard(files, '4/3')).toThrow(/--shard takes i\/n/);
  });

  it('reports a bad scenario file with file, line and column, and no stack trace', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'name: bad\nsteps:\n  - transferr: { to: x, amount: 1 SAL1 }\n  - mine: -3\n');
    const r = await saltnet(['run', 'bad.yaml', '--backend', 'sim']);
    expect(r.exitCode).toBe(1);
    expect(r.all).toMatch(/bad\.yaml:3:\d+/);
    expect(r.all).toMatch(/bad\.yaml:4:\d+/);
    expect(r.all).not.toMatch(/\n\s+at .*\(.*\.js:\d+:\d+\)/);
  });

  it('--bail stops after the first failed scenario', async () => {
    writeFileSync(join(dir, 'a-fails.yaml'), FAILING.replace('a failing expectation', 'first, failing'));
    writeFileSync(join(dir, 'b-passes.yaml'), 'name: second\nsteps:\n  - call: { path: /get_height }\n');
    const results = await runFiles([join(dir, 'a-fails.yaml'), join(dir, 'b-passes.yaml')], {
      backend: 'sim',
      isolation: 'shared',
      workers: 1,
      bail: true,
      artifactsRoot: join(dir, 'arts-bail'),
      daemonEnv: FAST,
      log: () => undefined,
    });
    expect(results.map((r) => [r.name, r.status])).toEqual([['first, failing', 'failed']]);
  }, 120_000);

  it('runs only what --grep selects, and fails when a glob matches nothing', async () => {
    const r = await saltnet(['run', join(ROOT, 'scenarios/*.yaml'), '--backend', 'sim', '--grep', '^daemon endpoints']);
    expect(r.exitCode).toBe(0);
    expect(r.all).toMatch(/1 passed, 0 failed/);
    const none = await saltnet(['run', 'nothing/*.yaml']);
    expect(none.exitCode).toBe(1);
    expect(none.all).toContain('no scenario file matches nothing/*.yaml');
  }, 120_000);
});
