// When the infrastructure lets a run down, on the simulator behind `--backend salvium --bin-dir`
// wrappers whose daemon refuses to start: a testnet start is tried a second time before its
// scenarios give up, and what then fails is reported as an infrastructure error (status `error`,
// JUnit <error type="infrastructure">), apart from the scenarios' own failures.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { toJUnit } from '../../harness/scenario/report/junit.js';
import { cleanup, SIM_BIN_DIR, tempDir } from '../helpers/sim.js';
import { startTestnet, type Testnet, type TestnetOptions } from '../../harness/testnet/testnet.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = join(ROOT, 'dist/harness/cli/main.js');
const FAST = { SALTNET_SIM_HASHRATE: '250000' };
const RETRY_LINE = /^saltnet: building the shared testnet failed \(daemon exited with code 3 .*\); trying once more$/;
let dir: string;
let state: string;

beforeAll(() => {
  dir = tempDir('saltnet-infra-');
  state = join(dir, 'state');
  mkdirSync(state);
});
afterAll(() => cleanup(dir));

/**
 * A failed start keeps its workdir for the logs (`up failed; logs kept in <workdir>/logs`): these tests remove them.
 */
function removeKeptWorkdirs(output: string): void {
  for (const m of output.matchAll(/logs kept in (\S+)\/logs/g)) rmSync(m[1]!, { recursive: true, force: true });
}

/**
 * A bin dir of wrappers around the simulator whose daemon exits with code 3 on its first `failures`
 * starts (saying which attempt it was, and noting it in the file `failed`), then is the simulator's daemon.
 */
function flakyBinDir(name: string, failures: number): string {
  const bin = join(dir, name);
  mkdirSync(bin);
  const count = join(bin, 'starts');
  const failed = join(bin, 'failed');
  for (const p of ['salvium-wallet-cli', 'salvium-wallet-rpc'])
    writeFileSync(join(bin, p), `#!/bin/sh\nexec "${join(SIM_BIN_DIR, p)}" "$@"\n`);
  writeFileSync(
    join(bin, 'salviumd'),
    [
      '#!/bin/sh',
      `case "$*" in *--version*) exec "${join(SIM_BIN_DIR, 'salviumd')}" "$@";; esac`,
      `n=$(cat "${count}" 2>/dev/null || echo 0); n=$((n + 1)); echo $n > "${count}"`,
      `if [ $n -le ${failures} ]; then echo "wrapper: start-up failure #$n"; echo $n >> "${failed}"; exit 3; fi`,
      `exec "${join(SIM_BIN_DIR, 'salviumd')}" "$@"`,
      '',
    ].join('\n'),
  );
  for (const p of ['salviumd', 'salvium-wallet-cli', 'salvium-wallet-rpc']) chmodSync(join(bin, p), 0o755);
  return bin;
}

/**
 * How many times the wrapper refused to start (a successful testnet may start its daemon more than once).
 * Within one testnet start the daemon program itself is started again after each failed start, up
 * to its 3 restarts: a testnet start fails only after 4 refusals (ONE_TESTNET_START).
 */
const ONE_TESTNET_START = 4;
/** How many times the wrapper refused to start. */
const refusals = (bin: string): number => readFileSync(join(bin, 'failed'), 'utf8').trim().split('\n').length;

function scenario(
  file: string,
  name: string,
  steps = '  - call: { path: /get_height }\n    expect: { result.status: OK }\n',
): string {
  const path = join(dir, file);
  writeFileSync(path, `name: ${name}\nsteps:\n${steps}`);
  return path;
}

