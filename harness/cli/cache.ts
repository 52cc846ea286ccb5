// `saltnet cache ls | build | key | prune | clear`: the chain-state cache, and the RandomX datasets of saltnet's own
// miner beside it (ls lists them, clear removes them, prune keeps them).
import type { Argv, CommandModule } from 'yargs';
import { cacheDir, resolveCacheDir } from '../common/cache-dir.js';
import {
  CORRUPT_KEPT_MS,
  clearSnapshots,
  listCorrupt,
  listSnapshots,
  pruneSnapshots,
  removeSnapshot,
} from '../snapshot/store.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import { chainKey, chainSpecFor } from '../testnet/chain/chain-cache.js';
import { startTestnet } from '../testnet/testnet.js';
import { skipReason, suiteChain } from '../scenario/needs.js';
import { loadScenario } from '../scenario/parse.js';
import { freshTestnetStart } from '../runner/own-testnets.js';
import { aheadState, planOfFiles } from '../runner/funded-state-cache.js';
import type { TestnetOptions } from '../testnet/types.js';
import { expandFiles } from './run.js';
import { testnetOptions, toTestnetOptions, type TestnetArgs } from './testnet-options.js';
import { progressLog } from './progress-log.js';
import { counted } from '../common/describe.js';
import { clearDatasets, datasetRows, describeDataset } from './randomx-datasets.js';
import { resolveConfig } from '../config/resolve.js';
import { buildFreshState } from '../vitest/funded.js';

const mib = (n: number): string => `${(n / 2 ** 20).toFixed(1)} MiB`;
const dirOf = (a: { cacheDir?: string }): string => resolveCacheDir(a.cacheDir ? { cacheDir: a.cacheDir } : {});

type CacheArgs = TestnetArgs & { for?: string[] };

/** `--for <globs>`: the state `saltnet run` of those files needs (the same for every --shard). */
async function withSuite(a: CacheArgs): Promise<TestnetArgs & { chain?: { height: number; unlocked: bigint } }> {
  if (!a.for?.length) return a;
  const be = resolveBackend(toTestnetOptions(a).backend ?? 'auto', a.binDir);
  return { ...a, chain: await suiteChain(await expandFiles(a.for), be.spec) };
}

/** The key `up` (or, with --for, `run`) with these options would look up. */
async function keyFor(a: CacheArgs): Promise<string> {
  const s = await withSuite(a);
  const o = { ...toTestnetOptions(a), ...(s.chain ? { height: s.chain.height, unlocked: s.chain.unlocked } : {}) };
  const be = resolveBackend(o.backend ?? 'auto', o.binDir);
  return chainKey(be, chainSpecFor(be, o));
}

const ls: CommandModule<object, { cacheDir?: string; json: boolean }> = {
  command: 'ls',
  describe: 'list the cached chain states and RandomX datasets',
  builder: (y) => y.option('cache-dir', { type: 'string' }).option('json', { type: 'boolean', default: false }),
  handler: async (a) => {
    const dir = dirOf(a);
    const rows = listSnapshots(dir);
    const corrupt = listCorrupt(dir);
    const datasets = await datasetRows(dir);
    if (a.json)
      return void process.stdout.write(`${JSON.stringify({ cacheDir: dir, snapshots: rows, corrupt, datasets })}\n`);
    process.stdout.write(`cache ${dir}\n`);
    if (rows.length === 0) process.stdout.write('  no snapshots (saltnet up or saltnet cache build makes one)\n');
    for (const r of rows)
      process.stdout.write(
        `  ${r.key}  ${r.backend}  height ${r.height}  difficulty ${r.difficulty}  ${mib(r.size)} in ${counted(r.files, 'file')}  ${r.createdAt}\n`,
      );
    for (const c of corrupt)
      process.stdout.write(`  ${c.name}  CORRUPT (set aside ${c.setAsideAt}, never used)  ${mib(c.size)}\n`);
    if (corrupt.length)
      process.stdout.write(
        `  ${corrupt.length === 1 ? 'the corrupt one is' : `the ${corrupt.length} corrupt ones are`} kept for a look: ` +
          `\`saltnet cache prune\` removes ${corrupt.length === 1 ? 'it' : 'them'} (a save does after ${CORRUPT_KEPT_MS / 86_400_000} days)\n`,
      );
    for (const d of datasets) process.stdout.write(`  RandomX dataset ${describeDataset(d)}\n`);
  },
};

