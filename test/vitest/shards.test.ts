// A vitest suite that uses saltnet/vitest, split over three runners with vitest's own `--shard k/3`: each shard is
// a separate vitest process with a HOME and a state folder of its own, and a copy of one cache folder (what CI
// runners get as an artifact) built once by `saltnet cache build` with the project's saltnet.config.yaml. Checked:
// every shard restored the chain state and the fresh wallets funded ahead from that copy (its ready line says
// `snapshot hit`, it funded nothing, and its copy holds no state it did not hold before), and the shards' reports
// join into one that holds every test once with the right totals, both ways: `saltnet report merge` of their JUnit
// reports and `vitest --merge-reports` of their blob reports.
import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSnapshots } from '../../harness/snapshot/store.js';
import { CLI } from '../cli/helpers.js';
import { cleanup, tempDir } from '../helpers/sim.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

// Beside the example project's example.spec.ts (three tests, alice funded with 10 SAL1): a fresh wallet and a skipped
// test, blocks mined, and a test that fails on purpose.
const FILES: Record<string, string> = {
  'balance.spec.ts': `import { expect, inject, it } from 'vitest';
import { freshWallet } from 'saltnet/vitest';

const saltnet = inject('saltnet');

it('a fresh wallet starts empty', async () => {
  await using w = await freshWallet(saltnet, { name: 'empty' });
  expect((await w.client.balance('SAL1')).balance).toBe(0n);
});
it.skip('is skipped on purpose', () => undefined);
`,
  'mine.spec.ts': `import { expect, inject, it } from 'vitest';
import { mine } from 'saltnet/vitest';

it('mines two blocks', async () => {
  const saltnet = inject('saltnet');
  expect(await mine(saltnet, 2)).toBeGreaterThanOrEqual(saltnet.height + 2);
});
`,
  'fails.spec.ts': `import { expect, inject, it } from 'vitest';

it('fails on purpose', () => {
  expect(inject('saltnet').backend).toBe('no such backend');
});
`,
};
const TESTS = [
  'a fresh wallet starts empty',
  'alice sends 1 SAL1 to bob, who sees it once a block confirms it',
  'alice starts with 10 SAL1 unlocked',
  'fails on purpose',
  'is skipped on purpose',
  'is up at the height the global setup reached, with a funded main wallet',
  'mines two blocks',
];

let root: string;
let project: string;

beforeAll(() => {
  root = tempDir('saltnet-vitest-shards-');
  project = join(root, 'project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules/saltnet'));
  symlinkSync(realpathSync(join(ROOT, 'node_modules/vitest')), join(project, 'node_modules/vitest'));
  cpSync(join(ROOT, 'test/vitest/example'), project, { recursive: true });
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(project, name), text);
  // alice's 10 SAL1 come from a wallet funded ahead: a state the cache must hold too.
  writeFileSync(
    join(project, 'saltnet.config.yaml'),
    'difficulty: 500\nfreshWallets:\n  - { unlocked: 10 SAL1, count: 1 }\n',
  );
});
afterAll(() => cleanup(root));

/** A runner's environment: its own HOME and state folder, its copy of the cache; nothing of this vitest worker. */
function runner(k: number, cacheDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, v] of Object.entries(process.env))
    if (v !== undefined && !name.startsWith('VITEST') && name !== 'FORCE_COLOR' && name !== 'NODE_OPTIONS')
      env[name] = v;
  return {
    ...env,
    HOME: join(root, `home${k}`),
    SALTNET_STATE_DIR: join(root, `state${k}`),
    SALTNET_CACHE_DIR: cacheDir,
    SALTNET_BACKEND: 'sim',
    SALTNET_SIM_HASHRATE: '250000',
    NO_COLOR: '1',
  };
}

const run = (file: string, args: string[], env: Record<string, string>) =>
  execa(process.execPath, [file, ...args], { cwd: project, env, extendEnv: false, reject: false, all: true });

