import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../harness/config/errors.js';
import { formatSource, resolveConfig, type ResolvedConfig } from '../../harness/config/resolve.js';
import { KEYS } from '../../harness/config/schema.js';
import { unlockedAtomic } from '../../harness/config/unlocked.js';
import { problemsOf, project } from './helpers.js';

/** A clean environment: nothing from the machine running the tests leaks in. */
const ENV = { HOME: '/home/t', XDG_CACHE_HOME: '/xdg' };
const sourceOf = (r: ResolvedConfig, key: keyof ResolvedConfig['sources']): string => formatSource(r.sources[key]);

describe('built-in defaults', () => {
  it('with no file, no env and no flags every key is a default', async () => {
    const root = project();
    const r = await resolveConfig({ cwd: root, env: ENV, argv: {} });
    expect(r.file).toBeUndefined();
    expect(r.notices).toEqual([]);
    expect(r.values).toEqual({
      backend: 'auto',
      cacheDir: '/xdg/saltnet',
      login: 'none',
      walletCreation: 'cli',
      subaddressLookahead: '2:20',
      prefixDifficulty: 'cheap',
      randomx: 'auto',
      miner: 'auto',
      mineOnTx: false,
      ports: 'random',
      ui: false,
      nodes: 1,
      timeoutFactor: 1,
      snapshots: true,
      run: {
        isolation: 'shared',
        workers: 1,
        reporter: 'human',
        artifacts: join(root, '.saltnet/artifacts'),
        bail: false,
      },
    });
    for (const k of KEYS) expect(sourceOf(r, k.key)).toBe('default');
  });
});

describe('precedence: defaults < config file < environment < flags', () => {
  const yaml = 'backend: sim\nbinDir: /opt/cfg-bin\ntimeoutFactor: 2\nrun:\n  workers: 3\n  reporter: junit\n';

  it('the config file beats the defaults', async () => {
    const root = project({ 'saltnet.config.yaml': yaml });
    const r = await resolveConfig({ cwd: root, env: ENV });
    const file = join(root, 'saltnet.config.yaml');
    expect(r.file).toBe(file);
    expect(r.fileVia).toBe('search');
    expect(r.values).toMatchObject({
      backend: 'sim',
      binDir: '/opt/cfg-bin',
      timeoutFactor: 2,
      run: { workers: 3, reporter: 'junit', isolation: 'shared' },
    });
    expect(sourceOf(r, 'backend')).toBe(`config file ${file}:1`);
    expect(sourceOf(r, 'binDir')).toBe(`config file ${file}:2`);
    expect(sourceOf(r, 'run.workers')).toBe(`config file ${file}:5`);
    expect(sourceOf(r, 'run.isolation')).toBe('default');
  });

  it('the environment beats the config file, and says so', async () => {
    const root = project({ 'saltnet.config.yaml': yaml });
    const env = {
      ...ENV,
      SALTNET_BACKEND: 'monero',
      SALTNET_BIN_DIR: '/opt/env-bin',
      SALTNET_TIMEOUT_FACTOR: '3',
      SALTNET_WORKERS: '4',
    };
    const r = await resolveConfig({ cwd: root, env });
    expect(r.values).toMatchObject({
      backend: 'monero',
      binDir: '/opt/env-bin',
      timeoutFactor: 3,
      run: { workers: 4, reporter: 'junit' },
    });
    expect(sourceOf(r, 'backend')).toBe('env SALTNET_BACKEND');
    expect(sourceOf(r, 'binDir')).toBe('env SALTNET_BIN_DIR');
    expect(sourceOf(r, 'timeoutFactor')).toBe('env SALTNET_TIMEOUT_FACTOR');
    expect(sourceOf(r, 'run.workers')).toBe('env SALTNET_WORKERS');
    expect(r.notices).toEqual([
      'SALTNET_BACKEND overrides backend from saltnet.config.yaml:1 (sim → monero)',
      'SALTNET_BIN_DIR overrides binDir from saltnet.config.yaml:2 (/opt/cfg-bin → /opt/env-bin)',
      'SALTNET_TIMEOUT_FACTOR overrides timeoutFactor from saltnet.config.yaml:3 (2 → 3)',
      'SALTNET_WORKERS overrides run.workers from saltnet.config.yaml:5 (3 → 4)',
    ]);
  });

  it('the environment beats the defaults without a notice (nothing shared was overridden)', async () => {
    const root = project();
    const r = await resolveConfig({ cwd: root, env: { ...ENV, SALTNET_CACHE_DIR: '/c', SALTNET_BACKEND: 'sim' } });
    expect(r.values.cacheDir).toBe('/c');
    expect(sourceOf(r, 'cacheDir')).toBe('env SALTNET_CACHE_DIR');
    expect(r.values.backend).toBe('sim');
    expect(r.notices).toEqual([]);
  });

  it("an environment value equal to the file's overrides nothing: no notice; an empty variable is unset", async () => {
    const root = project({ 'saltnet.config.yaml': yaml });
    const r = await resolveConfig({ cwd: root, env: { ...ENV, SALTNET_BACKEND: 'sim', SALTNET_BIN_DIR: '' } });
    expect(r.notices).toEqual([]);
    expect(sourceOf(r, 'backend')).toBe('env SALTNET_BACKEND');
    expect(sourceOf(r, 'binDir')).toMatch(/^config file /);
  });

  it('flags beat the environment (and then the environment overrode nothing: no notice)', async () => {
    const root = project({ 'saltnet.config.yaml': yaml });
    const env = { ...ENV, SALTNET_BACKEND: 'monero', SALTNET_WORKERS: '4' };
    const argv = {
      backend: 'salvium',
      workers: 6,
      timeoutFactor: 5,
      'wallet-creation': 'rpc',
      snapshots: false,
      difficulty: 7,
    };
    const r = await resolveConfig({ cwd: root, env, argv });
    expect(r.values).toMatchObject({
      backend: 'salvium',
      timeoutFactor: 5,
      walletCreation: 'rpc',
      snapshots: false,
      difficulty: 7,
      run: { workers: 6 },
    });
    expect(sourceOf(r, 'backend')).toBe('flag --backend');
    expect(sourceOf(r, 'run.workers')).toBe('flag --workers');
    expect(sourceOf(r, 'timeoutFactor')).toBe('flag --timeout-factor');
    expect(sourceOf(r, 'walletCreation')).toBe('flag --wallet-creation');
    expect(sourceOf(r, 'snapshots')).toBe('flag --no-snapshots');
    expect(r.notices).toEqual([]);
  });

  it('`run <files..>` on the command line beats run.files in the file', async () => {
    const root = project({ 'saltnet.config.yaml': 'run:\n  files: [scenarios/*.yaml]\n', 'sub/.keep': '' });
    const r = await resolveConfig({ cwd: join(root, 'sub'), env: ENV, argv: { files: ['x.yaml'] } });
    expect(r.values.run.files).toEqual([join(root, 'sub/x.yaml')]);
    expect(sourceOf(r, 'run.files')).toBe('argument <files..>');
    const none = await resolveConfig({ cwd: join(root, 'sub'), env: ENV, argv: { files: [] } });
    expect(none.values.run.files).toEqual([join(root, 'scenarios/*.yaml')]);
  });
});

