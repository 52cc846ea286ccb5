// How the cost grows (`npm run bench -- --scaling-only`, also part of the full bench; docs/scaling.md): for each curve,
// one row of cost per size, then a verdict on its shape (bench-shape.ts: the log-log slope, and the cost per unit at
// the largest size against the smallest).
//   scale.chain.*   the simulator's chain at heights 1201 … 100,000: a warm `saltnet up` (the installed bin) to its
//                   ready line (best of 3), the latency of get_info, get_block_headers_range (the last 100),
//                   get_balance and get_transfers of main (p50 of 20), the RSS of the daemon and the wallet RPC. Each
//                   chain state is built once (SALTNET_SIM_MIN_BLOCK_MS=0) and kept across runs in
//                   <saltnet cache>/bench-scaling (or SALTNET_BENCH_SCALING_CACHE).
//   scale.wallets.* 1, 10, 100 and 1000 wallets on one simulated testnet: created and funded as scenario wallets are
//                   (fundAhead, 10 SAL1 each), opened (a wallet RPC each, as many as half the free memory holds),
//                   get_balance with that many open, RSS
//   scale.pool.*    100, 1000 and 10,000 transactions in the simulator's pool: the time to send them (20 wallets side
//                   by side, their auto refresh off), get_transaction_pool and get_transaction_pool_stats, the
//                   daemon's RSS, the blocks that take them
//   scale.tps.*     `saltnet load` on the simulator at 20 … 400 tx/s (a wallet per 5 tx/s, at most 32): achieved, p99
//                   confirmation in blocks; and on real Salvium (when its binaries are found) at 1, 2 and 5 tx/s at
//                   difficulty 1 and 500, with saltnet's CPU time against the programs'
// The loads are in bench-scaling-load.ts. `--curves chain,wallets,pool,tps,real` picks some of them; `--rates 200,400`
// other rates for the simulator's load, `--difficulties 500` only some difficulties for real Salvium's.
import { availableParallelism, freemem, loadavg } from 'node:os';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pMap from 'p-map';
import { resolveCacheDir } from '../harness/common/cache-dir.js';
import { assetTransfer } from '../harness/coin/transactions.js';
import { fundAhead } from '../harness/runner/prepaid-wallets.js';
import { mineTo } from '../harness/testnet/mining/mining.js';
import { startTestnet } from '../harness/testnet/testnet.js';
import type { WalletClient } from '../harness/rpc/wallet.js';
import { cleanup, post, rpc, tempDir } from '../test/helpers/sim.js';
import { push, rssMb, shapes, type Point } from './bench-shape.js';
import { RICH, realCurve, SIM_RATES, tpsCurve } from './bench-scaling-load.js';
import { upToReady } from './bench-start.js';
import { median, ms, type Report } from './bench-up.js';

const COIN = 100_000_000n;
const CURVES = ['chain', 'wallets', 'pool', 'tps', 'real'] as const;
type Curve = (typeof CURVES)[number];

/** The curves asked for with `--curves a,b` (default: every one). */
export function curvesAsked(argv: readonly string[]): Curve[] {
  const i = argv.indexOf('--curves');
  if (i < 0) return [...CURVES];
  const asked = (argv[i + 1] ?? '').split(',').filter(Boolean);
  const bad = asked.filter((c) => !(CURVES as readonly string[]).includes(c));
  if (bad.length || !asked.length) throw new Error(`--curves takes some of ${CURVES.join(',')}, got ${argv[i + 1]}`);
  return asked as Curve[];
}

/** Numbers asked for with `--<flag> a,b` (`--rates 200,400`: the simulator's rates; `--difficulties 500`: real's). */
export function numbersAsked(argv: readonly string[], flag: string): number[] | undefined {
  const i = argv.indexOf(`--${flag}`);
  if (i < 0) return undefined;
  const xs = (argv[i + 1] ?? '').split(',').map(Number);
  if (xs.some((x) => !(x > 0))) throw new Error(`--${flag} takes numbers above 0 such as 1,500, got ${argv[i + 1]}`);
  return xs;
}

