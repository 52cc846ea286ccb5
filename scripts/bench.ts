// `npm run bench`: prints the numbers the issues ask for. Nothing here asserts a time; it measures.
//   sim.mine1300     time for the simulator to mine 1300 blocks (the default fast pace, and SALTNET_SIM_PACE=steady)
//   sim.getBalance   1000 sequential get_balance calls against a wallet that mined those blocks
//   up.start.sim.*   `saltnet up` (the installed bin) to its ready line, warm, at height 1201 and 20,000: best and
//                    median of 5 (`npm run bench -- --start-only` runs only those)
//   up.<backend>.*   each phase of `saltnet up`, cold (build + save a snapshot) and warm (restore),
//                    and the harness's overhead against the same steps by hand
//   wallet.*         a wallet that mined every block against the test wallet fed only its funding blocks
//   run.*            the scenario runner's overhead per step against a raw HTTP call, and the example suite's wall time
//                    (bench-runner.ts)
//   record.overhead.* what a recording proxy adds to a request (`saltnet record`)
//   (`npm run bench -- --sim-only` stops after the simulator's numbers; `-- --real-only` gives only real Salvium's;
//   `-- --suite-only` only the example suite on real Salvium at 1 and at 500; `-- --up-only` real Salvium's part but
//   the suite (cold and warm up, a pooled testnet, mining, checkpoint and freshWallet); `-- --checkpoint-only` only a
//   checkpoint and a revert there; `-- --fresh-only` only freshWallet at 500, funded ahead and paid, on sim and real;
//   `-- --load-only` only `saltnet load` on the simulator; `-- --difficulty-only` only what a user sees at difficulty
//   500 from the command line with saltnet's own RandomX miner: warm up, first block, fund, two scenarios at 500 vs 1)
//   load.sim.*       `saltnet load` at 20 tx/s for 30 s on the simulator: the rate achieved, confirmation latency
//   scale.*          how the cost grows (bench-scaling.ts, docs/scaling.md): the chain's height to 100,000, 1 to 1000
//                    wallets, a pool of 100 to 10,000 transactions, `saltnet load` at rising rates on the simulator and
//                    at 1 to 5 tx/s on real Salvium; each curve's rows, then its shape (`-- --scaling-only` runs only
//                    those, `-- --scaling-only --curves chain,pool` some of them)
//   fresh.*          freshWallet({ unlocked }) at 500: taken from the setup's freshWallets against paid and mined
//   *.salvium.*      on real Salvium when its binaries are found (SALTNET_BIN_DIR or ../shared/salvium/),
//                    at the default difficulty 500 (prefix mined at 1): cold up to token-ready by phase
//                    and its ratio to mining alone, warm up (best of 3), the example suite at
//                    difficulty 1 and at 500 (warm cache) and their ratio
//   mine1.salvium.*  a scenario's `mine: 1` at difficulty 500: full RandomX (after a minute idle, and
//                    right after ready) and light; the first block and the median of the next ones
import { execaSync } from 'execa';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  cleanup,
  generateWallet,
  height,
  mineAcrossCarrot,
  post,
  rpc,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  waitFor,
} from '../test/helpers/sim.js';
import { fixtureWallet } from '../harness/testnet/programs/fixture-wallets.js';
import { readHugePages } from '../harness/testnet/programs/hugepages.js';
import { startTestnet, type Testnet } from '../harness/testnet/testnet.js';
import { poolAcquire, poolAcquireVitest } from './bench-pool.js';
import { ms, upColdWarm } from './bench-up.js';
import { fileURLToPath } from 'node:url';
import { benchReal, suiteReal, upReal } from './bench-real.js';
import { checkpointRevert } from './bench-checkpoint.js';
import { freshWallets } from './bench-fresh.js';
import { loadThroughput } from './bench-load.js';
import { exampleSuite, runnerOverhead } from './bench-runner.js';
import { recordOverhead } from './bench-record.js';
import { upStart } from './bench-start.js';
import { findRealBinaries } from './real-binaries.js';
import { difficultyFloor } from './bench-difficulty.js';
import { scaling } from './bench-scaling.js';