describe('relative paths', () => {
  it("in the config file: against the file's folder, wherever saltnet runs; ~ is the home folder", async () => {
    const root = project({
      'saltnet.config.yaml':
        'binDir: ./salvium/bin\nworkdir: ../work\ncacheDir: ~/.saltnet-cache\nrun:\n  artifacts: out/artifacts\n  files: [scenarios/*.yaml, "!scenarios/slow-*.yaml", /abs/x.yaml]\n',
      'deep/er/.keep': '',
    });
    const r = await resolveConfig({ cwd: join(root, 'deep/er'), env: ENV });
    expect(r.values.binDir).toBe(join(root, 'salvium/bin'));
    expect(r.values.workdir).toBe(join(root, '../work'));
    expect(r.values.cacheDir).toMatch(/\/\.saltnet-cache$/);
    expect(r.values.cacheDir.startsWith('~')).toBe(false);
    expect(r.values.run.artifacts).toBe(join(root, 'out/artifacts'));
    expect(r.values.run.files).toEqual([
      join(root, 'scenarios/*.yaml'),
      `!${join(root, 'scenarios/slow-*.yaml')}`,
      '/abs/x.yaml',
    ]);
  });

  it('from the environment and flags: against the working directory', async () => {
    const root = project({ 'saltnet.config.yaml': 'binDir: ./bin\n', 'sub/.keep': '' });
    const cwd = join(root, 'sub');
    const r = await resolveConfig({
      cwd,
      env: { ...ENV, SALTNET_BIN_DIR: 'envbin', SALTNET_CACHE_DIR: 'cache' },
      argv: { workdir: 'w', artifacts: 'a' },
    });
    expect(r.values.binDir).toBe(join(cwd, 'envbin'));
    expect(r.values.cacheDir).toBe(join(cwd, 'cache'));
    expect(r.values.workdir).toBe(join(cwd, 'w'));
    expect(r.values.run.artifacts).toBe(join(cwd, 'a'));
    expect(r.notices).toEqual([
      `SALTNET_BIN_DIR overrides binDir from ../saltnet.config.yaml:1 (${join(root, 'bin')} → ${join(cwd, 'envbin')})`,
    ]);
  });
});

