// Files a scenario is or names (harness/scenario/files.ts): read with the cap enforced while reading,
// never a device, FIFO or folder; a metadata `file:` only from the scenario's folder or the working
// directory (symbolic links followed), unless the run allows more; errors say file, line, field, path.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkScenarioFiles,
  FileRefused,
  readBounded,
  readMetadataFile,
  resolveMetadataFile,
} from '../../harness/scenario/files.js';
import { loadScenario, parseScenario } from '../../harness/scenario/parse.js';
import { runFiles } from '../../harness/runner/run-scenarios.js';
import { ScenarioError } from '../../harness/scenario/types.js';

let root: string;
let project: string;
let scenarios: string;
let outside: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'saltnet-files-'));
  project = join(root, 'project');
  scenarios = join(project, 'scenarios');
  outside = join(root, 'outside');
  mkdirSync(scenarios, { recursive: true });
  mkdirSync(join(project, 'fixtures'));
  mkdirSync(outside);
  writeFileSync(join(scenarios, 'near.json'), '{"name":"near"}');
  writeFileSync(join(project, 'fixtures', 'gold.json'), '{"name":"gold"}');
  writeFileSync(join(outside, 'secret.json'), '{"secret":1}');
  writeFileSync(join(scenarios, 'big.json'), Buffer.alloc(1024 * 1024 + 1, 0x20));
  symlinkSync(join(outside, 'secret.json'), join(scenarios, 'escape.json'));
  symlinkSync(join(project, 'fixtures', 'gold.json'), join(scenarios, 'inside-link.json'));
  symlinkSync('/dev/zero', join(scenarios, 'zero.json'));
  mkdirSync(join(scenarios, 'folder.json'));
  execFileSync('mkfifo', [join(scenarios, 'fifo.json')]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const access = (o: { allowOutside?: boolean } = {}) => ({ baseDir: scenarios, cwd: project, ...o });
const why = (file: string, o: { allowOutside?: boolean } = {}): string => {
  try {
    resolveMetadataFile(file, access(o));
  } catch (e) {
    if (e instanceof FileRefused) return e.message;
    throw e;
  }
  return 'accepted';
};

describe('metadata files', () => {
  it("are found in the scenario's folder, else in the working directory, also through a link that stays inside", () => {
    expect(resolveMetadataFile('near.json', access())).toBe(join(scenarios, 'near.json'));
    expect(resolveMetadataFile('fixtures/gold.json', access())).toBe(join(project, 'fixtures', 'gold.json'));
    expect(resolveMetadataFile('../fixtures/gold.json', access())).toBe(join(project, 'fixtures', 'gold.json'));
    expect(resolveMetadataFile('inside-link.json', access())).toBe(join(project, 'fixtures', 'gold.json'));
    expect(readMetadataFile('near.json', access()).toString()).toBe('{"name":"near"}');
  });

  it('outside both folders are refused: absolute paths, ../.., links that lead out', () => {
    const rule = `it is outside the scenario's folder (${scenarios}) and the working directory (${project})`;
    expect(why('/etc/passwd')).toBe(
      `${rule}; a scenario serves only files from those (saltnet run --allow-files-outside, or the runner option allowFilesOutside, lifts this)`,
    );
    expect(why('../../../../../../../../etc/passwd')).toContain(rule);
    expect(why('../../outside/secret.json')).toContain(rule);
    expect(why('escape.json')).toBe(
      `${rule} (${join(scenarios, 'escape.json')} leads to ${join(outside, 'secret.json')}); a scenario serves only files from those (saltnet run --allow-files-outside, or the runner option allowFilesOutside, lifts this)`,
    );
    expect(why('zero.json')).toContain(`${rule} (${join(scenarios, 'zero.json')} leads to /dev/zero)`);
  });

  it('with allowOutside, files elsewhere are served, but never a device, a FIFO, a folder or more than 1 MiB', () => {
    expect(resolveMetadataFile('../../outside/secret.json', access({ allowOutside: true }))).toBe(
      join(outside, 'secret.json'),
    );
    expect(why('/dev/zero', { allowOutside: true })).toBe('it is a character device, not a regular file');
    expect(why('zero.json', { allowOutside: true })).toBe('it is a character device, not a regular file');
    expect(why('fifo.json')).toBe('it is a FIFO (named pipe), not a regular file');
    expect(why('folder.json')).toBe('it is a folder, not a regular file');
    expect(why('big.json')).toBe('it is 1048577 bytes; a metadata file is at most 1 MiB (1048576 bytes)');
    expect(why('missing.json')).toBe(
      `no such file (looked for ${join(scenarios, 'missing.json')} and ${join(project, 'missing.json')})`,
    );
  });

  it('a file swapped for a link after the check is refused as it is read', () => {
    const f = join(scenarios, 'swapped.json');
    writeFileSync(f, '{}');
    const real = resolveMetadataFile('swapped.json', access());
    rmSync(f);
    symlinkSync('/dev/zero', f);
    expect(() => readBounded(real, 1024, 'a metadata file', true)).toThrow('it is a symbolic link');
  });

  it('the runner refuses a scenario serving /etc/passwd before any testnet starts, naming file, line, field and path', async () => {
    const file = join(scenarios, 'passwd.yaml');
    writeFileSync(file, 'name: steal\nsteps:\n  - metadata: { name: m, file: /etc/passwd }\n');
    const s = await loadScenario(file);
    expect(() => checkScenarioFiles(s, access())).toThrow(ScenarioError);
    const [r] = await runFiles([file], {
      backend: 'sim',
      isolation: 'fresh',
      workers: 1,
      bail: false,
      artifactsRoot: join(root, 'artifacts'),
      log: () => undefined,
    });
    expect(r?.status).toBe('failed');
    expect(r?.steps).toEqual([]);
    expect(r?.failure?.message).toBe(
      `${file}:3:32: steps[0].metadata.file: cannot serve the metadata file "/etc/passwd": it is outside the scenario's folder (${scenarios}) and the working directory (${process.cwd()}); a scenario serves only files from those (saltnet run --allow-files-outside, or the runner option allowFilesOutside, lifts this) (expected a regular file of at most 1 MiB inside the scenario's folder or the working directory)`,
    );
  });
});

describe('scenario files', () => {
  const load = async (path: string): Promise<string> => {
    try {
      await loadScenario(path);
    } catch (e) {
      if (e instanceof ScenarioError) return e.message;
      throw e;
    }
    return 'accepted';
  };

  it('/dev/zero, a FIFO and a folder are refused unread', async () => {
    expect(await load('/dev/zero')).toBe(
      '/dev/zero:1:1: (file): cannot read the scenario file: it is a character device, not a regular file (expected a readable YAML file)',
    );
    expect(await load(join(scenarios, 'fifo.json'))).toContain(
      'cannot read the scenario file: it is a FIFO (named pipe), not a regular file',
    );
    expect(await load(scenarios)).toContain('cannot read the scenario file: it is a folder, not a regular file');
  });

  it('a file over 256 KiB is refused unread', async () => {
    const f = join(root, 'huge.yaml');
    writeFileSync(f, `name: x\nsteps:\n${'  - mine: 1\n'.repeat(30000)}`);
    expect(await load(f)).toBe(
      `${f}:1:1: (file): cannot read the scenario file: it is 360015 bytes; a scenario file is at most 256 KiB (262144 bytes) (expected a readable YAML file)`,
    );
  });

  it('parseScenario itself needs no file system (docs examples keep parsing)', () => {
    expect(
      parseScenario('name: x\nsteps:\n  - metadata: { name: m, file: /etc/passwd }\n', 'x.yaml').steps[0]?.action,
    ).toMatchObject({ file: '/etc/passwd', filePos: { line: 3, col: 32 } });
  });
});