const FOR = {
  type: 'string',
  array: true,
  describe: 'scenario files or globs: the state `saltnet run` of them starts from (same for every --shard)',
} as const;

const key: CommandModule<object, CacheArgs> = {
  command: 'key',
  describe: 'print the cache key of the chain state the options describe (for CI cache keys)',
  builder: (y) => testnetOptions(y).option('for', FOR) as unknown as Argv<CacheArgs>,
  handler: async (a) => void process.stdout.write(`${await keyFor(a)}\n`),
};

type BuildArgs = CacheArgs & { force: boolean; isolation: 'shared' | 'fresh' };

const build: CommandModule<object, BuildArgs> = {
  command: 'build',
  describe:
    "build the chain state the options describe and save it (nothing to do on a hit); without --for, also the config's freshWallets funded ahead",
  builder: (y) =>
    testnetOptions(y)
      .option('for', FOR)
      .option('force', {
        type: 'boolean',
        default: false,
        describe: 'build again even when cached (and the states with wallets funded ahead built on it)',
      })
      .option('isolation', {
        choices: ['shared', 'fresh'] as const,
        default: 'shared' as const,
        describe: "with --for: the states of `saltnet run --isolation <this>` (fresh: each scenario's own)",
      }) as unknown as Argv<BuildArgs>,
  handler: async (a) => {
    const log = progressLog;
    if (a.force) forget(cacheDir(a.cacheDir ? { cacheDir: a.cacheDir } : {}), await keyFor(a));
    const t0 = Date.now();
    const s = await withSuite(a);
    const o = { ...toTestnetOptions(a), ...(s.chain ? { height: s.chain.height, unlocked: s.chain.unlocked } : {}) };
    // Served at the difficulty it is mined at: the same key, and no daemon restarted only to be stopped.
    const prefix = chainSpecFor(resolveBackend(o.backend ?? 'auto', o.binDir), o).prefixDifficulty;
    const t = await startTestnet({ ...o, difficulty: prefix, snapshots: true, log });
    await t.stop();
    if (t.snapshot.saveError) throw new Error(`the chain state was built but not saved: ${t.snapshot.saveError}`);
    const serves =
      o.prefixDifficulty === 'same' ? `serves difficulty ${prefix}` : 'mined at difficulty 1, serves every difficulty';
    process.stdout.write(
      `${t.snapshot.key} ${t.snapshot.status === 'hit' ? 'was cached already' : 'built and saved'} (${((Date.now() - t0) / 1000).toFixed(1)} s; ${serves}) in ${t.snapshot.cacheDir}\n`,
    );
    if (a.for?.length) await buildAheadFor(a.for, o, a.isolation, log);
    else await buildFreshFor(a, o, log);
  },
};

/**
 * Without --for, above difficulty 1: the state the vitest global setup restores when the config keeps `freshWallets`
 * funded ahead, so that no vitest run (or shard of one) pays them itself.
 */
async function buildFreshFor(a: CacheArgs, o: TestnetOptions, log: (l: string) => void): Promise<void> {
  const config = (a as { config?: string }).config;
  const { values } = await resolveConfig({ env: process.env, ...(config ? { argv: { config } } : {}) });
  if (!values.freshWallets?.length) return;
  const t0 = Date.now();
  const key = await buildFreshState({ ...o, snapshots: true }, values.freshWallets, log);
  const n = values.freshWallets.reduce((sum, e) => sum + e.count, 0);
  if (key)
    process.stdout.write(
      `${key} holds the vitest global setup's ${counted(n, 'fresh wallet')} funded ahead (freshWallets; ${((Date.now() - t0) / 1000).toFixed(1)} s; for difficulty ${chainSpecFor(resolveBackend(o.backend ?? 'auto', o.binDir), o).difficulty})\n`,
    );
}

/** `build --force`: the state, and the states built on it with wallets funded ahead (`<key>-ahead-…`), go. */
function forget(dir: string, key: string): void {
  removeSnapshot(dir, key);
  for (const s of listSnapshots(dir)) if (s.key.startsWith(`${key}-ahead-`)) removeSnapshot(dir, s.key);
}

