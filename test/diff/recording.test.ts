// Recordings (harness/diff/recording.ts): what a round trip keeps and scrubs, the errors of a bad
// recording (each naming its file and field), and how a scenario file changed, deleted or never
// recorded is told apart and reported as an error to re-record rather than compared.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compareRuns } from '../../harness/diff/diff.js';
import { checkScenarios, planAgainst } from '../../harness/diff/recording-check.js';
import {
  newestRecording,
  readRecording,
  RecordingError,
  writeRecording,
  type ProgramInfo,
  type WriteOptions,
} from '../../harness/diff/recording.js';
import type { ScenarioResult } from '../../harness/scenario/types.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const PROGRAM: ProgramInfo = {
  binaries: { salviumd: 'a'.repeat(64), 'salvium-wallet-rpc': 'b'.repeat(64) },
  program: "Salvium 'One' (v1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release)",
  tag: 'v1.1.3c',
};
const SCENARIO =
  'name: two steps\nsteps:\n  - call: { path: /get_info }\n  - get_token_info: { url: "http://127.0.0.1:8000/x.json" }\n';
let root: string;

beforeEach(() => {
  root = tempDir('saltnet-recording-');
  mkdirSync(join(root, 'scenarios', 'more'), { recursive: true });
  writeFileSync(join(root, 'scenarios', 'info.yaml'), SCENARIO);
  writeFileSync(join(root, 'scenarios', 'more', 'info.yaml'), SCENARIO.replace('two steps', 'the other info'));
});
afterEach(() => cleanup(root));

const opts = (over: Partial<WriteOptions> = {}): WriteOptions => ({
  root,
  backend: 'salvium',
  program: PROGRAM,
  difficulty: 1,
  isolation: 'fresh',
  saltnetVersion: '0.1.0',
  recordedWith: 'npm run record-conformance',
  date: new Date('2026-01-02T03:04:05Z'),
  ...over,
});

/** A real run's result, with everything the recording must drop or scrub. */
function result(file: string, name = 'two steps'): ScenarioResult {
  return {
    file: join(root, file),
    name,
    status: 'passed',
    ms: 1234,
    backend: 'salvium',
    artifactDir: join(tmpdir(), 'saltnet-artifacts', 'run-1'),
    logTails: { daemon: ['listening on 127.0.0.1:45001'] },
    steps: [
      {
        index: 0,
        name: 'call /get_info',
        action: 'call',
        status: 'passed',
        ms: 12,
        request: { path: '/get_info', port: 45001 },
        response: {
          result: {
            version: '1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release',
            nettype: 'testnet',
            height: 1201,
            supply: 2n ** 70n + 1n,
            rpc_port: 45001,
            pid: 4242,
            free_space: 84928819200,
            database_size: 2449408,
            speed: 31,
            data_dir: join(tmpdir(), 'saltnet-x', 'daemon'),
            home: join(homedir(), '.cache', 'saltnet'),
          },
        },
      },
      {
        index: 1,
        name: 'get_token_info',
        action: 'call',
        status: 'failed',
        ms: 3,
        failure: { message: `no token, see ${join(root, 'scenarios', 'info.yaml')}`, path: 'result' },
        response: {
          result: {
            hosted: 'http://127.0.0.1:41169/rich.json',
            given: 'http://127.0.0.1:8000/x.json',
            daemon: 'localhost:45001',
          },
        },
      },
    ],
  };
}