interface Row {
  name: string;
  value: string;
  note: string;
}
const rows: Row[] = [];
const report = (name: string, value: string, note = ''): void => {
  rows.push({ name, value, note });
  process.stdout.write(`${name.padEnd(34)} ${value.padStart(14)}  ${note}\n`);
};

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

async function mine1300(label: string, difficulty: number, env: Record<string, string>): Promise<void> {
  const dir = tempDir('saltnet-bench-');
  try {
    const d = await startDaemon(dir, { difficulty, env });
    const w = await generateWallet(join(dir, 'miner'), 'bench', d.port);
    const t0 = performance.now();
    const reached = await mineAcrossCarrot(d.port, w, 1301);
    const t = performance.now() - t0;
    report(
      `sim.mine1300.${label}`,
      ms(t),
      `difficulty ${difficulty}, reached ${reached}, ${(1300 / (t / 1000)).toFixed(0)} blocks/s incl. the HF10 address switch`,
    );
    await d.stop();
  } finally {
    await stopAll();
    cleanup(dir);
  }
}

async function getBalance1000(): Promise<void> {
  const dir = tempDir('saltnet-bench-');
  try {
    const d = await startDaemon(dir, { difficulty: 1 });
    const w = await generateWallet(join(dir, 'w'), 'bench', d.port);
    await mineAcrossCarrot(d.port, w, 1301);
    const t0 = performance.now();
    const wr = await startWalletRpc(
      ['--wallet-file', w.path, '--password', 'bench', '--log-file', join(dir, 'wrpc.log')],
      d.port,
    );
    report(
      'sim.walletRpc.firstScan',
      ms(performance.now() - t0),
      `start to ready, first scan of ${await height(d.port)} blocks all mined by this wallet`,
    );
    await rpc(wr.port, 'refresh');
    const times: number[] = [];
    const all0 = performance.now();
    for (let i = 0; i < 1000; i++) {
      const s = performance.now();
      const r = await rpc(wr.port, 'get_balance', { asset_type: 'SAL1' });
      if (!r.result) throw new Error(JSON.stringify(r));
      times.push(performance.now() - s);
    }
    const total = performance.now() - all0;
    times.sort((a, b) => a - b);
    report(
      'sim.getBalance.1000',
      ms(total),
      `p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, max ${ms(times[times.length - 1] ?? 0)}`,
    );
    const raw0 = performance.now();
    for (let i = 0; i < 1000; i++) await post(d.port, '/get_height', {});
    report(
      'sim.daemon.getHeight.1000',
      ms(performance.now() - raw0),
      'baseline: the cheapest daemon call, same client',
    );
  } finally {
    await stopAll();
    cleanup(dir);
  }
}

/** `saltnet up` on a backend, cold (empty cache: build and save) then warm (restore): the time of each phase. */
async function upPhases(
  backend: 'sim' | 'monero',
  env: Record<string, string>,
  difficulty?: number,
  label: string = backend,
): Promise<{ cold: number; warm: number }> {
  const cache = tempDir('saltnet-bench-cache-');
  try {
    const unit = backend === 'monero' ? 1e12 : 1e8;
    const describe = async (t: Testnet): Promise<string> => {
      const b = await t.wallet.client.balance(t.backend.spec.fundAsset);
      return `${(Number(b.unlocked) / unit).toFixed(2)} ${backend === 'monero' ? 'XMR' : 'SAL1'} unlocked${backend === 'monero' ? '' : ' (token-ready: height > 1200, >= 1100 SAL1)'}`;
    };
    return await upColdWarm(
      label,
      { backend, daemonEnv: env, cacheDir: cache, ...(difficulty ? { difficulty } : {}) },
      report,
      describe,
    );
  } finally {
    cleanup(cache);
  }
}