describe('a testnet that does not start the first time', () => {
  it('shared: is built again, says so once, and its scenarios pass', async () => {
    const bin = flakyBinDir('bin-once', ONE_TESTNET_START);
    const files = [scenario('once-a.yaml', 'once a'), scenario('once-b.yaml', 'once b')];
    const lines: string[] = [];
    const results = await runFiles(files, {
      backend: 'salvium',
      binDir: bin,
      isolation: 'shared',
      workers: 1,
      bail: false,
      artifactsRoot: join(dir, 'arts-once'),
      daemonEnv: FAST,
      log: (l) => lines.push(l),
    });
    removeKeptWorkdirs(lines.join('\n'));
    expect(results.map((r) => [r.name, r.status, r.failure?.message])).toEqual([
      ['once a', 'passed', undefined],
      ['once b', 'passed', undefined],
    ]);
    expect(lines.filter((l) => RETRY_LINE.test(l))).toHaveLength(1);
    expect(refusals(bin)).toBe(ONE_TESTNET_START);
  }, 120_000);

  it('fresh: the scenario’s own testnet is started again', async () => {
    const bin = flakyBinDir('bin-fresh', ONE_TESTNET_START);
    const lines: string[] = [];
    const [r] = await runFiles([scenario('fresh.yaml', 'fresh one')], {
      backend: 'salvium',
      binDir: bin,
      isolation: 'fresh',
      workers: 1,
      bail: false,
      artifactsRoot: join(dir, 'arts-fresh'),
      daemonEnv: FAST,
      log: (l) => lines.push(l),
    });
    removeKeptWorkdirs(lines.join('\n'));
    expect([r?.status, r?.failure?.message]).toEqual(['passed', undefined]);
    expect(
      lines.filter((l) =>
        /^saltnet: starting the testnet of "fresh one" failed \(daemon exited with code 3 .*\); trying once more$/.test(
          l,
        ),
      ),
    ).toHaveLength(1);
    expect(refusals(bin)).toBe(ONE_TESTNET_START);
  }, 120_000);
});

describe('a testnet that does not start on the second try either', () => {
  let out: Awaited<ReturnType<typeof execa>>;
  let bin: string;
  beforeAll(async () => {
    bin = flakyBinDir('bin-never', 99);
    scenario('never-a.yaml', 'never a');
    scenario('never-b.yaml', 'never b');
    out = await execa(
      process.execPath,
      [
        CLI,
        'run',
        'never-a.yaml',
        'never-b.yaml',
        '--backend',
        'salvium',
        '--bin-dir',
        bin,
        '--reporter',
        'junit',
        '--output',
        'never.xml',
        '--artifacts',
        'arts-never',
      ],
      {
        cwd: dir,
        env: { ...FAST, SALTNET_STATE_DIR: state, CI: '1' },
        reject: false,
        all: true,
      },
    );
    removeKeptWorkdirs(String(out.all));
  }, 120_000);

  it('tries exactly twice, then ends every scenario of the worker as an infrastructure error, with the last failure', () => {
    expect(out.exitCode).toBe(1);
    expect(refusals(bin)).toBe(2 * ONE_TESTNET_START);
    const all = String(out.all).split('\n');
    expect(all.filter((l) => RETRY_LINE.test(l))).toHaveLength(1);
    expect(all).toContain('0 passed, 0 failed, 2 errors');
    expect(all.filter((l) => l.startsWith('✗ ERROR (infrastructure) before the first step'))).toHaveLength(2);
  });

  it('writes them to JUnit as <error type="infrastructure">, not <failure>', () => {
    const xml = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'never.xml'), 'utf8'));
    expect([xml.testsuites['@_errors'], xml.testsuites['@_failures']]).toEqual(['2', '0']);
    const cases = [xml.testsuites.testsuite].flat().map((s: any) => s.testcase);
    expect(cases.map((c: any) => c['@_name'])).toEqual(['setup', 'setup']);
    for (const c of cases) {
      expect(c.failure).toBeUndefined();
      expect(c.error['@_type']).toBe('infrastructure');
      expect(c.error['@_message']).toMatch(/daemon exited with code 3/);
      // the second attempt's failure, not the first's
      expect(c.error['#text']).toContain(`wrapper: start-up failure #${2 * ONE_TESTNET_START}`);
      expect(c.error['#text']).not.toContain(`#${ONE_TESTNET_START}`);
    }
  });
});

/** A quiet simulated testnet at height 20, nothing unlocked, for a run given its testnet. */
const smallTestnet = (o: Partial<TestnetOptions> = {}): Promise<Testnet> =>
  startTestnet({
    backend: 'sim',
    progress: 'none',
    log: () => undefined,
    trapSignals: false,
    daemonEnv: FAST,
    height: 20,
    unlocked: 0n,
    ...o,
  });