describe('a round trip', () => {
  it("keeps each step's index, name, status, failure message and answer (bigints exact); drops artifacts, logs, requests and timings; scrubs the machine", async () => {
    const dir = join(root, 'rec');
    const m = await writeRecording(
      dir,
      [result('scenarios/more/info.yaml', 'the other info'), result('scenarios/info.yaml')],
      opts(),
    );
    expect(m).toMatchObject({
      format: 1,
      backend: 'salvium',
      difficulty: 1,
      isolation: 'fresh',
      saltnet: '0.1.0',
      recordedAt: '2026-01-02T03:04:05.000Z',
      binaries: PROGRAM.binaries,
    });
    expect(m.version).toEqual({
      tag: 'v1.1.3c',
      program: PROGRAM.program,
      rpc: '1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release',
    });
    // Relative files, sorted; a base name taken already gets its folders.
    expect(m.scenarios.map((s) => [s.file, s.result, s.status])).toEqual([
      ['scenarios/info.yaml', 'info.json', 'passed'],
      ['scenarios/more/info.yaml', 'scenarios_more_info.json', 'passed'],
    ]);
    expect(readdirSync(dir).sort()).toEqual(['info.json', 'manifest.json', 'scenarios_more_info.json']);
    const text = readFileSync(join(dir, 'info.json'), 'utf8');
    expect(text).not.toContain(root);
    expect(text).not.toContain(tmpdir() + '/');
    expect(text).toContain('"supply": 1180591620717411303425');

    const rec = await readRecording(dir);
    expect(rec.manifest).toEqual(m);
    const [r] = rec.results;
    expect(r).toEqual({
      file: 'scenarios/info.yaml',
      name: 'two steps',
      status: 'passed',
      ms: 0,
      backend: 'salvium',
      steps: [
        {
          index: 0,
          name: 'call /get_info',
          action: 'call',
          status: 'passed',
          ms: 0,
          response: {
            result: {
              version: '1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release',
              nettype: 'testnet',
              height: 1201,
              supply: 2n ** 70n + 1n,
              rpc_port: 0,
              pid: 0,
              free_space: 0,
              database_size: 0,
              speed: 0,
              data_dir: '<tmp>/saltnet-x/daemon',
              home: '~/.cache/saltnet',
            },
          },
        },
        // The run's own ports become 0; the one the scenario file spells stays.
        {
          index: 1,
          name: 'get_token_info',
          action: 'call',
          status: 'failed',
          ms: 0,
          failure: { message: 'no token, see <root>/scenarios/info.yaml' },
          response: {
            result: {
              hosted: 'http://127.0.0.1:0/rich.json',
              given: 'http://127.0.0.1:8000/x.json',
              daemon: 'localhost:0',
            },
          },
        },
      ],
    });
  });

  it('compares like the run it came from: no divergence against the original results (ports and pids by form)', async () => {
    const dir = join(root, 'rec');
    const live = [result('scenarios/info.yaml')];
    // Paths in an answer are this machine's: scrubbed, they would be value divergences (as between two machines).
    const info = (live[0]!.steps[0]!.response as { result: Record<string, unknown> }).result;
    delete info.data_dir;
    delete info.home;
    await writeRecording(dir, live, opts());
    const rec = await readRecording(dir);
    const plan = planAgainst(rec, await checkScenarios(rec, root), 'sim');
    expect(plan.run).toEqual([join(root, 'scenarios/info.yaml')]);
    const r = compareRuns(live, plan.recorded, { a: { backend: 'sim' }, b: { backend: 'salvium', recording: dir } });
    expect(r.summary).toMatchObject({ scenarios: 1, steps: 2, divergences: 0, errors: 0 });
  });

  it('a second recording replaces the folder; a file outside the project root is refused', async () => {
    const dir = join(root, 'rec');
    await writeRecording(dir, [result('scenarios/info.yaml'), result('scenarios/more/info.yaml', 'x')], opts());
    await writeRecording(dir, [result('scenarios/info.yaml')], opts());
    expect(readdirSync(dir).sort()).toEqual(['info.json', 'manifest.json']);
    await expect(
      writeRecording(join(root, 'rec2'), [{ ...result('x.yaml'), file: join(tmpdir(), 'elsewhere.yaml') }], opts()),
    ).rejects.toThrow(/elsewhere\.yaml is outside the project root/);
    expect(readdirSync(root).sort()).toEqual(['rec', 'scenarios']);
  });

  it('keepFrom re-records some scenarios and keeps the others of the same programs (not of other programs)', async () => {
    const dir = join(root, 'rec');
    await writeRecording(dir, [result('scenarios/info.yaml'), result('scenarios/more/info.yaml', 'x')], opts());
    const first = (await readRecording(dir)).manifest.scenarios.find((e) => e.file === 'scenarios/more/info.yaml')!;
    const before = readFileSync(join(dir, first.result), 'utf8');
    await writeRecording(dir, [result('scenarios/info.yaml', 'again')], opts({ keepFrom: dir }));
    const rec = await readRecording(dir);
    expect(rec.manifest.scenarios.map((e) => e.file)).toEqual(['scenarios/info.yaml', 'scenarios/more/info.yaml']);
    expect(rec.results.find((r) => r.file === 'scenarios/info.yaml')?.name).toBe('again');
    const kept = rec.manifest.scenarios.find((e) => e.file === 'scenarios/more/info.yaml')!;
    expect(readFileSync(join(dir, kept.result), 'utf8')).toBe(before);
    // A scenario file removed since is not carried over.
    rmSync(join(root, 'scenarios', 'more'), { recursive: true });
    await writeRecording(dir, [result('scenarios/info.yaml')], opts({ keepFrom: dir }));
    expect((await readRecording(dir)).manifest.scenarios).toHaveLength(1);
    const other = { ...PROGRAM, binaries: { salviumd: 'c'.repeat(64) } };
    await expect(
      writeRecording(dir, [result('scenarios/info.yaml')], opts({ program: other, keepFrom: dir })),
    ).rejects.toThrow(/recorded with other programs/);
  });

  it('keepFrom keeps the RPC version the kept recording saw when no scenario run now asks get_info', async () => {
    const dir = join(root, 'rec');
    await writeRecording(dir, [result('scenarios/info.yaml')], opts());
    expect((await readRecording(dir)).manifest.version.rpc).toBe('1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release');
    const noInfo = { ...result('scenarios/info.yaml', 'again'), steps: [] };
    await writeRecording(dir, [noInfo], opts({ keepFrom: dir }));
    expect((await readRecording(dir)).manifest.version.rpc).toBe('1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release');
    // Without a recording to keep from, none is made up.
    await writeRecording(dir, [noInfo], opts());
    expect((await readRecording(dir)).manifest.version.rpc).toBeUndefined();
  });

  it('the newest recording is the newest release, then the latest recorded', async () => {
    const parent = join(root, 'corpus');
    await writeRecording(
      join(parent, 'salvium-v1.1.3c'),
      [result('scenarios/info.yaml')],
      opts({ date: new Date('2026-05-01T00:00:00Z') }),
    );
    await writeRecording(
      join(parent, 'salvium-v1.1.10'),
      [result('scenarios/info.yaml')],
      opts({ program: { ...PROGRAM, tag: 'v1.1.10' }, date: new Date('2026-01-01T00:00:00Z') }),
    );
    await writeRecording(
      join(parent, 'salvium-v1.1.3'),
      [result('scenarios/info.yaml')],
      opts({ program: { ...PROGRAM, tag: 'v1.1.3' } }),
    );
    mkdirSync(join(parent, 'not-a-recording'));
    expect(await newestRecording(parent)).toBe(join(parent, 'salvium-v1.1.10'));
    expect(await newestRecording(join(root, 'nowhere'))).toBeUndefined();
  });
});