/** A wallet restored from its seed in a fresh wallet RPC on this daemon: first scan, outputs, transaction building. */
async function walletCost(label: string, daemonPort: number, seed: string, dir: string): Promise<void> {
  const w = await startWalletRpc(['--wallet-dir', dir, '--log-file', join(dir, `${label}.log`)], daemonPort);
  try {
    const t0 = performance.now();
    const restored = await rpc(w.port, 'restore_deterministic_wallet', {
      filename: `bench-${label}`,
      seed,
      password: 'bench',
      restore_height: 0,
      language: 'English',
    });
    if (!restored.result) throw new Error(JSON.stringify(restored));
    await rpc(w.port, 'refresh');
    const scan = performance.now() - t0;
    const outs =
      (await rpc(w.port, 'incoming_transfers', { transfer_type: 'available' })).result?.transfers?.length ?? 0;
    const a = (await rpc(w.port, 'get_address')).result;
    const address = a.addresses?.[0]?.address_carrot ?? a.address;
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const s0 = performance.now();
      const r = await rpc(w.port, 'transfer', {
        destinations: [{ address, amount: 100_000_000, asset_type: 'SAL1' }],
        source_asset: 'SAL1',
        dest_asset: 'SAL1',
        tx_type: 3,
        do_not_relay: true,
      });
      if (!r.result) throw new Error(JSON.stringify(r.error));
      times.push(performance.now() - s0);
    }
    times.sort((a, b) => a - b);
    report(`wallet.${label}.outputs`, String(outs), 'unspent outputs after the first scan');
    report(`wallet.${label}.firstScan`, ms(scan), 'restore from seed + first refresh over the whole chain');
    report(
      `wallet.${label}.transfer`,
      ms(quantile(times, 0.5)),
      `p50 of 20 transfers built (do_not_relay), p95 ${ms(quantile(times, 0.95))}`,
    );
  } finally {
    await w.stop();
  }
}

/**
 * The effect of the miner wallet: a wallet that mined every block against the test wallet that got only its funding
 * blocks.
 */
async function fewerOutputs(): Promise<void> {
  const dir = tempDir('saltnet-bench-');
  const cache = tempDir('saltnet-bench-cache-');
  try {
    const d = await startDaemon(dir, { difficulty: 1 });
    const all = await generateWallet(join(dir, 'all'), 'bench', d.port);
    await mineAcrossCarrot(d.port, all, 1201);
    await walletCost('minedEveryBlock', d.port, all.seed.join(' '), dir);
    await d.stop();
    const t = await startTestnet({
      backend: 'sim',
      progress: 'none',
      log: () => undefined,
      trapSignals: false,
      cacheDir: cache,
      daemonEnv: { SALTNET_SIM_HASHRATE: '250000' },
    });
    try {
      await walletCost('fundingBlocksOnly', t.daemon.ports.rpc, fixtureWallet('main').seed, dir);
    } finally {
      await t.stop();
    }
  } finally {
    await stopAll();
    cleanup(dir);
    cleanup(cache);
  }
}

/** The same steps as `up` on sim, started by hand (no supervisor, registry, reaper or readiness strategies). */
async function byHand(env: Record<string, string>): Promise<number> {
  const dir = tempDir('saltnet-bench-');
  try {
    const t0 = performance.now();
    const d = await startDaemon(dir, { difficulty: 500, env });
    const w = await generateWallet(join(dir, 'w'), 'bench', d.port);
    const wr = await startWalletRpc(
      ['--wallet-file', w.path, '--password', 'bench', '--log-file', join(dir, 'wrpc.log')],
      d.port,
    );
    await mineAcrossCarrot(d.port, w, 1201);
    await waitFor(
      '1001 SAL1 unlocked',
      async () => {
        await rpc(wr.port, 'refresh');
        const b = (await rpc(wr.port, 'get_balance', { asset_type: 'SAL1' })).result?.balances?.[0];
        return b && BigInt(b.unlocked_balance) >= 1001n * 100_000_000n;
      },
      60_000,
      20,
    );
    const total = performance.now() - t0;
    report('up.sim.byHand', ms(total), 'the same processes and steps by hand');
    return total;
  } finally {
    await stopAll();
    cleanup(dir);
  }
}