describe('choosing the file', () => {
  it('--config and SALTNET_CONFIG pick a file explicitly; the flag wins', async () => {
    const root = project({
      'saltnet.config.yaml': 'backend: sim\n',
      'ci/a.yaml': 'backend: monero\n',
      'ci/b.json': '{ "backend": "salvium" }',
    });
    const byEnv = await resolveConfig({ cwd: root, env: { ...ENV, SALTNET_CONFIG: 'ci/b.json' } });
    expect(byEnv).toMatchObject({
      file: join(root, 'ci/b.json'),
      fileVia: 'env SALTNET_CONFIG',
      values: { backend: 'salvium' },
    });
    expect(sourceOf(byEnv, 'backend')).toBe(`config file ${join(root, 'ci/b.json')}:1`);
    const byFlag = await resolveConfig({
      cwd: root,
      env: { ...ENV, SALTNET_CONFIG: 'ci/b.json' },
      argv: { config: 'ci/a.yaml' },
    });
    expect(byFlag).toMatchObject({
      file: join(root, 'ci/a.yaml'),
      fileVia: 'flag --config',
      values: { backend: 'monero' },
    });
  });

  it('--config without a file name is an error, not a silent search', async () => {
    const root = project({ 'saltnet.config.yaml': 'backend: sim\n' });
    await expect(resolveConfig({ cwd: root, env: ENV, argv: { config: '' } })).rejects.toThrow(
      'flag --config: (file): --config needs a file name',
    );
  });

  it('values from a module file have the file as their source, without a line', async () => {
    const root = project({ 'saltnet.config.mjs': "export default { backend: 'sim' };\n" });
    const r = await resolveConfig({ cwd: root, env: { ...ENV, SALTNET_BACKEND: 'monero' } });
    expect(r.notices).toEqual(['SALTNET_BACKEND overrides backend from saltnet.config.mjs (sim → monero)']);
    const again = await resolveConfig({ cwd: root, env: ENV });
    expect(sourceOf(again, 'backend')).toBe(`config file ${join(root, 'saltnet.config.mjs')}`);
  });
});

describe('bad environment variables and flags', () => {
  it('are errors naming the variable or flag, the key and what was expected; all at once', async () => {
    const root = project();
    const problems = await problemsOf(() =>
      resolveConfig({
        cwd: root,
        env: { ...ENV, SALTNET_WORKERS: 'two', SALTNET_BACKEND: 'Sim', SALTNET_TIMEOUT_FACTOR: '0' },
        argv: { threads: 0, reporter: 'xml' },
      }),
    );
    expect(problems.map(formatProblem)).toEqual([
      'env SALTNET_BACKEND: backend: expected one of auto, salvium, sim, monero, got the string "Sim" (did you mean "sim"?)',
      'flag --threads: threads: expected a whole number from 1 to 256, got the number 0',
      'env SALTNET_TIMEOUT_FACTOR: timeoutFactor: 0 is too small: it must be at least 0.1',
      "env SALTNET_WORKERS: run.workers: 'two' is not a whole number (expected a whole number from 1 to 64)",
      'flag --reporter: run.reporter: expected one of human, junit, json, got the string "xml"',
    ]);
  });

  it("a broken config file is reported as the file's problem", async () => {
    const root = project({ 'saltnet.config.yaml': 'backend: sim\nthreds: 2\n' });
    await expect(resolveConfig({ cwd: root, env: ENV })).rejects.toThrow(
      `${join(root, 'saltnet.config.yaml')}:2:1: threds: unknown key "threds" (did you mean "threads"?)`,
    );
  });
});

describe('unlocked: coins or an amount with its unit → atomic units', () => {
  it('converts exactly, per backend', () => {
    expect(unlockedAtomic(1001, 'sim')).toBe(100_100_000_000n);
    expect(unlockedAtomic(0.5, 'salvium')).toBe(50_000_000n);
    expect(unlockedAtomic(1, 'monero')).toBe(1_000_000_000_000n);
    expect(unlockedAtomic('1001 SAL1', 'sim')).toBe(100_100_000_000n);
    expect(unlockedAtomic('2.5 XMR', 'monero')).toBe(2_500_000_000_000n);
  });

  it("a unit that is not the backend's coin is an error", () => {
    expect(() => unlockedAtomic('1 XMR', 'salvium')).toThrow(/in XMR, but the salvium backend's coin is SAL1/);
    expect(() => unlockedAtomic('1 SAL1', 'monero')).toThrow(/in SAL1, but the monero backend's coin is XMR/);
  });
});
