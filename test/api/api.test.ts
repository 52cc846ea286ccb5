// The library as users import it: `import { startTestnet, runScenario } from 'saltnet'` (the
// package's own exports, i.e. the built dist/ with its type declarations), typed clients, a
// scenario run on a testnet of the caller's, stop() and Symbol.asyncDispose.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as saltnet from 'saltnet';
import { isAlive } from '../../harness/process/registry.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const quiet = {
  backend: 'sim' as const,
  progress: 'none' as const,
  log: () => undefined,
  trapSignals: false,
  daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
};
let dir: string;
beforeAll(() => {
  dir = tempDir('saltnet-api-');
});
afterAll(() => cleanup(dir));

describe("import { startTestnet, runScenario } from 'saltnet'", () => {
  it('starts a testnet with typed daemon and wallet clients, runs a scenario on it, and stops everything', async () => {
    const t: saltnet.Testnet = await saltnet.startTestnet(quiet);
    let pids: number[];
    try {
      pids = t.supervisor
        .processes()
        .filter((p) => p.running)
        .map((p) => p.pid);
      expect(await t.daemon.client.height()).toBeGreaterThanOrEqual(1201);
      const b = await t.wallet.client.balance('SAL1');
      expect(b.unlocked).toBeGreaterThanOrEqual(1100n * 100_000_000n);
      const file = join(dir, 'ok.yaml');
      writeFileSync(
        file,
        'name: on my testnet\nrequires:\n  unlocked: { SAL1: 5 SAL1 }\nsteps:\n  - get_balance: {}\n    expect: { "result.balances[0].asset_type": SAL1 }\n  - call: { on: daemon, path: /get_info }\n    expect: { result.status: OK }\n',
      );
      const before = await t.daemon.client.height();
      const r = await saltnet.runScenario(file, { testnet: t, artifactsRoot: join(dir, 'arts') });
      expect(r.status, JSON.stringify(r.failure)).toBe('passed');
      expect(r.steps.map((s) => s.status)).toEqual(['passed', 'passed']);
      // the caller's testnet is still up afterwards
      expect(await t.daemon.client.height()).toBeGreaterThanOrEqual(before);
    } finally {
      await t[Symbol.asyncDispose]();
    }
    expect(pids.length).toBe(2);
    expect(pids.filter((p) => isAlive(p))).toEqual([]);
    await t.stop(); // idempotent
  }, 120_000);

  it('a scenario that does not parse is a failed result naming file and line, not an exception', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'name: bad\nsteps:\n  - transfer: { amount: 1 SAL1 }\n');
    const r = await saltnet.runScenario(file, { backend: 'sim' });
    expect(r.status).toBe('failed');
    expect(r.failure?.message).toMatch(/bad\.yaml:3:/);
  });

  it('a scenario file that is not there is an error naming it and where it was looked for, before anything starts', async () => {
    // As in a project that depends on saltnet: its relative scenarios/ is the project's, not saltnet's.
    await expect(saltnet.runScenario('examples/transfer-groups.yaml', { backend: 'sim' })).rejects.toThrow(
      `no such scenario file: examples/transfer-groups.yaml (looked for ${join(process.cwd(), 'examples/transfer-groups.yaml')}: relative to the working directory); saltnet's own example is ${join(saltnet.EXAMPLE_SCENARIOS_DIR, 'transfer-groups.yaml')} (join(EXAMPLE_SCENARIOS_DIR, 'transfer-groups.yaml'))`,
    );
    const ok = join(dir, 'there.yaml');
    writeFileSync(ok, 'name: there\nsteps:\n  - get_balance: {}\n');
    const missing = join(dir, 'gone', 'mine.yaml');
    await expect(saltnet.runScenarios([ok, missing, join(ok, 'x.yaml')], { backend: 'sim' })).rejects.toThrow(
      `no such scenario files:\n  ${missing}\n  ${join(ok, 'x.yaml')}`,
    );
    // The exported folder is the package's own, with the example the README runs.
    expect(existsSync(join(saltnet.EXAMPLE_SCENARIOS_DIR, 'transfer-groups.yaml'))).toBe(true);
  });

  it('publishes type declarations that a TypeScript consumer compiles against', async () => {
    const dts = join(ROOT, 'dist', 'harness', 'index.d.ts');
    expect(existsSync(dts)).toBe(true);
    for (const name of ['startTestnet', 'runScenario', 'createWalletClient', 'installSalvium', 'defineConfig'])
      expect(readFileSync(dts, 'utf8')).toContain(name);
    const consumer = join(dir, 'consumer');
    const src = join(consumer, 'use.ts');
    (await import('node:fs')).mkdirSync(join(consumer, 'node_modules'), { recursive: true });
    (await import('node:fs')).symlinkSync(ROOT, join(consumer, 'node_modules', 'saltnet'));
    writeFileSync(
      src,
      [
        "import { startTestnet, runScenario, type Testnet } from 'saltnet';",
        'export async function demo(): Promise<number> {',
        "  await using net: Testnet = await startTestnet({ backend: 'sim' });",
        "  const r = await runScenario('x.yaml', { testnet: net });",
        "  const b: bigint = (await net.wallet.client.balance('SAL1')).unlocked;",
        '  return (await net.daemon.client.height()) + r.steps.length + Number(b);',
        '}',
        '// @ts-expect-error: an option that does not exist is a type error',
        "export const bad = () => startTestnet({ backnd: 'sim' });",
        '// @ts-expect-error: so is an option of the wrong type',
        "export const worse = () => startTestnet({ difficulty: 'high' });",
      ].join('\n'),
    );
    writeFileSync(
      join(consumer, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'esnext.disposable'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['use.ts'],
      }),
    );
    writeFileSync(join(consumer, 'package.json'), '{"type":"module"}');
    const r = await execa(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', consumer], {
      reject: false,
      all: true,
    });
    expect(r.exitCode, r.all).toBe(0);
  }, 60_000);
});