describe('a bad recording', () => {
  let dir: string;
  beforeEach(async () => {
    dir = join(root, 'rec');
    await writeRecording(dir, [result('scenarios/info.yaml'), result('scenarios/more/info.yaml', 'x')], opts());
  });
  const edit = (file: string, f: (j: any) => void): void => {
    const j = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    f(j);
    writeFileSync(join(dir, file), JSON.stringify(j));
  };
  const problems = async (): Promise<string[]> => {
    const e = await readRecording(dir).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(RecordingError);
    return (e as RecordingError).problems;
  };

  it('every problem of the manifest, each with its file and field', async () => {
    edit('manifest.json', (j) => {
      j.difficulty = 0;
      j.scenarios[1].sha256 = 'abc';
      j.scenarios[0].file = '/abs/info.yaml';
      j.colour = 'blue';
    });
    const m = join(dir, 'manifest.json');
    expect(await problems()).toEqual([
      `${m}: difficulty: Too small: expected number to be >=1`,
      `${m}: scenarios[0].file: expected a path relative to the project root, with / and no ..`,
      `${m}: scenarios[1].sha256: expected a SHA-256: 64 lowercase hex characters`,
      `${m}: (file): Unrecognized key: "colour"`,
    ]);
  });

  it("a scenario file's problems, a missing one, JSON that does not parse, a folder that is not a recording", async () => {
    edit('info.json', (j) => {
      j.steps[1].status = 'ok';
      delete j.steps[0].index;
    });
    expect(await problems()).toEqual([
      `${join(dir, 'info.json')}: steps[0].index: Invalid input: expected number, received undefined`,
      `${join(dir, 'info.json')}: steps[1].status: Invalid option: expected one of "passed"|"failed"|"skipped"`,
    ]);
    rmSync(join(dir, 'info.json'));
    writeFileSync(join(dir, 'scenarios_more_info.json'), '{"file": ');
    const [missing, bad] = await problems();
    expect(missing).toBe(`${join(dir, 'info.json')}: cannot read it: no such file`);
    expect(bad).toMatch(new RegExp(`^${join(dir, 'scenarios_more_info.json')}: not valid JSON: `));
    await expect(readRecording(root)).rejects.toThrow(`${root}: not a recording: the folder has no manifest.json`);
    // a folder that is not there is said not to be there, a file is said to be a file
    await expect(readRecording(join(root, 'nope'))).rejects.toThrow(
      `${join(root, 'nope')}: no such folder (a recording is a folder such as fixtures/conformance/salvium-v1.1.3c)`,
    );
    await expect(readRecording(join(root, 'caf\uFFFD'))).rejects.toThrow(/no such folder; its name is not valid UTF-8/);
    writeFileSync(join(root, 'a-file'), '');
    await expect(readRecording(join(root, 'a-file'))).rejects.toThrow(
      `${join(root, 'a-file')}: not a recording: it is a file, and a recording is a folder`,
    );
  });

  it('a scenario file that names another scenario than the manifest says', async () => {
    edit('info.json', (j) => {
      j.file = 'scenarios/other.yaml';
    });
    expect(await problems()).toEqual([
      `${join(dir, 'info.json')}: file: "scenarios/other.yaml", but manifest.json (scenarios[0].file) says "scenarios/info.yaml"`,
    ]);
  });
});

