// `saltnet cache` and `saltnet snapshot` as users run them: keys for CI caches, build/ls/clear,
// and a running testnet saved to a file and brought up again from it elsewhere.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from '../helpers/sim.js';
import { lockBuild, recordPartial } from '../../harness/randomx/dataset-files.js';
import { CLI, startUntilReady, stopStarted } from './helpers.js';
import { DATASET_BYTES, HALF_ITEMS, PARTIAL_SEED, READY_META, READY_SEED, writeDatasets } from './randomx-fixtures.js';

let root: string;
let cache: string;
const env = (): Record<string, string> => ({
  SALTNET_STATE_DIR: join(root, 'state'),
  SALTNET_SIM_HASHRATE: '250000',
  CI: '1',
  SALTNET_CACHE_DIR: cache,
});
const running: ResultPromise[] = [];
const saltnet = (args: string[], extraEnv: Record<string, string> = {}) =>
  execa(process.execPath, [CLI, ...args], { env: { ...env(), ...extraEnv }, reject: false, all: true });
const SMALL = ['--backend', 'sim', '--height', '200', '--unlocked', '10'];

const up = (args: string[]) => startUntilReady(args, env(), running);

beforeAll(() => {
  root = tempDir('saltnet-clicache-');
  cache = join(root, 'cache');
});
afterEach(() => stopStarted(running, env(), 'SIGINT'));
afterAll(() => cleanup(root));

describe('saltnet cache', { timeout: 150_000 }, () => {
  it('key: stable for the same options, another for another height; build, ls, clear', async () => {
    const k1 = (await saltnet(['cache', 'key', ...SMALL])).stdout;
    expect(k1).toMatch(/^sim-d1-h200-[0-9a-f]{12}$/);
    expect((await saltnet(['cache', 'key', ...SMALL])).stdout).toBe(k1);
    expect(
      (await saltnet(['cache', 'key', '--backend', 'sim', '--height', '201', '--unlocked', '10'])).stdout,
    ).not.toBe(k1);
    // one state serves every difficulty; mined at the served one (`same`) it is another
    expect((await saltnet(['cache', 'key', ...SMALL, '--difficulty', '77'])).stdout).toBe(k1);
    expect(
      (await saltnet(['cache', 'key', ...SMALL, '--difficulty', '77', '--prefix-difficulty', 'same'])).stdout,
    ).toMatch(/^sim-d77-h200-/);

    const b1 = await saltnet(['cache', 'build', ...SMALL]);
    expect(b1.exitCode, b1.all).toBe(0);
    expect(b1.stdout).toContain(`${k1} built and saved`);
    expect(b1.stdout).toContain('mined at difficulty 1, serves every difficulty');
    const b2 = await saltnet(['cache', 'build', ...SMALL]);
    expect(b2.stdout).toContain(`${k1} was cached already`);
    const ls = JSON.parse((await saltnet(['cache', 'ls', '--json'])).stdout);
    expect(ls).toMatchObject({ cacheDir: cache, snapshots: [{ key: k1, backend: 'sim', difficulty: 1 }] });
    expect(ls.snapshots[0].height).toBeGreaterThanOrEqual(200);

    const bad = await saltnet(['cache', 'clear', '--key', 'nope']);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toContain(`no snapshot nope in ${cache}`);
    expect((await saltnet(['cache', 'clear', '--key', k1])).stdout).toBe(`removed ${k1}`);
    expect(JSON.parse((await saltnet(['cache', 'ls', '--json'])).stdout).snapshots).toEqual([]);
  });
});

