// What a newcomer meets first, each a papercut once: --output pointing at a folder or at a scenario
// of the run, a file indented wrong, `saltnet repro` of a failure, doctor's auto line, and two
// scenarios that create the same ticker on one shared testnet.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueTicker } from '../../harness/scenario/interpolate.js';
import { cleanup, tempDir } from '../helpers/sim.js';
import { CLI } from './helpers.js';

let home: string;
const env = (): Record<string, string> => ({
  SALTNET_STATE_DIR: join(home, 'state'),
  SALTNET_SIM_HASHRATE: '250000',
  CI: '1',
});
const saltnet = (args: string[], cwd = home) =>
  execa(process.execPath, [CLI, ...args], { env: env(), cwd, reject: false, all: true });
const file = (name: string, text: string): string => {
  const f = join(home, name);
  writeFileSync(f, text);
  return f;
};
const QUICK = 'name: quick one\nsteps:\n  - call: { path: /get_height }\n';

beforeAll(() => {
  home = tempDir('saltnet-newcomer-');
});
afterAll(() => cleanup(home));

describe('--output', () => {
  it('a folder is refused before anything runs, with a file path to give instead', async () => {
    const f = file('quick.yaml', QUICK);
    mkdirSync(join(home, 'reports'), { recursive: true });
    const r = await saltnet(['run', f, '--backend', 'sim', '--reporter', 'junit', '--output', join(home, 'reports')]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`--output ${join(home, 'reports')} is a folder; give a file path`);
    expect(r.stderr).not.toMatch(/EISDIR|\n\s+at /);
    expect(r.stderr).not.toContain('daemon ready');
  });

  it('one of the run’s own scenario files is refused, and the file is left as it was', async () => {
    const f = file('self.yaml', QUICK);
    const r = await saltnet(['run', f, '--backend', 'sim', '--reporter', 'junit', '--output', f]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('is an input of this run');
    expect(readFileSync(f, 'utf8')).toBe(QUICK);
  });
});

describe('a file indented wrong', () => {
  it('says to check the indentation, at its line', async () => {
    const f = file('indent.yaml', 'name: indent\nsteps:\n  - mine: 1\n   - mine: 2\n');
    const r = await saltnet(['run', f, '--backend', 'sim']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(
      `${f}:4:4: (yaml): YAML: All sequence items must start at the same column (check the indentation`,
    );
    expect(r.stdout).not.toContain(`${f} — ${f}`);
  });
});

describe('saltnet doctor', () => {
  it('says auto once', async () => {
    const r = await saltnet(['doctor']);
    expect(r.stdout).toMatch(/^auto: (no salviumd|picked)/m);
    expect(r.stdout).not.toContain('auto: auto:');
  });
});

describe('a failure, then saltnet repro', { timeout: 120_000 }, () => {
  let artifacts: string;
  beforeAll(async () => {
    const f = file(
      'fails.yaml',
      'name: fails\nsteps:\n  - call: { path: /get_height }\n    expect: { result.status: NOPE }\n',
    );
    const r = await saltnet(['run', f, '--backend', 'sim', '--artifacts', join(home, 'arts')]);
    artifacts = /artifacts: (\S+)/.exec(r.stdout)![1]!;
  });

  it('repro reports the lines of the original file, not of its copy', async () => {
    const r = await saltnet(['repro', artifacts]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`at ${join(home, 'fails.yaml')}:3:5`);
    expect(r.all).not.toContain('repro/scenario.yaml');
  });

  it('repro never writes through a symbolic link out of the artifact folder', async () => {
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere);
    const { rmSync } = await import('node:fs');
    rmSync(join(artifacts, 'repro'), { recursive: true, force: true });
    symlinkSync(elsewhere, join(artifacts, 'repro'));
    const r = await saltnet(['repro', artifacts]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('is a symbolic link: saltnet repro writes only inside');
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe('tickers on a shared testnet', { timeout: 120_000 }, () => {
  it('${unique.ticker} gives each scenario its own; a literal ticker taken already fails with the hint', async () => {
    // derived from the scenario's name: the same in every run (runs and backends compare), another per scenario
    expect(uniqueTicker('one makes ${unique.ticker}', 'ticker')).toMatch(/^[A-Z0-9]{4}$/);
    expect(uniqueTicker('a', 'ticker')).toBe(uniqueTicker('a', 'ticker'));
    expect(uniqueTicker('a', 'ticker')).not.toBe(uniqueTicker('b', 'ticker'));
    const make = (ticker: string) =>
      `name: makes ${ticker}\nrequires: { height: 1201, unlocked: { SAL1: 1001 SAL1 } }\nsteps:\n` +
      `  - create_token: { ticker: "${ticker}", supply: 5, name: x }\n  - mine: 1\n` +
      `  - get_tokens: { regex: "${ticker}" }\n    expect: { result.tokens: { length: 1 } }\n`;
    const u1 = file('u1.yaml', make('${unique.ticker}').replace('makes', 'one makes'));
    const u2 = file('u2.yaml', make('${unique.ticker}').replace('makes', 'another makes'));
    const d1 = file('d1.yaml', make('DUPE'));
    const d2 = file('d2.yaml', make('DUPE').replace('makes DUPE', 'makes DUPE again'));
    const r = await saltnet(['run', u1, u2, d1, d2, '--backend', 'sim', '--workers', '1', '--reporter', 'json']);
    const report = JSON.parse(r.stdout);
    const status = Object.fromEntries(report.results.map((s: any) => [s.name, s.status]));
    expect(status).toEqual({
      'one makes ${unique.ticker}': 'passed',
      'another makes ${unique.ticker}': 'passed',
      'makes DUPE': 'passed',
      'makes DUPE again': 'failed',
    });
    const again = report.results.find((s: any) => s.name === 'makes DUPE again');
    expect(again.failure.message).toContain('-7: Token already exists.');
    expect(again.failure.message).toContain('${unique.ticker}');
  });
});
