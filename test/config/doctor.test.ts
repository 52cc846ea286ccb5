// `saltnet doctor` as users run it (the compiled CLI, real Node, no vitest loader): the resolved
// configuration with the source of every value, notices on stderr, and config problems reported.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { project } from './helpers.js';

const CLI = fileURLToPath(new URL('../../dist/harness/cli/main.js', import.meta.url));

/** Only what the test sets: nothing SALTNET_* from the machine running the tests. */
function doctor(cwd: string, args: string[], env: Record<string, string> = {}) {
  const home = join(cwd, '.home');
  mkdirSync(home, { recursive: true });
  return execa(process.execPath, [CLI, 'doctor', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, SALTNET_STATE_DIR: join(home, 'runs'), ...env },
    extendEnv: false,
    reject: false,
  });
}

describe('saltnet doctor: the configuration in effect', { timeout: 60_000 }, () => {
  it('--json: each value with its source (file:line, env, flag, default); env-over-file notice on stderr', async () => {
    const root = project({
      'saltnet.config.yaml': 'backend: sim\nbinDir: ./bin\nrun:\n  workers: 3\n  reporter: junit\n',
      'pkg/.keep': '',
    });
    const file = join(root, 'saltnet.config.yaml');
    const r = await doctor(join(root, 'pkg'), ['--json', '--timeout-factor', '2'], { SALTNET_WORKERS: '4' });
    expect(r.exitCode).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.configFile).toBe(file);
    expect(d.config.backend).toEqual({ value: 'sim', source: `config file ${file}:1` });
    expect(d.config.binDir).toEqual({ value: join(root, 'bin'), source: `config file ${file}:2` });
    expect(d.config['run.workers']).toEqual({ value: 4, source: 'env SALTNET_WORKERS' });
    expect(d.config['run.reporter']).toEqual({ value: 'junit', source: `config file ${file}:5` });
    expect(d.config.timeoutFactor).toEqual({ value: 2, source: 'flag --timeout-factor' });
    expect(d.config.login).toEqual({ value: 'none', source: 'default' });
    expect(d.config.difficulty).toEqual({ value: null, source: 'default', unset: "the backend's (500; monero: 1)" });
    expect(r.stderr).toContain('saltnet: SALTNET_WORKERS overrides run.workers from ../saltnet.config.yaml:4 (3 → 4)');
    // the rest of doctor is still there, and looks at the configured bin dir
    expect(d.node).toBe(process.version);
    expect(d.backends.sim.found).toBe(true);
    expect(d.backends.salvium).toMatchObject({ found: false, problem: expect.stringContaining(join(root, 'bin')) });
  });

  it('human output: one line per key with its source; --config picks the file', async () => {
    const root = project({ 'team/shared.yaml': 'backend: sim\nsnapshots: false\n' });
    const r = await doctor(root, ['--config', 'team/shared.yaml', '--bin-dir', '/opt/b']);
    expect(r.exitCode).toBe(0);
    const file = join(root, 'team/shared.yaml');
    expect(r.stdout).toContain(`config: ${file}\n`);
    expect(r.stdout).toContain(`  backend: sim   (config file ${file}:1)\n`);
    expect(r.stdout).toContain(`  snapshots: false   (config file ${file}:2)\n`);
    expect(r.stdout).toContain('  binDir: /opt/b   (flag --bin-dir)\n');
    expect(r.stdout).toContain('  run.workers: 1   (default)\n');
  });

  it('a .mjs config with defineConfig loads under plain Node', async () => {
    const dist = fileURLToPath(new URL('../../dist/harness/config/index.js', import.meta.url));
    const root = project({
      'saltnet.config.mjs': `import { defineConfig } from ${JSON.stringify(dist)};\nexport default defineConfig({ backend: 'sim', run: { bail: true } });\n`,
    });
    const r = await doctor(root, ['--json']);
    expect(r.exitCode).toBe(0);
    const d = JSON.parse(r.stdout);
    expect(d.config.backend).toEqual({ value: 'sim', source: `config file ${join(root, 'saltnet.config.mjs')}` });
    expect(d.config['run.bail']).toEqual({ value: true, source: `config file ${join(root, 'saltnet.config.mjs')}` });
  });

  it('a bad config file: doctor still reports the rest, names the problem with line:col, exits 1', async () => {
    const root = project({ 'saltnet.config.yaml': 'backend: sim\nrun:\n  worker: 2\n' });
    const r = await doctor(root, ['--json']);
    expect(r.exitCode).toBe(1);
    const d = JSON.parse(r.stdout);
    expect(d.config.error).toBe(
      `${join(root, 'saltnet.config.yaml')}:3:3: run.worker: unknown key "worker" (did you mean "workers"?) (expected one of isolation, workers, pool, reporter, artifacts, bail, files)`,
    );
    expect(d.backends.sim.found).toBe(true);
  });

  it('a .ts config on Node 20: a clear error saying to use .mjs or .yaml', async () => {
    const major = Number(process.versions.node.split('.')[0]);
    const root = project({
      'saltnet.config.ts': "const c: { backend: string } = { backend: 'sim' };\nexport default c;\n",
    });
    const r = await doctor(root, ['--json']);
    const d = JSON.parse(r.stdout);
    if (major < 22) {
      expect(r.exitCode).toBe(1);
      expect(d.config.error).toContain(
        `${join(root, 'saltnet.config.ts')}: (file): Node ${process.version} cannot load a TypeScript config file`,
      );
      expect(d.config.error).toMatch(/saltnet\.config\.mjs.*saltnet\.config\.yaml/);
    } else {
      // Newer Nodes either strip the types (the config loads) or say the same as above.
      expect(d.config.backend?.value === 'sim' || /cannot load a TypeScript config file/.test(d.config.error)).toBe(
        true,
      );
    }
  });
});