async function main(): Promise<void> {
  // Real full-mode mining depends on the machine's huge pages (docs/difficulty.md#huge-pages): said with the numbers.
  const pages = readHugePages();
  const hp = pages ? `, huge pages ${pages.free} free of ${pages.total}` : '';
  process.stdout.write(
    `saltnet bench — node ${process.version}, ${availableParallelism()} cores${hp}, ${new Date().toISOString()}\n\n`,
  );
  if (process.argv.includes('--real-only')) return realPart();
  if (process.argv.includes('--up-only')) return realPart(upReal);
  if (process.argv.includes('--pool-only')) return poolPart();
  if (process.argv.includes('--suite-only')) return suitePart();
  if (process.argv.includes('--checkpoint-only')) return checkpointPart();
  if (process.argv.includes('--fresh-only')) return freshPart();
  if (process.argv.includes('--start-only')) return upStart(report);
  if (process.argv.includes('--load-only')) return loadThroughput('sim', { backend: 'sim' }, report);
  if (process.argv.includes('--difficulty-only')) return realPart(difficultyFloor);
  if (process.argv.includes('--scaling-only')) return scalingPart();
  await mine1300('fast', 500, {});
  await mine1300('steady', 500, { SALTNET_SIM_PACE: 'steady' });
  await getBalance1000();
  process.stdout.write('\n');
  await upStart(report);
  const paced = await upPhases('sim', {});
  report(
    'up.sim.cold',
    ms(paced.cold),
    "a newcomer's first `saltnet up` on sim: empty cache, default pace (fast), difficulty 500; target ≤ 3 s",
  );
  report(
    'up.sim.speedup',
    `${(paced.cold / paced.warm).toFixed(0)}x`,
    `warm ${ms(paced.warm)} vs cold ${ms(paced.cold)} at the default simulator pace (difficulty 500)`,
  );
  // Overhead: a fast simulated hash rate so that mining (the same for both) does not drown it.
  const fast = { SALTNET_SIM_HASHRATE: '250000' };
  await upPhases('sim', fast, undefined, 'simFast');
  await poolAcquire('sim', { backend: 'sim', daemonEnv: fast }, report);
  await poolAcquireVitest('sim', { backend: 'sim', daemonEnv: fast }, report);
  await freshWallets('sim', { backend: 'sim', daemonEnv: fast }, report);
  await loadThroughput('sim', { backend: 'sim' }, report);
  const u0 = performance.now();
  const uncached = await startTestnet({
    backend: 'sim',
    progress: 'none',
    log: () => undefined,
    trapSignals: false,
    daemonEnv: fast,
    snapshots: false,
  });
  const harness = performance.now() - u0;
  await uncached.stop();
  const hand = await byHand(fast);
  report(
    'up.sim.overhead',
    ms(harness - hand),
    `harness without the cache ${ms(harness)} (two wallets restored, blocks split miner/main) vs the same programs by hand ${ms(hand)} (one wallet mining every block), ~500 blocks/s`,
  );
  process.stdout.write('\n');
  await fewerOutputs();
  process.stdout.write('\n');
  await runnerOverhead(report);
  await recordOverhead(report);
  await exampleSuites();
  process.stdout.write('\n');
  if (process.argv.includes('--sim-only')) return scaling(report, ['--curves', 'chain,wallets,pool,tps']);
  await scalingPart();
  if (execaSync('sh', ['-c', 'command -v monerod'], { reject: false }).exitCode === 0) {
    process.stdout.write('\n');
    const m = await upPhases('monero', {}, 1);
    report(
      'up.monero.speedup',
      `${(m.cold / m.warm).toFixed(1)}x`,
      `warm ${ms(m.warm)} vs cold ${ms(m.cold)} (real monerod, difficulty 1, height 70)`,
    );
  } else report('up.monero', 'skipped', 'monerod not installed (apt-get install -y monero)');
  process.stdout.write('\n');
  await realPart();
}

