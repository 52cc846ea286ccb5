// `saltnet run` as users run it: a folder of scenarios, and Ctrl-C (or SIGTERM) in the middle of
// a step — the run stops, the report is written with that step interrupted, the process exits 130
// (143), and nothing of the testnet is left.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isAlive } from '../../harness/process/registry.js';
import { cleanup, tempDir, waitFor } from '../helpers/sim.js';
import { expandFiles } from '../../harness/cli/run.js';
import { CLI, stopStarted } from './helpers.js';

let home: string;
const running: ResultPromise[] = [];
const env = (): Record<string, string> => ({
  SALTNET_STATE_DIR: join(home, 'state'),
  SALTNET_CACHE_DIR: join(home, 'cache'),
  CI: '1',
});

const QUICK = 'name: quick one\nsteps:\n  - name: height\n    call: { path: /get_height }\n';
const WAITS = [
  'name: waits a long time',
  'steps:',
  '  - name: before',
  '    call: { path: /get_height }',
  '  - name: the long wait',
  '    wait: { call: { path: /get_height }, until: { result.height: { gt: 99999 } }, seconds: 600 }',
  '  - name: after',
  '    call: { path: /get_height }',
  '',
].join('\n');
const LATER = 'name: never started\nsteps:\n  - call: { path: /get_height }\n';

function folder(name: string, files: Record<string, string>): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}

beforeAll(() => {
  home = tempDir('saltnet-run-');
});
afterEach(() => stopStarted(running, env()));
afterAll(() => cleanup(home));

describe('saltnet run <folder>', () => {
  it('runs the *.yaml and *.yml files directly in it, sorted; not other files, not subfolders', async () => {
    const dir = folder('suite', {
      'b.yaml': QUICK,
      'a.yml': QUICK,
      'notes.txt': 'x',
      'c.YAML': QUICK,
      'sub/d.yaml': QUICK,
      'scenario.schema.json': '{}',
    });
    expect(await expandFiles([dir])).toEqual([join(dir, 'a.yml'), join(dir, 'b.yaml'), join(dir, 'c.YAML')]);
    // a folder and a file of it together: each file once
    expect(await expandFiles([dir, join(dir, 'b.yaml')])).toEqual([
      join(dir, 'a.yml'),
      join(dir, 'b.yaml'),
      join(dir, 'c.YAML'),
    ]);
  });

  it('an empty folder, or a device, is an error; with a hint when its subfolders hold scenarios', async () => {
    const empty = folder('empty', { 'readme.md': 'x' });
    await expect(expandFiles([empty])).rejects.toThrow(`no scenario files (*.yaml, *.yml) in the folder ${empty}`);
    const nested = folder('nested', { 'deep/a.yaml': QUICK });
    await expect(expandFiles([nested])).rejects.toThrow(
      `no scenario files (*.yaml, *.yml) in the folder ${nested}; its subfolders have some: run '${join(nested, '**', '*.yaml')}'`,
    );
    await expect(expandFiles(['/dev/null'])).rejects.toThrow(
      '/dev/null is not a scenario file (it is a device, a pipe or a socket): give files, folders or globs',
    );
    const r = await execa(process.execPath, [CLI, 'run', empty, '--backend', 'sim'], {
      env: env(),
      reject: false,
      all: true,
    });
    expect(r.exitCode).toBe(1);
    expect(r.all).toBe(`saltnet: no scenario files (*.yaml, *.yml) in the folder ${empty}`);
  });
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (n) => ['testsuite', 'testcase'].includes(n),
});
type Node = Record<string, any>;

describe('Ctrl-C during `saltnet run --reporter junit`', { timeout: 180_000 }, () => {
  for (const [sig, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${sig}: the report is written, the step that ran is interrupted, the rest skipped; exit ${code}; nothing left`, async () => {
      const dir = folder(`cut-${sig}`, { 'a-quick.yaml': QUICK, 'b-waits.yaml': WAITS, 'c-later.yaml': LATER });
      const report = join(home, `junit-${sig}.xml`);
      const proc = execa(
        process.execPath,
        [
          CLI,
          'run',
          dir,
          '--backend',
          'sim',
          '--reporter',
          'junit',
          '--output',
          report,
          '--artifacts',
          join(home, `art-${sig}`),
        ],
        {
          env: env(),
          reject: false,
          all: true,
          buffer: true,
        },
      );
      running.push(proc);
      let out = '';
      proc.all!.on('data', (d: Buffer) => (out += d.toString()));
      // The wait step runs once the step before it has passed; then give it a moment under way.
      await waitFor(
        'the long wait to start',
        async () => (proc.exitCode !== null ? Promise.reject(new Error(out)) : /✓ before/.test(out)),
        120_000,
        50,
      );
      const records = (): string[] => (existsSync(join(home, 'state')) ? readdirJson(join(home, 'state')) : []);
      const run = JSON.parse(readFileSync(records()[0]!, 'utf8'));
      await new Promise((r) => setTimeout(r, 700));
      proc.kill(sig);
      const r = await proc;
      expect(r.exitCode, out).toBe(code);
      expect(existsSync(report), out).toBe(true);
      const xml = readFileSync(report, 'utf8');
      expect(xml).not.toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
      expect(out).not.toMatch(/ECONNREFUSED|ECONNRESET|socket hang up/);
      const suites = (parser.parse(xml) as Node).testsuites.testsuite as Node[];
      expect(suites.map((s) => s['@name'])).toEqual(['quick one', 'waits a long time', 'never started']);
      const [quick, waits, later] = suites as [Node, Node, Node];
      expect(quick['@failures'] + quick['@errors']).toBe('00');
      const [before, wait, after] = waits.testcase as [Node, Node, Node];
      expect(before.error ?? before.failure).toBeUndefined();
      expect(wait['@name']).toBe('the long wait');
      expect(wait.error).toMatchObject({ '@message': `interrupted by ${sig}`, '@type': 'interrupted' });
      expect(after.skipped).toBeDefined();
      expect(later.testcase[0].skipped['@message']).toBe(`not run: interrupted by ${sig}`);
      expect(out).toContain(`1 passed, 0 failed, 1 interrupted, 1 skipped`);
      // Every process of the testnet is gone, and so are its run record and its temporary workdir.
      for (const p of run.processes as { pid: number; startTime: string }[])
        expect(isAlive(p.pid, p.startTime), `pid ${p.pid}`).toBe(false);
      expect(records()).toEqual([]);
      expect(existsSync(run.workdir)).toBe(false);
    });
  }
});

function readdirJson(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f));
}