describe('saltnet cache ls and prune: snapshots set aside as corrupt', () => {
  it('ls lists them marked CORRUPT and says how to remove them; prune removes them and nothing else', async () => {
    const dir = join(root, 'corrupt-cache');
    const name = 'sim-d1-h200-0123456789ab.corrupt-20261129T120441123Z';
    mkdirSync(join(dir, 'snapshots', name, 'wallets'), { recursive: true });
    writeFileSync(join(dir, 'snapshots', name, 'wallets', 'main'), 'x'.repeat(1 << 20));
    mkdirSync(join(dir, 'snapshots', 'sim-d1-h200-ba9876543210'), { recursive: true }); // no manifest: not listed
    const env = { SALTNET_CACHE_DIR: dir };
    const ls = await saltnet(['cache', 'ls'], env);
    expect(ls.exitCode, ls.all).toBe(0);
    expect(ls.stdout).toContain(`${name}  CORRUPT (set aside 2026-11-29T12:04:41.123Z, never used)  1.0 MiB`);
    expect(ls.stdout).toContain('`saltnet cache prune` removes it');
    const json = JSON.parse((await saltnet(['cache', 'ls', '--json'], env)).stdout);
    expect(json.corrupt).toEqual([
      { name, key: 'sim-d1-h200-0123456789ab', setAsideAt: '2026-11-29T12:04:41.123Z', size: 1 << 20 },
    ]);
    const pruned = await saltnet(['cache', 'prune'], env);
    expect(pruned.exitCode, pruned.all).toBe(0);
    expect(pruned.stdout).toBe(`removed ${name} from ${dir}`);
    expect(existsSync(join(dir, 'snapshots', name))).toBe(false);
    expect(existsSync(join(dir, 'snapshots', 'sim-d1-h200-ba9876543210'))).toBe(true);
    expect(JSON.parse((await saltnet(['cache', 'ls', '--json'], env)).stdout).corrupt).toEqual([]);
    expect((await saltnet(['cache', 'prune'], env)).stdout).toBe(`nothing to prune in ${dir}`);
  });
});

describe("saltnet cache and the RandomX datasets of saltnet's own miner", () => {
  it('ls lists them (seed, state, size, what it cost or how far it got); prune and clear --key keep them', async () => {
    const dir = join(root, 'rx-ls');
    const rx = writeDatasets(dir);
    writeFileSync(join(rx, `${'c3'.repeat(32)}.dataset`), Buffer.alloc(128)); // not RandomX's size
    const env = { SALTNET_CACHE_DIR: dir };
    const ls = await saltnet(['cache', 'ls'], env);
    expect(ls.exitCode, ls.all).toBe(0);
    expect(ls.stdout).toContain(
      '  RandomX dataset a1a1a1a1a1a1  ready  2080.0 MiB  built 2026-11-30T01:00:00.000Z in 31.2 s on 2 threads\n' +
        '  RandomX dataset b2b2b2b2b2b2  partial: 50% built  1040.0 MiB  (the next testnet at difficulty > 1 goes on with it)\n' +
        `  RandomX dataset c3c3c3c3c3c3  wrong size (128 bytes, not ${DATASET_BYTES}): built again when a testnet needs it  0.0 MiB`,
    );
    const json = JSON.parse((await saltnet(['cache', 'ls', '--json'], env)).stdout);
    expect(json.datasets).toEqual([
      { seed: READY_SEED, state: 'ready', bytes: DATASET_BYTES, percent: 100, building: false, meta: READY_META },
      { seed: PARTIAL_SEED, state: 'partial', bytes: HALF_ITEMS * 64, percent: 50, building: false },
      { seed: 'c3'.repeat(32), state: 'ready', bytes: 128, percent: 100, building: false, wrongSize: true },
    ]);
    expect((await saltnet(['cache', 'prune'], env)).stdout).toBe(`nothing to prune in ${dir}`);
    expect((await saltnet(['cache', 'clear', '--key', 'nope'], env)).exitCode).toBe(1);
    expect(readdirSync(rx).length).toBe(5);
  });

  it('clear removes them with the snapshots, but not one a live saltnet is building', async () => {
    const dir = join(root, 'rx-clear');
    const rx = writeDatasets(dir);
    writeFileSync(join(rx, `${READY_SEED}.partial.json.tmp`), '{"items"'); // a record a killed build was writing
    const busy = 'c3'.repeat(32);
    const unlock = await lockBuild(rx, busy);
    writeFileSync(join(rx, `${busy}.partial`), Buffer.alloc(64));
    recordPartial(rx, busy, 1);
    const env = { SALTNET_CACHE_DIR: dir };
    try {
      const r = await saltnet(['cache', 'clear'], env);
      expect(r.exitCode, r.all).toBe(0);
      expect(r.stdout).toBe(
        `removed 0 entries and 2 RandomX datasets from ${dir}\n` +
          'kept the RandomX dataset c3c3c3c3c3c3: a running saltnet is building it (clear again once it is done)',
      );
      expect(readdirSync(rx).sort()).toEqual([`${busy}.dataset.lock`, `${busy}.partial`, `${busy}.partial.json`]);
    } finally {
      await unlock?.();
    }
    const again = await saltnet(['cache', 'clear'], env);
    expect(again.stdout).toBe(`removed 0 entries and 1 RandomX dataset from ${dir}`);
    expect(readdirSync(rx)).toEqual([]);
    expect(JSON.parse((await saltnet(['cache', 'ls', '--json'], env)).stdout).datasets).toEqual([]);
  });
});

