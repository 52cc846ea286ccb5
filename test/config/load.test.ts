import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatProblem, type ConfigProblem } from '../../harness/config/errors.js';
import { loadConfigFile, nodeStripsTypes } from '../../harness/config/load.js';
import { problemsOf, project } from './helpers.js';

/** Problems as `line:col path: message` for compact assertions. */
const brief = (ps: ConfigProblem[]) => ps.map((p) => `${p.line}:${p.col} ${p.path}: ${p.message}`);
/** dist/ is built by the global setup; a config module imports defineConfig from there as it would from 'saltnet'. */
const DIST_CONFIG = fileURLToPath(new URL('../../dist/harness/config/index.js', import.meta.url));

describe('YAML config files', () => {
  it('reads every key, as written, with the line and column of each', async () => {
    const root = project({
      'saltnet.config.yaml': [
        '# shared defaults',
        'backend: sim',
        'binDir: ./bin',
        'unlocked: 1001 SAL1',
        'snapshots: false',
        'run:',
        '  workers: 3',
        '  files: scenarios/*.yaml',
        '',
      ].join('\n'),
    });
    const c = await loadConfigFile(join(root, 'saltnet.config.yaml'));
    expect(c.config).toEqual({
      backend: 'sim',
      binDir: './bin',
      unlocked: '1001 SAL1',
      snapshots: false,
      run: { workers: 3, files: ['scenarios/*.yaml'] },
    });
    expect(c.position(['backend'])).toEqual({ line: 2, col: 1 });
    expect(c.position(['run', 'workers'])).toEqual({ line: 7, col: 3 });
  });

  it('an empty file sets nothing', async () => {
    const root = project({ 'saltnet.config.yaml': '# nothing yet\n' });
    expect((await loadConfigFile(join(root, 'saltnet.config.yaml'))).config).toEqual({});
  });

  it('a YAML syntax error names the file, line and column', async () => {
    const root = project({ 'saltnet.config.yaml': 'backend: sim\nrun:\n  workers: [1, 2\n' });
    const file = join(root, 'saltnet.config.yaml');
    const problems = await problemsOf(() => loadConfigFile(file));
    expect(problems[0]).toMatchObject({ where: file, line: 4, path: '(yaml)' });
    expect(problems[0]!.message).toMatch(/^YAML: .*(end with a \]|flow)/i);
    expect(formatProblem(problems[0]!)).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: \\(yaml\\): YAML: `),
    );
  });

  it('unknown keys are errors with a did-you-mean, at the key', async () => {
    const root = project({
      'saltnet.config.yaml': 'backend: sim\nbinDri: ./bin\nrun:\n  wokers: 2\nworkers: 3\nrun_isolation: fresh\n',
    });
    const problems = await problemsOf(() => loadConfigFile(join(root, 'saltnet.config.yaml')));
    expect(brief(problems)).toEqual([
      '2:1 binDri: unknown key "binDri" (did you mean "binDir"?)',
      '4:3 run.wokers: unknown key "wokers" (did you mean "workers"?)',
      '5:1 workers: unknown key "workers" (workers belongs under run:)',
      '6:1 run_isolation: unknown key "run_isolation"',
    ]);
    expect(problems[0]!.expected).toMatch(/^one of backend, binDir, .*, run$/);
  });

  it('wrong values name the key path, what was expected and what was found, at the value', async () => {
    const root = project({
      'saltnet.config.yaml':
        'backend: simm\nthreads: 1.5\nunlocked: "1001"\nrun:\n  reporter: [junit]\n  isolation: fresh\n  bail: yes\n',
    });
    const file = join(root, 'saltnet.config.yaml');
    const problems = await problemsOf(() => loadConfigFile(file));
    expect(brief(problems)).toEqual([
      '1:10 backend: expected one of auto, salvium, sim, monero, got the string "simm" (did you mean "sim"?)',
      '2:10 threads: expected a whole number from 1 to 256, got the number 1.5',
      '3:11 unlocked: expected a number of coins (e.g. 1001) or an amount with its unit (e.g. "1001 SAL1", "1 XMR"), got the string "1001" (a number of coins is written without quotes, e.g. unlocked: 1001; or give the unit: "1001 SAL1")',
      '5:13 run.reporter: expected one of human, junit, json, got a list',
      '7:9 run.bail: expected true or false, got the string "yes"',
    ]);
    expect(formatProblem(problems[0]!)).toBe(
      `${file}:1:10: backend: expected one of auto, salvium, sim, monero, got the string "simm" (did you mean "sim"?)`,
    );
  });

  it('a file that is not a mapping, and a second YAML document, are errors', async () => {
    const root = project({ 'a.yaml': '- backend: sim\n', 'b.yaml': 'backend: sim\n---\nbackend: monero\n' });
    expect(brief(await problemsOf(() => loadConfigFile(join(root, 'a.yaml'))))).toEqual([
      '1:1 (file): a config file is a mapping of keys (e.g. backend: sim), this is a list',
    ]);
    expect(brief(await problemsOf(() => loadConfigFile(join(root, 'b.yaml'))))[0]).toMatch(
      /^2:1 \(yaml\): YAML: a config file holds one YAML document/,
    );
  });
});

describe('JSON config files', () => {
  it('validation problems have line and column too', async () => {
    const root = project({
      'saltnet.config.json': '{\n  "backend": "sim",\n  "run": { "workers": 0 },\n  "cachedir": "c"\n}\n',
    });
    const problems = await problemsOf(() => loadConfigFile(join(root, 'saltnet.config.json')));
    expect(brief(problems)).toEqual([
      '3:23 run.workers: expected a whole number from 1 to 64, got the number 0',
      '4:3 cachedir: unknown key "cachedir" (did you mean "cacheDir"?)',
    ]);
  });

  it('a JSON syntax error names the line', async () => {
    const root = project({ 'saltnet.config.json': '{\n  "backend": "sim",\n}\n' });
    const [p] = await problemsOf(() => loadConfigFile(join(root, 'saltnet.config.json')));
    expect(p).toMatchObject({ line: 3, col: 1, path: '(json)' });
  });
});

describe('module config files', () => {
  it('.mjs: the default export, typed with defineConfig', async () => {
    const root = project({
      'saltnet.config.mjs': `import { defineConfig } from ${JSON.stringify(DIST_CONFIG)};\nexport default defineConfig({ backend: 'sim', run: { workers: 2, files: ['a/*.yaml', 'b.yaml'] } });\n`,
    });
    const c = await loadConfigFile(join(root, 'saltnet.config.mjs'));
    expect(c.config).toEqual({ backend: 'sim', run: { workers: 2, files: ['a/*.yaml', 'b.yaml'] } });
    expect(c.position(['backend'])).toBeUndefined();
  });

  it('.mjs: problems name the file and the key (no line: the values are computed)', async () => {
    const root = project({
      'saltnet.config.mjs': "export default { backend: 'sims', login: 'basic' };\n",
      'none.mjs': 'export const x = 1;\n',
    });
    const problems = await problemsOf(() => loadConfigFile(join(root, 'saltnet.config.mjs')));
    expect(problems.map(formatProblem)).toEqual([
      `${join(root, 'saltnet.config.mjs')}: backend: expected one of auto, salvium, sim, monero, got the string "sims" (did you mean "sim"?)`,
      `${join(root, 'saltnet.config.mjs')}: login: expected one of none, digest, got the string "basic"`,
    ]);
    const [p] = await problemsOf(() => loadConfigFile(join(root, 'none.mjs')));
    expect(formatProblem(p!)).toBe(
      `${join(root, 'none.mjs')}: (file): the config module has no default export (expected export default defineConfig({ … }))`,
    );
  });

  it('.mjs: a default export that throws as it is read (a getter, a Proxy) is a problem of that file', async () => {
    const root = project({
      'getter.mjs': "export default { run: { get workers() { throw new TypeError('deep boom'); } } };\n",
      'proxy.mjs': "export default new Proxy({}, { ownKeys() { throw new Error('proxy boom'); } });\n",
    });
    for (const [file, why] of [
      ['getter.mjs', 'deep boom'],
      ['proxy.mjs', 'proxy boom'],
    ]) {
      const [p] = await problemsOf(() => loadConfigFile(join(root, file!)));
      expect(formatProblem(p!)).toBe(
        `${join(root, file!)}: (file): reading the config module's default export failed: ${why} (expected a plain object, e.g. export default defineConfig({ … }))`,
      );
    }
  });

  it.skipIf(nodeStripsTypes())(
    '.ts on a Node that cannot strip types: a clear error saying what to use instead',
    async () => {
      const root = project({
        'saltnet.config.ts':
          "import type { SaltnetConfig } from 'saltnet';\nconst c: SaltnetConfig = { backend: 'sim' };\nexport default c;\n",
      });
      const [p] = await problemsOf(() => loadConfigFile(join(root, 'saltnet.config.ts')));
      expect(p!.where).toBe(join(root, 'saltnet.config.ts'));
      expect(p!.message).toContain(`Node ${process.version} cannot load a TypeScript config file`);
      expect(p!.message).toMatch(/22\.6.*--experimental-strip-types/);
      expect(p!.message).toMatch(/saltnet\.config\.mjs.*saltnet\.config\.yaml/);
    },
  );

  it('this machine runs Node 20, which cannot strip types', () => {
    // Guards the test above: on Node 20 it must run, not be skipped.
    if (Number(process.versions.node.split('.')[0]) === 20) expect(nodeStripsTypes()).toBe(false);
  });
});