/** The `<testcase>` names of a JUnit report, and its root element's counts. */
function junit(path: string): { names: string[]; tests: number; failures: number; skipped: number } {
  const text = readFileSync(path, 'utf8');
  const rootTag = /<testsuites [^>]*>/.exec(text)![0];
  const count = (k: string): number => Number(new RegExp(` ${k}="(\\d+)"`).exec(rootTag)?.[1] ?? NaN);
  const names = [...text.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) =>
    m[1]!.replace(/^.* &gt; /, ''),
  );
  return { names: names.sort(), tests: count('tests'), failures: count('failures'), skipped: count('skipped') };
}

describe('a vitest suite on saltnet/vitest, sharded over three runners', { timeout: 300_000 }, () => {
  it('restores the state built once in every shard, and the shards’ reports join into one', async () => {
    const cache = join(root, 'cache');
    const built = await run(CLI, ['cache', 'build'], runner(0, cache));
    expect(built.exitCode, built.all).toBe(0);
    expect(built.stdout).toMatch(/-ahead-\S+ holds the vitest global setup's 1 fresh wallet funded ahead/);
    const keys = listSnapshots(cache).map((s) => s.key);
    expect(keys).toHaveLength(2);

    const junits: string[] = [];
    for (const k of [1, 2, 3]) {
      // The artifact each runner downloads: a copy of the folder, nothing else shared.
      const copy = join(root, `runner${k}-cache`);
      cpSync(cache, copy, { recursive: true });
      const out = join(root, `junit-${k}.xml`);
      const blob = join(root, 'blobs', `blob-${k}.json`);
      const r = await run(
        VITEST,
        [
          'run',
          '--root',
          project,
          '--shard',
          `${k}/3`,
          '--reporter=default',
          '--reporter=blob',
          '--reporter=junit',
          `--outputFile.blob=${blob}`,
          `--outputFile.junit=${out}`,
        ],
        runner(k, copy),
      );
      const ran = junit(out);
      expect(ran.tests, `shard ${k} ran no test\n${r.all}`).toBeGreaterThan(0);
      expect(r.exitCode, r.all).toBe(ran.failures > 0 ? 1 : 0);
      // Restored, never built: the ready line, no funding, and nothing added to the runner's copy of the cache.
      expect(r.all).toMatch(/saltnet: testnet ready for the tests: .* snapshot hit$/m);
      expect(r.all).toMatch(/saltnet: funded 1 fresh wallet ahead: restored with snapshot \S+-ahead-/);
      expect(r.all).not.toMatch(/building it|funding the fresh wallets|saved snapshot/);
      expect(listSnapshots(copy).map((s) => s.key)).toEqual(keys);
      junits.push(out);
    }

    const merged = join(root, 'junit.xml');
    const m = await run(CLI, ['report', 'merge', ...junits, '--output', merged], runner(0, cache));
    expect(m.exitCode, m.all).toBe(0);
    expect(junit(merged)).toEqual({ names: TESTS, tests: 7, failures: 1, skipped: 1 });
    // The shards' own totals (vitest's root element has no skipped count) add up to the same.
    const shards = junits.map(junit);
    expect(shards.reduce((a, s) => a + s.tests, 0)).toBe(7);
    expect(shards.reduce((a, s) => a + s.failures, 0)).toBe(1);

    const vitestMerged = join(root, 'vitest-junit.xml');
    const v = await run(
      VITEST,
      [
        'run',
        '--root',
        project,
        `--merge-reports=${join(root, 'blobs')}`,
        '--reporter=junit',
        `--outputFile=${vitestMerged}`,
      ],
      runner(0, cache),
    );
    expect(v.all).not.toContain('saltnet: testnet ready');
    expect(junit(vitestMerged).names).toEqual(TESTS);
    expect(junit(vitestMerged)).toMatchObject({ tests: 7, failures: 1 });
  });
});