/** Where the chain states of the scaling bench are kept between runs. */
export function scalingCache(): string {
  const dir = process.env.SALTNET_BENCH_SCALING_CACHE ?? join(resolveCacheDir(), 'bench-scaling');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

const quiet = { progress: 'none', log: () => undefined, trapSignals: false } as const;
const portOf = (url: string): number => Number(new URL(url).port);
const mb = (n: number | undefined): string => (n === undefined ? 'gone' : `${n.toFixed(0)} MB`);

/** `n` calls of `fn`, one after the other: the p50 and p90 of their times (ms). */
async function latency(n: number, fn: () => Promise<unknown>): Promise<{ p50: number; p90: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: median(times), p90: times[Math.min(times.length - 1, Math.floor(0.9 * times.length))]! };
}

/** A JSON-RPC call that must answer a result. */
async function must(port: number, method: string, params?: unknown): Promise<unknown> {
  const r = await rpc(port, method, params);
  if (!r?.result) throw new Error(`${method} on port ${port} answered ${JSON.stringify(r?.error ?? r)}`);
  return r.result;
}

/** A URI call that must answer 200. */
async function mustPost(port: number, path: string): Promise<unknown> {
  const r = await post(port, path, {});
  if (r.status !== 200) throw new Error(`${path} on port ${port} answered HTTP ${r.status}`);
  return r.json;
}

// ---------------------------------------------------------------------------------------------------------------
// 1. The chain's height

export const CHAIN_HEIGHTS = [1201, 10_000, 25_000, 50_000, 100_000];

async function chainCurve(report: Report, cache: string): Promise<void> {
  const series: Record<string, Point[]> = {};
  // A run registry of their own: a `saltnet down` elsewhere on the machine stops every `up` it lists.
  const state = tempDir('saltnet-bench-state-');
  try {
    await chainHeights(report, cache, { SALTNET_STATE_DIR: state }, series);
  } finally {
    cleanup(state);
  }
  shapes(report, 'scale.chain', series);
}

