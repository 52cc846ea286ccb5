// `saltnet diff` end to end on the simulator: two sim sides agree on the example scenarios; a side
// B of wrappers whose wallet RPC words its errors differently (SALTNET_SIM_TEST_ERROR_SUFFIX) is
// reported at the right scenario, step and path in every report, and an accept file turns it
// into an accepted divergence, warning about its stale entry.
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffScenarios } from '../../harness/diff/diff.js';
import { cleanup, SIM_BIN_DIR, tempDir } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/harness/cli/main.js');
const EXAMPLES = ['balances.yaml', 'daemon-basics.yaml'].map((f) => join(ROOT, 'scenarios', f));
const SUFFIX = ' (build B)';
let dir: string;

beforeAll(() => {
  dir = tempDir('saltnet-diff-');
  mkdirSync(join(dir, 'state'));
});
afterAll(() => cleanup(dir));

/** `saltnet diff <args>` in the test's folder, with its own cache and run registry and the fast simulated hash rate. */
function diff(args: string[]) {
  return execa(
    process.execPath,
    [CLI, 'diff', ...args, '--cache-dir', join(dir, 'cache'), '--artifacts', join(dir, 'arts')],
    {
      cwd: dir,
      env: { SALTNET_SIM_HASHRATE: '250000', SALTNET_STATE_DIR: join(dir, 'state') },
      reject: false,
    },
  );
}

