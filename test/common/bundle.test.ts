// The programs saltnet starts run as the bundles the build writes while those are fresh (harness/common/bundle.ts
// for the CLI and the reaper, harness/sim/bin/launch.js for the simulator), and as tsc's modules after a tsc emit.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import { programFile } from '../../harness/common/bundle.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'saltnet-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A file written with its modification time `at` seconds after the epoch. */
function file(path: string, text: string, at: number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, at, at);
}

describe('programFile', () => {
  const dist = join(root, 'pick', 'dist');
  const module = join(dist, 'harness', 'cli', 'saltnet.js');
  const bundle = join(dist, 'harness', 'cli', 'saltnet.bundle.js');

  it('is the bundle when none of tsc’s emits came after it, else the module', () => {
    file(module, '', 1000);
    expect(programFile(module)).toBe(module); // no bundle
    file(bundle, '', 2000);
    expect(programFile(module)).toBe(bundle); // no .tsbuildinfo: a package from the registry
    file(join(dist, '.tsbuildinfo'), '', 2000);
    expect(programFile(module)).toBe(bundle); // written in the same build (npm gives every file one time)
    utimesSync(join(dist, '.tsbuildinfo'), 3000, 3000);
    expect(programFile(module)).toBe(module); // `tsc` alone after the build: the bundle is stale
  });
});

describe('the simulator’s launchers', () => {
  const tree = join(root, 'launch');
  const daemon = join(tree, 'dist', 'harness', 'sim', 'daemon');
  const launcher = join(tree, 'harness', 'sim', 'bin', 'salviumd');
  mkdirSync(dirname(launcher), { recursive: true });
  for (const name of ['launch.js', 'salviumd', 'package.json'])
    copyFileSync(join(ROOT, 'harness/sim/bin', name), join(dirname(launcher), name));
  // The choice the launcher imports, as the build compiled it (an ES module, as the package's own type says).
  mkdirSync(join(tree, 'dist', 'harness', 'common'), { recursive: true });
  copyFileSync(join(ROOT, 'dist/harness/common/bundle.js'), join(tree, 'dist', 'harness', 'common', 'bundle.js'));
  writeFileSync(join(tree, 'package.json'), '{ "type": "module" }\n');
  const run = async (): Promise<string> => (await execa(process.execPath, [launcher, '--version'])).stdout;

  it('run the bundle while it is fresh, the module after a tsc emit, and say when the simulator is not built', async () => {
    const missing = await execa(process.execPath, [launcher], { reject: false });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('saltnet simulator is not built: run "npm run build"');
    file(join(daemon, 'main.js'), 'console.log("module")', 1000);
    expect(await run()).toBe('module');
    file(join(daemon, 'main.bundle.js'), 'console.log("bundle")', 2000);
    file(join(tree, 'dist', '.tsbuildinfo'), '', 2000);
    expect(await run()).toBe('bundle');
    utimesSync(join(tree, 'dist', '.tsbuildinfo'), 3000, 3000);
    expect(await run()).toBe('module');
  });
});

describe('the build', () => {
  it('bundles the CLI, the reaper and the three simulated programs, and they are what runs', () => {
    for (const m of [
      'cli/saltnet',
      'process/reaper-main',
      'sim/daemon/main',
      'sim/wallet-rpc/main',
      'sim/wallet-cli/main',
    ]) {
      const module = join(ROOT, 'dist', 'harness', `${m}.js`);
      expect(existsSync(module.replace(/\.js$/, '.bundle.js')), m).toBe(true);
      expect(programFile(module), m).toBe(module.replace(/\.js$/, '.bundle.js'));
    }
  });
});