/** Only the pool's rows: on sim, and on real Salvium when found (`npm run bench -- --pool-only`). */
async function poolPart(): Promise<void> {
  const fast = { backend: 'sim' as const, daemonEnv: { SALTNET_SIM_HASHRATE: '250000' } };
  await poolAcquire('sim', fast, report);
  await poolAcquireVitest('sim', fast, report);
  const real = await findRealBinaries(fileURLToPath(new URL('../..', import.meta.url)));
  if ('dir' in real) {
    await poolAcquire('salvium', { backend: 'salvium', binDir: real.dir }, report);
    await poolAcquireVitest('salvium', { backend: 'salvium', binDir: real.dir }, report);
  } else report('pool.salvium', 'skipped', real.why);
}

/** Only the example suite on real Salvium at 1 and at 500, and the ratio (`npm run bench -- --suite-only`). */
async function suitePart(): Promise<void> {
  const real = await findRealBinaries(fileURLToPath(new URL('../..', import.meta.url)));
  if ('dir' in real) await suiteReal(real.dir, report);
  else report('run.examples.salvium', 'skipped', real.why);
}

/** Only a checkpoint and a revert on real Salvium at 500 (`npm run bench -- --checkpoint-only`), from a fresh cache. */
async function checkpointPart(): Promise<void> {
  const real = await findRealBinaries(fileURLToPath(new URL('../..', import.meta.url)));
  if (!('dir' in real)) return void report('checkpoint.salvium', 'skipped', real.why);
  const cacheDir = mkdtempSync(join(tmpdir(), 'saltnet-bench-checkpoint-'));
  try {
    await checkpointRevert({ backend: 'salvium', binDir: real.dir, cacheDir }, report);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** Only freshWallet at 500 (`npm run bench -- --fresh-only`): on sim, and on real Salvium from a fresh cache. */
async function freshPart(): Promise<void> {
  await freshWallets('sim', { backend: 'sim', daemonEnv: { SALTNET_SIM_HASHRATE: '250000' } }, report);
  const real = await findRealBinaries(fileURLToPath(new URL('../..', import.meta.url)));
  if (!('dir' in real)) return void report('fresh.salvium', 'skipped', real.why);
  const cacheDir = mkdtempSync(join(tmpdir(), 'saltnet-bench-fresh-'));
  try {
    await freshWallets('salvium', { backend: 'salvium', binDir: real.dir, cacheDir }, report);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

/** The example suite on sim: cold and warm with one worker, warm with two. */
async function exampleSuites(): Promise<void> {
  const suiteCache = tempDir('saltnet-bench-cache-');
  try {
    await exampleSuite(1, suiteCache, 'cold', report);
    await exampleSuite(1, suiteCache, 'warm', report);
    await exampleSuite(2, suiteCache, 'warm', report);
  } finally {
    cleanup(suiteCache);
  }
}

/** Only the scaling curves (`npm run bench -- --scaling-only [--curves chain,wallets,pool,tps,real]`). */
async function scalingPart(): Promise<void> {
  const real = await findRealBinaries(fileURLToPath(new URL('../..', import.meta.url)));
  await scaling(report, process.argv, 'dir' in real ? real.dir : undefined);
}

async function realPart(part: typeof benchReal = benchReal): Promise<void> {
  const real = await findRealBinaries(fileURLToPath(new URL('../..', import.meta.url)));
  if ('dir' in real) await part(real.dir, report);
  else report('up.salvium', 'skipped', real.why);
}

main().catch(async (err: unknown) => {
  await stopAll();
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