/** The command lines of the processes whose environment carries the mark. */
function marked(mark: string): string[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        if (!readFileSync(`/proc/${p}/environ`, 'latin1').split('\0').includes(`SALTNET_TEST_MARK=${mark}`)) return [];
        return [readFileSync(`/proc/${p}/cmdline`, 'latin1').replaceAll('\0', ' ')];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** A bin dir of wrappers around the simulator whose wallet RPC appends SUFFIX to every error message. */
function buildB(): string {
  const bin = join(dir, 'build-b');
  mkdirSync(bin);
  const wrap = (name: string, env = ''): void => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${env}exec "${join(SIM_BIN_DIR, name)}" "$@"\n`);
    chmodSync(join(bin, name), 0o755);
  };
  wrap('salviumd');
  wrap('salvium-wallet-cli');
  wrap('salvium-wallet-rpc', `SALTNET_SIM_TEST_ERROR_SUFFIX='${SUFFIX}' export SALTNET_SIM_TEST_ERROR_SUFFIX\n`);
  return bin;
}

describe('two sim sides', () => {
  it('agree on every step of balances.yaml and daemon-basics.yaml: no divergence, exit 0', async () => {
    const r = await diff([...EXAMPLES, '--a', 'sim', '--b', 'sim', '--reporter', 'json', '--output', 'same.json']);
    expect(r.stderr).toContain('2 scenarios, 10 steps compared: no divergences');
    expect(r.exitCode).toBe(0);
    // A simulator side runs after the other (it follows that side's draws): B began once A's scenarios had ended.
    const lines = r.stderr.split('\n');
    const bStarts = lines.findIndex((l) => l.startsWith('saltnet diff: side B'));
    expect(bStarts, r.stderr).toBeGreaterThan(-1);
    expect(bStarts, r.stderr).toBeGreaterThan(lines.findLastIndex((l) => /^ {2}A (passed|failed)/.test(l)));
    const doc = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(dir, 'same.json'), 'utf8')));
    expect(doc.summary).toEqual({
      scenarios: 2,
      steps: 10,
      skipped: 0,
      divergences: 0,
      accepted: 0,
      diverged: 0,
      errors: 0,
      stale: 0,
    });
    expect(doc.scenarios.map((s: { status: string; a: { status: string } }) => [s.status, s.a.status])).toEqual([
      ['same', 'passed'],
      ['same', 'passed'],
    ]);
  }, 180_000);
});

describe('side B answers differently', () => {
  let bin: string;
  let scenario: string;
  beforeAll(() => {
    bin = buildB();
    scenario = join(dir, 'reworded.yaml');
    writeFileSync(
      scenario,
      [
        'name: an asset the wallet never held',
        'steps:',
        '  - name: the height',
        '    call: { path: /get_height }',
        '  - name: an unknown asset',
        '    get_balance: { asset_type: XYZW }',
        '    expect_error: { code: -1 }',
        '',
      ].join('\n'),
    );
  });
  const args = (): string[] => ['reworded.yaml', EXAMPLES[1]!, '--a', 'sim', '--b', 'salvium', '--bin-dir-b', bin];
  const expected = {
    step: 2,
    stepName: 'an unknown asset',
    path: 'error.message',
    kind: 'value',
    a: `"Source asset 'XYZW' not found in wallet"`,
    b: `"Source asset 'XYZW' not found in wallet${SUFFIX}"`,
  };

  it('JSON: the divergence at its scenario, step and path; the other scenario the same; exit 1', async () => {
    const r = await diff([...args(), '--reporter', 'json']);
    expect(r.exitCode).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ ok: false, a: { backend: 'sim' }, b: { backend: 'salvium', binDir: bin } });
    expect(doc.summary).toEqual({
      scenarios: 2,
      steps: 7,
      skipped: 0,
      divergences: 1,
      accepted: 0,
      diverged: 1,
      errors: 0,
      stale: 0,
    });
    // By name: their order follows the paths, and where the checkout lives decides which sorts first.
    const byName = new Map<string, any>(doc.scenarios.map((x: any) => [x.name, x]));
    const reworded = byName.get('an asset the wallet never held');
    const daemon = byName.get('daemon endpoints and methods');
    expect([daemon.name, daemon.status, daemon.b.backend]).toEqual(['daemon endpoints and methods', 'same', 'salvium']);
    expect(reworded).toMatchObject({
      file: scenario,
      status: 'diverged',
      a: { status: 'passed' },
      b: { status: 'passed' },
    });
    expect(reworded.divergences).toEqual([expected]);
    // The human table goes to stderr meanwhile.
    expect(r.stderr).toContain('2 scenarios, 7 steps compared: 1 divergence in 1 scenario');
    expect(r.stderr).toMatch(/^✗ diverged {2}reworded\.yaml — an asset the wallet never held \(2 steps\)$/m);
  }, 180_000);

  it('JUnit: a testcase per scenario, the divergence in the failure of its scenario', async () => {
    const r = await diff([...args(), '--reporter', 'junit', '--output', 'diff.xml']);
    expect(r.exitCode).toBe(1);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
      await import('node:fs').then((fs) => fs.readFileSync(join(dir, 'diff.xml'), 'utf8')),
    );
    const suite = xml.testsuites.testsuite;
    expect(suite).toMatchObject({ tests: '2', failures: '1', errors: '0' });
    const cases = new Map<string, any>(suite.testcase.map((c: any) => [c.name, c]));
    expect(cases.get('daemon endpoints and methods').failure).toBeUndefined();
    const failure = cases.get('an asset the wallet never held').failure;
    expect(failure).toMatchObject({ message: '1 divergence', type: 'divergence' });
    expect(failure['#text']).toMatch(
      /^2 an unknown asset +error\.message +"Source asset 'XYZW' not found in wallet" +"Source asset 'XYZW' not found in wallet \(build B\)" +value$/m,
    );
  }, 180_000);

  it('an accept file (found in the working directory) accepts it: exit 0, listed with its reason, the stale entry warned about', async () => {
    writeFileSync(
      join(dir, 'saltnet.diff-accept.yaml'),
      [
        'accept:',
        '  - scenario: reworded.yaml',
        '    step: an unknown asset',
        '    path: error.message',
        '    reason: build B words its errors differently',
        '  - scenario: daemon endpoints and methods',
        '    step: 1',
        '    path: result.version',
        '    reason: was different once',
        '',
      ].join('\n'),
    );
    try {
      const r = await diff(args());
      expect(r.exitCode).toBe(0);
      const out = r.stdout.split('\n');
      expect(out).toContain('~ accepted  reworded.yaml — an asset the wallet never held (2 steps)');
      expect(out).toContain(
        `      accepted: build B words its errors differently (${join(dir, 'saltnet.diff-accept.yaml')}:2:5)`,
      );
      expect(out).toContain(
        `warning: ${join(dir, 'saltnet.diff-accept.yaml')}:6:5: stale accept entry: it matched no divergence (scenario "daemon endpoints and methods", step 1, path result.version)`,
      );
      expect(out).toContain('2 scenarios, 7 steps compared: no divergences, 1 accepted');
    } finally {
      cleanup(join(dir, 'saltnet.diff-accept.yaml'));
    }
  }, 180_000);
});

describe('before anything runs', () => {
  it('a bad accept file is reported with file:line:col and no stack trace', async () => {
    writeFileSync(join(dir, 'bad-accept.yaml'), 'accept:\n  - scenario: x\n    path: result.fee\n');
    const r = await diff(['reworded.yaml', '--a', 'sim', '--b', 'sim', '--accept', 'bad-accept.yaml']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n').at(-1)).toBe(
      `saltnet: ${join(dir, 'bad-accept.yaml')}:2:5: accept[0].reason: missing: say why this divergence is accepted (expected why this divergence is accepted (text, not empty))`,
    );
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stderr).not.toContain('side A');
  });

  it('a side whose daemon cannot start: its scenarios are errors, the other side (run beside it) passes, and nothing lives on', async () => {
    const bin = join(dir, 'dead-daemon');
    mkdirSync(bin);
    const write = (name: string, body: string): void => {
      writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    const sim = (name: string): string => `exec "${join(SIM_BIN_DIR, name)}" "$@"`;
    // It tells its version (the backend's check), then dies at every start.
    write(
      'salviumd',
      `case " $* " in *" --version "*) ${sim('salviumd')};; esac\necho "cannot open the database" >&2\nexit 1`,
    );
    write('salvium-wallet-cli', sim('salvium-wallet-cli'));
    write('salvium-wallet-rpc', sim('salvium-wallet-rpc'));
    const mark = `diff-dead-${process.pid}`;
    process.env.SALTNET_TEST_MARK = mark;
    let r: Awaited<ReturnType<typeof diffScenarios>>;
    try {
      r = await diffScenarios(EXAMPLES, {
        a: { backend: 'sim' },
        b: { backend: 'salvium', binDir: bin },
        cacheDir: join(dir, 'cache-dead'),
        artifactsRoot: join(dir, 'arts-dead'),
      });
    } finally {
      delete process.env.SALTNET_TEST_MARK;
    }
    expect(r.ok).toBe(false);
    expect(r.summary.errors).toBe(2);
    for (const sc of r.scenarios) {
      expect(sc.a.status).toBe('passed');
      expect(sc.b.message).toMatch(/daemon exited with code 1 before it was ready/);
    }
    // Both sides' testnets were stopped: no process of the diff lives on.
    expect(marked(mark)).toEqual([]);
  }, 120_000);

  it('a side whose programs are missing fails at once, before side A runs', async () => {
    const started: string[] = [];
    await expect(
      diffScenarios(EXAMPLES, {
        a: { backend: 'sim' },
        b: { backend: 'salvium', binDir: join(dir, 'nowhere') },
        hooks: { sideStart: (s) => started.push(s) },
      }),
    ).rejects.toThrow(/^side B \(salvium, bin dir .*nowhere\): /);
    expect(started).toEqual([]);
  });
});