describe("a scenario's wallet that does not open", () => {
  it('ends the scenario before its steps; the wallets that opened beside it are stopped', async () => {
    const t = await smallTestnet();
    try {
      const opened: string[] = [];
      const removed: string[] = [];
      // The scenario's wallets open side by side: bob's fails once main's and carol's have started.
      const flaky = new Proxy(t, {
        get(target, key, receiver) {
          if (key === 'addWallet')
            return async (name: string, o?: object) => {
              if (name.endsWith('-bob')) {
                await new Promise((ok) => setTimeout(ok, 300));
                throw new Error('bob would not open');
              }
              const h = await target.addWallet(name, o);
              opened.push(name);
              return h;
            };
          if (key === 'removeWallet')
            return async (name: string) => {
              removed.push(name);
              await target.removeWallet(name);
            };
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      const file = join(dir, 'bob-fails.yaml');
      writeFileSync(file, 'name: a wallet that does not open\nwallets: { bob: {}, carol: {} }\nsteps:\n  - mine: 1\n');
      const [r] = await runFiles([file], {
        backend: 'sim',
        testnet: flaky,
        isolation: 'shared',
        workers: 1,
        bail: false,
        artifactsRoot: join(dir, 'arts-bob'),
        log: () => undefined,
      });
      expect(r?.status).toBe('error');
      expect(r?.failure?.message).toMatch(/^setting up the scenario failed: .*bob would not open/);
      expect(opened.sort()).toEqual(['s1-carol', 's1-main']);
      expect(removed.sort()).toEqual(['s1-carol', 's1-main']);
      // None of the scenario's wallets is left running on the testnet.
      expect([...t.wallets().keys()].filter((n) => n.startsWith('s1-'))).toEqual([]);
    } finally {
      await t.stop();
    }
  }, 120_000);
});

describe('a process of the testnet that dies under a step', () => {
  it('makes the scenario an infrastructure error naming the process; the next scenario on that testnet errors too', async () => {
    const t = await smallTestnet({ maxRestarts: 0 });
    try {
      const killDaemon = (): void =>
        void process.kill(t.supervisor.processes().find((p) => p.name === 'daemon' && p.running)!.pid, 'SIGKILL');
      const files = [
        scenario(
          'dies-a.yaml',
          'daemon killed',
          '  - name: before\n    call: { path: /get_height }\n  - name: after\n    call: { path: /get_info }\n    expect: { result.status: OK }\n  - mine: 1\n',
        ),
        scenario('dies-b.yaml', 'on a dead testnet'),
      ];
      const results = await runFiles(files, {
        backend: 'sim',
        testnet: t,
        isolation: 'shared',
        workers: 1,
        bail: false,
        artifactsRoot: join(dir, 'arts-dies'),
        log: () => undefined,
        hooks: { step: (r) => (r.name === 'before' ? killDaemon() : undefined) },
      });
      const [a, b] = results;
      expect(a?.status).toBe('error');
      expect(a?.steps.map((s) => s.status)).toEqual(['passed', 'failed', 'skipped']);
      expect(a?.failure?.message).toMatch(
        /^the testnet's daemon died \(killed by SIGKILL\) and was not started again: /,
      );
      expect(a?.logTails?.daemon).toBeDefined();
      expect(b?.status).toBe('error');
      expect(b?.failure?.message).toMatch(/^setting up the scenario failed: /);
      const xml = new XMLParser({ ignoreAttributes: false }).parse(toJUnit(results));
      expect([xml.testsuites['@_errors'], xml.testsuites['@_failures']]).toEqual(['2', '0']);
    } finally {
      await t.stop();
    }
  }, 120_000);

  it('a step that fails on a healthy testnet stays a scenario failure', async () => {
    const [r] = await runFiles(
      [
        scenario(
          'plain-fail.yaml',
          'plain failure',
          '  - call: { path: /get_info }\n    expect: { result.nettype: mainnet }\n',
        ),
      ],
      {
        backend: 'sim',
        isolation: 'shared',
        workers: 1,
        bail: false,
        artifactsRoot: join(dir, 'arts-plain'),
        daemonEnv: FAST,
        log: () => undefined,
      },
    );
    expect(r?.status).toBe('failed');
    const xml = new XMLParser({ ignoreAttributes: false }).parse(toJUnit([r!]));
    expect([xml.testsuites['@_errors'], xml.testsuites['@_failures']]).toEqual(['0', '1']);
    expect(xml.testsuites.testsuite.testcase.failure['@_type']).toBe('assertion');
  }, 120_000);
});