async function chainHeights(
  report: Report,
  cache: string,
  env: Record<string, string>,
  series: Record<string, Point[]>,
): Promise<void> {
  for (const height of CHAIN_HEIGHTS) {
    const label = `scale.chain.h${height}`;
    const had = existsSync(join(cache, 'snapshots')) && hasChain(cache, height);
    const b0 = performance.now();
    await upToReady(cache, height, { ...env, SALTNET_SIM_MIN_BLOCK_MS: '0' });
    if (!had) report(`${label}.build`, ms(performance.now() - b0), 'cold `saltnet up` that built the chain state');
    const times: number[] = [];
    for (let i = 0; i < 3; i++) times.push(await upToReady(cache, height, env));
    const best = Math.min(...times);
    report(
      `${label}.up`,
      ms(best),
      `warm \`saltnet up\` to its ready line, best of 3 (${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
    push(series, 'up', height, best);
    const t = await startTestnet({ ...quiet, backend: 'sim', cacheDir: cache, height });
    try {
      const d = t.daemon.ports.rpc;
      const w = portOf(t.wallet.url);
      const top = await t.height();
      const calls: [string, () => Promise<unknown>][] = [
        ['get_info', () => must(d, 'get_info')],
        [
          'get_block_headers_range',
          () => must(d, 'get_block_headers_range', { start_height: top - 100, end_height: top - 1 }),
        ],
        ['get_balance', () => must(w, 'get_balance', { asset_type: 'SAL1' })],
        ['get_transfers', () => must(w, 'get_transfers', { in: true, out: true, pending: true, pool: true })],
      ];
      for (const [name, call] of calls) {
        await call();
        const l = await latency(20, call);
        report(`${label}.${name}`, ms(l.p50), `p50 of 20, p90 ${ms(l.p90)}`);
        push(series, name, height, l.p50);
      }
      const rssD = rssMb(t.daemon.pid);
      const rssW = rssMb(t.wallet.pid);
      report(`${label}.rss`, mb(rssD), `daemon; wallet RPC ${mb(rssW)} (snapshot ${t.snapshot.status})`);
      push(series, 'rss.daemon', height, rssD);
      push(series, 'rss.walletRpc', height, rssW);
    } finally {
      await t.stop();
    }
  }
}

const hasChain = (cache: string, height: number): boolean =>
  readdirSync(join(cache, 'snapshots')).some((k) => k.startsWith(`sim-d1-h${height}-`));

// ---------------------------------------------------------------------------------------------------------------
// 2. Wallets

export const WALLET_COUNTS = [1, 10, 100, 1000];

async function walletsCurve(report: Report, cache: string): Promise<void> {
  const series: Record<string, Point[]> = {};
  let perWallet: number | undefined;
  for (const n of WALLET_COUNTS) {
    const label = `scale.wallets.n${n}`;
    const t = await startTestnet({ ...quiet, backend: 'sim', cacheDir: cache, unlocked: RICH });
    const opened: string[] = [];
    try {
      const names = Array.from({ length: n }, (_, i) => `w${n}-${i}`);
      const f0 = performance.now();
      const paid = await fundAhead(
        t,
        names.map((wallet) => ({ wallet, asset: 'SAL1', amount: 10n * COIN })),
        () => undefined,
      );
      const fund = performance.now() - f0;
      report(
        `${label}.createFund`,
        ms(fund),
        `created and paid 10 SAL1 each as scenario wallets are (fundAhead): ${paid.size} paid, ${ms(fund / n)} a wallet`,
      );
      push(series, 'createFund', n, fund);
      // Each wallet RPC holds its own process: open as many as half the free memory holds.
      const room = perWallet ? Math.floor(freemem() / 2 / 2 ** 20 / perWallet) : n;
      const toOpen = Math.min(n, room);
      const o0 = performance.now();
      for (const name of names.slice(0, toOpen)) {
        await (await t.addWallet(name)).client.refresh();
        opened.push(name);
      }
      const open = performance.now() - o0;
      const handles = opened.map((name) => t.wallets().get(name)!);
      const rss = handles.map((h) => rssMb(h.pid) ?? 0);
      const total = rss.reduce((a, b) => a + b, 0);
      perWallet = Math.max(perWallet ?? 0, total / rss.length);
      report(
        `${label}.open`,
        ms(open),
        toOpen < n
          ? `${toOpen} of ${n} opened (a wallet RPC each, ~${perWallet.toFixed(0)} MB: ${n} would need ${((n * perWallet) / 1024).toFixed(1)} GB, ${(freemem() / 2 ** 30).toFixed(1)} GB free)`
          : `a wallet RPC each, started and refreshed: ${ms(open / toOpen)} a wallet`,
      );
      if (toOpen === n) push(series, 'open', n, open);
      const first = portOf(handles[0]!.url);
      await must(first, 'get_balance', { asset_type: 'SAL1' });
      const one = await latency(20, () => must(first, 'get_balance', { asset_type: 'SAL1' }));
      let i = 0;
      const round = await latency(Math.min(100, handles.length * 2), () =>
        must(portOf(handles[i++ % handles.length]!.url), 'get_balance', { asset_type: 'SAL1' }),
      );
      report(
        `${label}.getBalance`,
        ms(one.p50),
        `p50 of 20 on one wallet with ${opened.length} open (p90 ${ms(one.p90)}); across them p50 ${ms(round.p50)}`,
      );
      push(series, 'getBalance', opened.length, one.p50);
      const rssD = rssMb(t.daemon.pid);
      report(
        `${label}.rss`,
        mb(total),
        `${opened.length} wallet RPCs (${mb(total / opened.length)} each); daemon ${mb(rssD)}`,
      );
      push(series, 'rss.wallets', opened.length, total);
      push(series, 'rss.daemon', n, rssD);
    } finally {
      for (const name of opened) await t.removeWallet(name).catch(() => undefined);
      await t.stop();
    }
  }
  shapes(report, 'scale.wallets', series);
}

// ---------------------------------------------------------------------------------------------------------------
// 3. The pool

export const POOL_SIZES = [100, 1000, 10_000];
const POOL_WALLETS = 20;
/** Blocks until a coinbase output is spendable. */
const COINBASE_AGE = 61;

async function poolCurve(report: Report, cache: string): Promise<void> {
  const series: Record<string, Point[]> = {};
  const t = await startTestnet({ ...quiet, backend: 'sim', cacheDir: cache, unlocked: RICH });
  const names = Array.from({ length: POOL_WALLETS }, (_, i) => `pool-${i}`);
  const wallets: WalletClient[] = [];
  try {
    // Two outputs a transaction at most (the wallet takes one or two inputs, by a coin's flip), for every size in
    // turn: each wallet mines that many blocks, whose coinbase outputs it spends (faster than paying 20,000 outputs
    // from main, which waits for its change again and again).
    const outputs = Math.ceil((2 * POOL_SIZES.reduce((a, b) => a + b, 0)) / POOL_WALLETS) + 4;
    const s0 = performance.now();
    const addresses = await t.createWallets(names, { lookahead: true });
    for (const n of names)
      await mineTo(t.daemon.client, (await t.height()) + outputs, {
        spec: t.backend.spec,
        addresses: addresses.get(n)!,
        timeoutMs: 600_000,
      });
    await t.mine(COINBASE_AGE, { sync: false });
    for (const n of names) wallets.push((await t.addWallet(n)).client);
    await Promise.all(wallets.map((w) => w.refresh()));
    // A wallet's refresh asks the daemon for its whole pool (get_transaction_pool): with 20 wallets refreshing on
    // their own every 20 s, that, not the sends, is what a large pool would cost. Off: the curve is the pool's.
    await Promise.all(wallets.map((w) => w.call('auto_refresh', { enable: false })));
    report(
      'scale.pool.setup',
      ms(performance.now() - s0),
      `${POOL_WALLETS} wallets each mined ${outputs} blocks to spend their coinbase outputs (not part of the curve)`,
    );
    for (const size of POOL_SIZES) {
      const label = `scale.pool.n${size}`;
      const d = t.daemon.ports.rpc;
      const to = t.wallet.address;
      const a0 = performance.now();
      let rejected = 0;
      await pMap(
        wallets,
        async (w, i) => {
          const mine = Math.floor(size / POOL_WALLETS) + (i < size % POOL_WALLETS ? 1 : 0);
          for (let k = 0; k < mine; k++)
            await w
              .call('transfer', assetTransfer([{ address: to, amount: 10_000n, asset_type: 'SAL1' }], 'SAL1'))
              .catch(() => rejected++);
        },
        { concurrency: POOL_WALLETS },
      );
      const send = performance.now() - a0;
      const inPool = ((await mustPost(d, '/get_transaction_pool_stats')) as { pool_stats: { txs_total: number } })
        .pool_stats.txs_total;
      report(
        `${label}.send`,
        ms(send),
        `${inPool} in the pool, ${rejected} refused; ${(size / (send / 1000)).toFixed(0)} tx/s from ${POOL_WALLETS} wallets side by side`,
      );
      push(series, 'send', size, send);
      for (const [name, path] of [
        ['getTransactionPool', '/get_transaction_pool'],
        ['getTransactionPoolStats', '/get_transaction_pool_stats'],
      ] as const) {
        const l = await latency(3, () => mustPost(d, path));
        report(`${label}.${name}`, ms(l.p50), `p50 of 3, slowest ${ms(l.p90)}`);
        push(series, name, size, l.p50);
      }
      const rssD = rssMb(t.daemon.pid);
      report(`${label}.rss`, mb(rssD), 'the daemon, with the pool full');
      push(series, 'rss.daemon', size, rssD);
      const m0 = performance.now();
      const h0 = await t.height();
      let blocks = 0;
      while ((await t.daemon.client.poolHashes()).length > 0 && blocks < 100) {
        await t.mine(1, { sync: false });
        blocks = (await t.height()) - h0;
      }
      const mined = performance.now() - m0;
      report(`${label}.mine`, ms(mined), `${blocks} block(s) took them (without the wallets' refresh)`);
      push(series, 'mine', size, mined);
      await Promise.all(wallets.map((w) => w.refresh()));
    }
  } finally {
    for (const n of names) await t.removeWallet(n).catch(() => undefined);
    await t.stop();
  }
  shapes(report, 'scale.pool', series);
}

/** The scaling curves asked for (every one by default), each a table of rows and its shape. */
export async function scaling(report: Report, argv: readonly string[], realBinDir?: string): Promise<void> {
  const curves = curvesAsked(argv);
  const cache = scalingCache();
  process.stdout.write(`scaling: ${availableParallelism()} cores, chain states cached in ${cache}\n`);
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const run = async (curve: Curve, fn: () => Promise<void>): Promise<void> => {
    if (!curves.includes(curve)) return;
    const before = load();
    await fn();
    report(`scale.${curve}.loadavg`, load(), `the machine's load averages (1, 5, 15 min) after; before: ${before}`);
  };
  await run('chain', () => chainCurve(report, cache));
  await run('wallets', () => walletsCurve(report, cache));
  await run('pool', () => poolCurve(report, cache));
  await run('tps', () => tpsCurve(report, cache, numbersAsked(argv, 'rates') ?? SIM_RATES));
  await run('real', async () => {
    if (realBinDir) await realCurve(report, realBinDir, cache, numbersAsked(argv, 'difficulties') ?? [1, 500]);
    else report('scale.tps.salvium', 'skipped', 'real Salvium not found (SALTNET_BIN_DIR)');
  });
}
