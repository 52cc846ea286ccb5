// `saltnet diff --against <recording>` end to end on the simulator: a recording made from a sim run
// agrees with a live sim run (only side A runs); a scenario file changed since the recording is an
// error telling the user to re-record, not compared; side B cannot be given twice.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programInfo, writeRecording } from '../../harness/diff/recording.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/harness/cli/main.js');
const HASHRATE = { SALTNET_SIM_HASHRATE: '250000' };
let dir: string;

/** `saltnet diff <args>` in the project folder, with its own cache and the fast simulated hash rate. */
function diff(args: string[]) {
  return execa(
    process.execPath,
    [CLI, 'diff', ...args, '--cache-dir', join(dir, 'cache'), '--artifacts', join(dir, 'arts')],
    {
      cwd: dir,
      env: { ...HASHRATE, SALTNET_STATE_DIR: join(dir, 'state') },
      reject: false,
    },
  );
}

beforeAll(async () => {
  dir = tempDir('saltnet-against-');
  mkdirSync(join(dir, 'scenarios'));
  mkdirSync(join(dir, 'state'));
  for (const f of ['balances.yaml', 'daemon-basics.yaml'])
    copyFileSync(join(ROOT, 'scenarios', f), join(dir, 'scenarios', f));
  const files = ['balances.yaml', 'daemon-basics.yaml'].map((f) => join(dir, 'scenarios', f));
  const results = await runFiles(files, {
    backend: 'sim',
    daemonEnv: HASHRATE,
    difficulty: 1,
    cacheDir: join(dir, 'cache'),
    isolation: 'fresh',
    workers: 1,
    bail: false,
    artifactsRoot: join(dir, 'arts', 'rec'),
    log: () => undefined,
  });
  expect(results.map((r) => r.status)).toEqual(['passed', 'passed']);
  await writeRecording(join(dir, 'rec'), results, {
    root: dir,
    backend: 'sim',
    program: await programInfo('sim'),
    difficulty: 1,
    isolation: 'fresh',
    saltnetVersion: 'test',
    recordedWith: 'the test',
  });
}, 180_000);
afterAll(() => cleanup(dir));

describe('saltnet diff --against', () => {
  it('a live sim run agrees with a sim recording: every recorded scenario run on side A only, exit 0', async () => {
    const r = await diff(['--against', 'rec', '--a', 'sim', '--reporter', 'json', '--output', 'same.json']);
    expect(r.stderr).toContain(
      'saltnet diff: side B is the recording rec (its scenario files, relative to the working directory)',
    );
    expect(r.stderr).toContain('saltnet diff: side A (sim)');
    // As recorded: each scenario on its own testnet at difficulty 1 (the backend's own would be 500).
    expect(r.stderr).toMatch(
      /^saltnet diff: the recording: sim, Salvium 'One' \(v1\.1\.3c-simulated, .*\), difficulty 1, isolation fresh, recorded .*; side A runs at difficulty 1, isolation fresh$/m,
    );
    expect(r.stderr).not.toContain('side B (');
    expect(r.stderr).toContain('2 scenarios, 10 steps compared: no divergences');
    expect(r.exitCode).toBe(0);
    const doc = JSON.parse(readFileSync(join(dir, 'same.json'), 'utf8'));
    expect(doc.b).toEqual({ backend: 'sim', recording: join(dir, 'rec') });
    expect(doc.scenarios.map((s: { file: string; status: string }) => [s.file, s.status])).toEqual([
      [join(dir, 'scenarios/balances.yaml'), 'same'],
      [join(dir, 'scenarios/daemon-basics.yaml'), 'same'],
    ]);
  }, 180_000);

  it('a scenario file changed since the recording: an error telling to re-record, not compared; the other still compared; exit 1', async () => {
    const file = join(dir, 'scenarios', 'balances.yaml');
    const before = readFileSync(file, 'utf8');
    writeFileSync(file, `${before}  - mine: 1\n`);
    try {
      const r = await diff(['scenarios/*.yaml', '--against', 'rec']);
      expect(r.exitCode).toBe(1);
      const out = r.stdout.split('\n');
      expect(out[0]).toBe('saltnet diff: A = sim, B = sim (recording rec)');
      const at = out.findIndex((l) => l.startsWith('! error     scenarios/balances.yaml'));
      expect(at).toBeGreaterThan(0);
      expect(out[at + 1]).toBe('    A: skipped: not run: its recording is stale');
      expect(out[at + 2]).toMatch(
        /^ {4}B: error: the scenario file changed since it was recorded in rec \(SHA-256 [0-9a-f]{12}… then, [0-9a-f]{12}… now\): re-record it \(the test\); not compared$/,
      );
      expect(out).toContain('✓ same      scenarios/daemon-basics.yaml — daemon endpoints and methods (5 steps)');
      expect(r.stdout).toContain('2 scenarios, 5 steps compared: no divergences, 1 error');
      expect(r.stderr).not.toContain('A passed  scenarios/balances.yaml');
      // Typed, the options are side A's own.
      const typed = await diff([
        'scenarios/daemon-basics.yaml',
        '--against',
        'rec',
        '--isolation',
        'shared',
        '--difficulty',
        '2',
      ]);
      expect(typed.stderr).toMatch(/side A runs at difficulty 2, isolation shared$/m);
    } finally {
      writeFileSync(file, before);
    }
  }, 180_000);

  it('side B comes from the recording: --b or --bin-dir-b with it is refused before anything runs; a bad recording names its file', async () => {
    const r = await diff(['--against', 'rec', '--b', 'sim']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim()).toBe('saltnet: --against gives side B (the recording): leave out --b and --bin-dir-b');
    mkdirSync(join(dir, 'bad'), { recursive: true });
    writeFileSync(join(dir, 'bad', 'manifest.json'), '{"format": 2}');
    const bad = await diff(['--against', 'bad']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(`saltnet: ${join(dir, 'bad', 'manifest.json')}: format: `);
    expect(bad.stderr).not.toMatch(/^\s+at /m);
  });
});