/**
 * With --for, above difficulty 1: the states `saltnet run` of those files starts from, built at the prefix difficulty
 * when missing. Shared: the one with their wallets paid ahead (runner/funded-state-cache.ts), and the own state of each
 * scenario of several nodes (it runs on a testnet of its own: runner/own-testnet-funds.ts); fresh: each scenario's own.
 */
async function buildAheadFor(
  globs: string[],
  o: TestnetOptions,
  isolation: 'shared' | 'fresh',
  log: (l: string) => void,
): Promise<void> {
  const be = resolveBackend(o.backend ?? 'auto', o.binDir);
  const files = await expandFiles(globs);
  const secs = (t0: number): string => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
  const difficulty = chainSpecFor(be, o).difficulty;
  if (isolation === 'shared') {
    const t0 = Date.now();
    const plan = await planOfFiles(files, be.spec);
    const base = { ...o, height: plan.height, unlocked: plan.unlocked, snapshots: true, log };
    const key = await aheadState(base, plan.pays, { log, ...plan.extras });
    if (key)
      process.stdout.write(
        `${key} holds their ${counted(plan.pays.length, 'scenario wallet')} funded ahead (${secs(t0)}; for difficulty ${difficulty})\n`,
      );
  }
  for (const file of files) {
    const s = await loadScenario(file).catch(() => undefined);
    if (!s || skipReason(s, be.spec) || (isolation === 'shared' && s.nodes === 1)) continue;
    const t0 = Date.now();
    const start = await freshTestnetStart(s, be.spec, { ...o, snapshots: true, log }, { log });
    if (start.options.snapshotKey)
      process.stdout.write(
        `${start.options.snapshotKey} holds the testnet of "${s.name}" funded ahead (${secs(t0)}; for difficulty ${difficulty})\n`,
      );
  }
}

const prune: CommandModule<object, { cacheDir?: string; json: boolean }> = {
  command: 'prune',
  describe:
    'remove the snapshots set aside as corrupt and abandoned temporary folders (the valid snapshots and the RandomX datasets stay)',
  builder: (y) => y.option('cache-dir', { type: 'string' }).option('json', { type: 'boolean', default: false }),
  handler: (a) => {
    const dir = dirOf(a);
    const removed = pruneSnapshots(dir);
    if (a.json) return void process.stdout.write(`${JSON.stringify({ cacheDir: dir, removed })}\n`);
    process.stdout.write(
      removed.length ? `removed ${removed.join(', ')} from ${dir}\n` : `nothing to prune in ${dir}\n`,
    );
  },
};

const clear: CommandModule<object, { cacheDir?: string; key?: string }> = {
  command: 'clear',
  describe: 'remove the cached chain states and RandomX datasets (or --key K: one snapshot)',
  builder: (y) =>
    y.option('cache-dir', { type: 'string' }).option('key', { type: 'string', describe: 'remove only this snapshot' }),
  handler: async (a) => {
    const dir = dirOf(a);
    if (a.key) {
      if (!removeSnapshot(dir, a.key)) throw new Error(`no snapshot ${a.key} in ${dir} (saltnet cache ls lists them)`);
      process.stdout.write(`removed ${a.key}\n`);
      return;
    }
    const snapshots = clearSnapshots(dir);
    const { removed, building } = await clearDatasets(dir);
    const datasets = removed.length ? ` and ${counted(removed.length, 'RandomX dataset')}` : '';
    process.stdout.write(`removed ${counted(snapshots, 'entry', 'entries')}${datasets} from ${dir}\n`);
    for (const seed of building)
      process.stdout.write(
        `kept the RandomX dataset ${seed.slice(0, 12)}: a running saltnet is building it (clear again once it is done)\n`,
      );
  },
};

export const cacheCommand: CommandModule = {
  command: 'cache <command>',
  describe: 'the chain-state cache: ls | build | key | prune | clear',
  builder: (y) =>
    y
      .command(ls)
      .command(build)
      .command(key)
      .command(prune)
      .command(clear)
      .demandCommand(1, 'say what to do: saltnet cache ls | build | key | prune | clear'),
  handler: () => undefined,
};