describe('saltnet cache key --for', { timeout: 150_000 }, () => {
  it('names the state every shard of `saltnet run` starts from', async () => {
    const suite = join(root, 'suite');
    (await import('node:fs')).mkdirSync(suite, { recursive: true });
    for (const [i, need] of [
      [1, 30],
      [2, 700],
      [3, 5],
    ] as const) {
      (await import('node:fs')).writeFileSync(
        join(suite, `s${i}.yaml`),
        `name: s${i}\nrequires:\n  height: 120\n  unlocked: { SAL1: ${need} SAL1 }\nsteps:\n  - get_balance: {}\n`,
      );
    }
    const key = (await saltnet(['cache', 'key', '--backend', 'sim', '--for', join(suite, '*.yaml')])).stdout;
    expect(key).toMatch(/^sim-d1-h120-[0-9a-f]{12}$/);
    for (const shard of ['1/2', '2/2']) {
      const r = await saltnet([
        'run',
        join(suite, '*.yaml'),
        '--backend',
        'sim',
        '--shard',
        shard,
        '--artifacts',
        join(root, 'arts'),
        '--verbose',
      ]);
      expect(r.exitCode, r.all).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`(no snapshot|restored snapshot) ${key}`));
    }
  });
});

describe('saltnet cache build --for', { timeout: 150_000 }, () => {
  it("above difficulty 1 also builds the state with the scenarios' wallets funded ahead, which run restores", async () => {
    const fs = await import('node:fs');
    const suite = join(root, 'ahead');
    fs.mkdirSync(suite, { recursive: true });
    // Six outputs each, as a scenario's own funding pays them: 1 SAL1 is 6 × 0.16666667.
    for (const [i, got] of [
      [1, 100000002],
      [2, 200000004],
    ])
      fs.writeFileSync(
        join(suite, `a${i}.yaml`),
        `name: a${i}\nrequires:\n  height: 120\n  unlocked: { SAL1: ${i} SAL1 }\nsteps:\n  - get_balance: {}\n    expect:\n      result.balances[0].unlocked_balance: ${got}\n`,
      );
    const files = join(suite, '*.yaml');
    const key = (await saltnet(['cache', 'key', '--backend', 'sim', '--for', files])).stdout;
    const b = await saltnet(['cache', 'build', '--backend', 'sim', '--for', files]);
    expect(b.exitCode, b.all).toBe(0);
    const ahead = new RegExp(
      `^(${key}-ahead-[0-9a-f]{12}) holds their 2 scenario wallets funded ahead .*for difficulty 500\\)$`,
      'm',
    );
    expect(b.stdout).toMatch(ahead);
    const aheadKey = ahead.exec(b.stdout)![1]!;
    expect(b.stderr).toMatch(/funded 2 scenario wallets ahead in [\d.]+ s \(11 blocks\)/);
    // The run mines nothing for its wallets: they are in the state it restores.
    const r = await saltnet(['run', files, '--backend', 'sim', '--artifacts', join(root, 'arts-ahead')]);
    expect(r.exitCode, r.all).toBe(0);
    expect(r.stderr).toContain(`funded 2 scenario wallets ahead: restored with snapshot ${aheadKey}`);
    expect(r.stderr).not.toMatch(/\(11 blocks\)/);
    // A shard's run plans for the whole suite: the same state, its scenario's wallet under the same name.
    const shard = await saltnet([
      'run',
      files,
      '--backend',
      'sim',
      '--shard',
      '2/2',
      '--artifacts',
      join(root, 'arts-s'),
    ]);
    expect(shard.exitCode, shard.all).toBe(0);
    expect(shard.stderr).toContain(`funded 2 scenario wallets ahead: restored with snapshot ${aheadKey}`);
    // At difficulty 1 scenarios fund their own wallets: no such state.
    const d1 = await saltnet(['cache', 'build', '--backend', 'sim', '--difficulty', '1', '--for', files]);
    expect(d1.stdout).not.toContain('-ahead-');
    // --force builds both again: the state, and the one with the wallets funded ahead built on it.
    const again = await saltnet(['cache', 'build', '--backend', 'sim', '--for', files, '--force']);
    expect(again.exitCode, again.all).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^${key} built and saved`, 'm'));
    expect(again.stdout).toContain(`${aheadKey} holds their 2 scenario wallets funded ahead`);
    expect(again.stderr).toMatch(/funded 2 scenario wallets ahead in [\d.]+ s \(11 blocks\)/);
  });
});

describe('saltnet cache build --for: the states of scenarios on a testnet of their own', { timeout: 150_000 }, () => {
  it('builds the own state of a scenario of several nodes (shared), of every funded one (fresh); run restores it', async () => {
    const fs = await import('node:fs');
    const suite = join(root, 'own');
    fs.mkdirSync(suite, { recursive: true });
    const head =
      'requires: { height: 120, unlocked: { SAL1: 3 SAL1 } }\nwallets:\n  bob: { unlocked: { SAL1: 2 SAL1 } }\n';
    const steps =
      "  - wallet: bob\n    get_balance: {}\n    expect: { 'result.balances[0].unlocked_balance': 200000004 }\n";
    fs.writeFileSync(join(suite, 'one.yaml'), `name: one\n${head}steps:\n${steps}`);
    fs.writeFileSync(join(suite, 'two.yaml'), `name: two\nnodes: 2\n${head}steps:\n  - mine: { to: 1000 }\n${steps}`);
    const files = join(suite, '*.yaml');
    const own = (name: string) =>
      new RegExp(
        `^(\\S+-ahead-[0-9a-f]{12}) holds the testnet of "${name}" funded ahead .*for difficulty 500\\)$`,
        'm',
      );
    const b = await saltnet(['cache', 'build', '--backend', 'sim', '--for', files]);
    expect(b.exitCode, b.all).toBe(0);
    expect(b.stdout).toMatch(/holds their 2 scenario wallets funded ahead/);
    expect(b.stdout).toMatch(own('two'));
    expect(b.stdout).not.toMatch(own('one'));
    const twoKey = own('two').exec(b.stdout)![1]!;
    // Its run finds the state built: its wallet paid, the chain at the height its steps begin by mining to.
    const r = await saltnet([
      'run',
      join(suite, 'two.yaml'),
      '--backend',
      'sim',
      '--artifacts',
      join(root, 'arts-own'),
      '--verbose',
    ]);
    expect(r.exitCode, r.all).toBe(0);
    expect(r.stderr).toContain(`restored snapshot ${twoKey} (height 1000)`);
    expect(r.stderr).not.toMatch(/no snapshot/);
    expect(r.stderr).toMatch(/daemon ready at http/);
    // Without --verbose the same run keeps those lines to itself: nothing it did is worth the user's attention.
    const quiet = await saltnet(['run', join(suite, 'two.yaml'), '--backend', 'sim', '--artifacts', join(root, 'q')]);
    expect(quiet.exitCode, quiet.all).toBe(0);
    expect(quiet.stderr).not.toMatch(/restored snapshot|daemon ready at|ready at http/);
    // Fresh isolation: every scenario runs on its own testnet, so each funded one has its own state.
    const f = await saltnet(['cache', 'build', '--backend', 'sim', '--for', files, '--isolation', 'fresh']);
    expect(f.exitCode, f.all).toBe(0);
    expect(f.stdout).not.toMatch(/scenario wallets funded ahead/);
    expect(f.stdout).toMatch(own('one'));
    expect(own('two').exec(f.stdout)?.[1]).toBe(twoKey);
  });
});

describe('saltnet snapshot', { timeout: 180_000 }, () => {
  it('save writes the running testnet to a file (it keeps running); load brings that state up', async () => {
    // served at 9: the chain state under it was mined at 1 (the up says so)
    const first = await up(['up', ...SMALL, '--difficulty', '9']);
    expect(first.ready.mining).toMatchObject({ difficulty: 9 });
    expect(first.ready.snapshot.prefix).toMatchObject({ difficulty: 1 });
    const wallet = first.ready.wallet.url as string;
    // a transaction the saved state must hold
    const mine = await saltnet(['mine', '3']);
    expect(mine.exitCode, mine.all).toBe(0);
    const height = Number(/height (\d+)/.exec(mine.stdout)![1]);
    const file = join(root, 'bug-report.tar.gz');
    const saved = await saltnet(['snapshot', 'save', file]);
    expect(saved.exitCode, saved.all).toBe(0);
    expect(saved.stdout).toContain(`wrote ${file}: sim height ${height}`);
    expect(existsSync(file)).toBe(true);
    // the testnet is still up on the same endpoint, and the temporary cache entry is gone
    const v = await fetch(`${wallet}/json_rpc`, {
      method: 'POST',
      body: '{"jsonrpc":"2.0","id":1,"method":"get_height"}',
    });
    expect(((await v.json()) as { result: { height: number } }).result.height).toBe(height);
    expect(
      JSON.parse((await saltnet(['cache', 'ls', '--json'])).stdout)
        .snapshots.map((s: { key: string }) => s.key)
        .filter((k: string) => k.startsWith('saved-')),
    ).toEqual([]);
    first.proc.kill('SIGINT');
    await first.proc;

    const second = await up(['snapshot', 'load', file]);
    expect(second.ready.height).toBe(height);
    expect(second.ready.snapshot.status).toBe('hit');
    expect(second.ready.wallet.addresses).toEqual(first.ready.wallet.addresses);
    expect(second.err()).toContain(`imported ${file}`);
    // the difficulty the saved testnet served, unless --difficulty says another
    expect(second.ready.mining).toMatchObject({ difficulty: 9 });
    second.proc.kill('SIGINT');
    await second.proc;
    const third = await up(['snapshot', 'load', file, '--difficulty', '11']);
    expect(third.ready.mining).toMatchObject({ difficulty: 11 });
  });

  it('save without a running testnet says how to start one; load of a damaged file is refused', async () => {
    const r = await saltnet(['snapshot', 'save', join(root, 'x.tar.gz')]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('no testnet is running: start one with `saltnet up`');
    const junk = join(root, 'junk.tar.gz');
    (await import('node:fs')).writeFileSync(junk, 'not an archive');
    const l = await saltnet(['snapshot', 'load', junk]);
    expect(l.exitCode).toBe(1);
    expect(l.stderr).toMatch(/junk\.tar\.gz/);
  });
});