describe('a stale recording', () => {
  it('tells changed, deleted and unrecorded scenario files from fresh ones, and makes each an error to re-record', async () => {
    const dir = join(root, 'rec');
    await writeRecording(
      dir,
      [result('scenarios/info.yaml'), result('scenarios/more/info.yaml', 'the other info')],
      opts(),
    );
    writeFileSync(join(root, 'scenarios', 'info.yaml'), `${SCENARIO}  - mine: 1\n`);
    const rec = await readRecording(dir);
    expect((await checkScenarios(rec, root)).map((c) => c.state)).toEqual(['changed', 'fresh']);
    rmSync(join(root, 'scenarios', 'more', 'info.yaml'));
    writeFileSync(join(root, 'scenarios', 'new.yaml'), SCENARIO);
    const checks = await checkScenarios(rec, root, [
      'scenarios/info.yaml',
      'scenarios/more/info.yaml',
      join(root, 'scenarios', 'new.yaml'),
    ]);
    expect(checks.map((c) => [c.file, c.state])).toEqual([
      [join(root, 'scenarios/info.yaml'), 'changed'],
      [join(root, 'scenarios/more/info.yaml'), 'deleted'],
      [join(root, 'scenarios/new.yaml'), 'unrecorded'],
    ]);
    const plan = planAgainst(rec, checks, 'sim');
    expect(plan.run).toEqual([]);
    expect(plan.notRun.map((r) => [r.status, r.failure?.message])).toEqual(
      Array(3).fill(['skipped', 'not run: its recording is stale']),
    );
    const messages = plan.recorded.map((r) => `${r.status}: ${r.failure?.message}`);
    expect(messages[0]).toMatch(
      /^error: the scenario file changed since it was recorded in .*rec \(SHA-256 [0-9a-f]{12}… then, [0-9a-f]{12}… now\): re-record it \(npm run record-conformance\); not compared$/,
    );
    expect(messages[1]).toMatch(
      /^error: the scenario file is gone, but .*rec has a recording of it: re-record it \(npm run record-conformance\)$/,
    );
    expect(messages[2]).toMatch(
      /^error: the scenario file is not in the recording .*rec: re-record it \(npm run record-conformance\), or leave it out$/,
    );
    // Compared, each is an error (the run fails), not a divergence in its steps.
    const r = compareRuns(plan.notRun, plan.recorded, {
      a: { backend: 'sim' },
      b: { backend: 'salvium', recording: dir },
    });
    expect(r.scenarios.map((s) => [s.status, s.stepsCompared, s.divergences.length])).toEqual(
      Array(3).fill(['error', 0, 0]),
    );
    expect(r.summary).toMatchObject({ errors: 3, divergences: 0 });
    expect(r.ok).toBe(false);
  });
});
