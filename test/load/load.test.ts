// `saltnet load` on the simulator, as a user runs it: `saltnet up --backend sim`, then a load of 20 tx/s whose every
// transaction is confirmed, its report consistent (the rate it achieves is a benchmark's: scripts/bench-load.ts);
// its words refused before anything is sent; and the chain watch that times confirmations, against a made-up daemon
// whose blocks are popped and mined again (as Testnet.mine pops the empty blocks a miner found past its target).
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperation } from '../../harness/operations/load.js';
import { parseBody } from '../../harness/operations/body.js';
import { checkLoadOptions, fundingPlan } from '../../harness/load/run.js';
import { prepareLoadToken } from '../../harness/load/token.js';
import { ChainWatch } from '../../harness/load/watch.js';
import { kindAt, outputsNeeded, percentiles } from '../../harness/load/stats.js';
import type { LoadReport } from '../../harness/load/types.js';
import type { Testnet } from '../../harness/testnet/types.js';
import { cleanup, tempDir } from '../helpers/sim.js';
import { expectLoadReportConsistent } from '../helpers/load-report.js';
import { CLI, startUntilReady, stopStarted } from '../cli/helpers.js';

let state: string;
let cache: string;
const env = (): Record<string, string> => ({ SALTNET_STATE_DIR: state, SALTNET_CACHE_DIR: cache, CI: '1' });
const running: ResultPromise[] = [];
const saltnet = (args: string[]) => execa(process.execPath, [CLI, ...args], { env: env(), reject: false, all: true });

describe('saltnet load on the simulator', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    state = tempDir('saltnet-state-');
    cache = tempDir('saltnet-cache-');
    await startUntilReady(['up', '--backend', 'sim'], env(), running, 150_000);
  }, 160_000);
  afterAll(async () => {
    await stopStarted(running, env(), 'SIGINT');
    cleanup(state);
    cleanup(cache);
  });

  it('confirms every transaction it sends, and reports its rate, latency and pool consistently', async () => {
    const res = await saltnet(['load', '--tps', '20', '--duration', '5', '--mix', 'transfers,subaddresses', '--json']);
    expect(res.exitCode, res.all as string).toBe(0);
    const r = JSON.parse(res.stdout as string) as LoadReport;
    expect(r.mining).toEqual({ by: 'load', blockTime: 1 });
    expect(r.counts).toMatchObject({ scheduled: 100, sent: 100, confirmed: 100, rejected: 0 });
    expect(r.rejections).toEqual([]);
    expect(r.unconfirmed).toEqual([]);
    expect(r.byKind).toEqual({
      transfers: { sent: 50, confirmed: 50, rejected: 0 },
      subaddresses: { sent: 50, confirmed: 50, rejected: 0 },
    });
    expectLoadReportConsistent(r);
    expect(r.tps.achieved).toBeCloseTo(r.counts.sent / r.seconds.sending, 1);
    expect(r.seconds.sending).toBeGreaterThanOrEqual(5);
    expect(r.pool.samples.length).toBeGreaterThan(0);
    // Its wallets' RPCs are stopped again: of the testnet's programs only the daemon and main's wallet RPC run.
    const [st] = JSON.parse((await saltnet(['status', '--json'])).stdout as string) as {
      processes: { name: string; alive: boolean }[];
    }[];
    const load = st!.processes.filter((p) => p.name.startsWith('wallet-rpc-load-'));
    expect(load).toHaveLength(4);
    expect(load.filter((p) => p.alive)).toEqual([]);
  });

  it('sends every kind of the mix from every wallet: tokens of its own token, sweeps of deposit subaddresses', async () => {
    const mix = 'transfers,subaddresses,tokens,sweeps';
    const res = await saltnet(['load', '--tps', '20', '--duration', '5', '--mix', mix, '--json']);
    expect(res.exitCode, res.all as string).toBe(0);
    const r = JSON.parse(res.stdout as string) as LoadReport;
    expect(r.rejections).toEqual([]);
    expect(r.unconfirmed).toEqual([]);
    for (const kind of ['transfers', 'subaddresses', 'tokens', 'sweeps'] as const)
      expect(r.byKind[kind], kind).toEqual({ sent: 25, confirmed: 25, rejected: 0 });
    expect(r.setup).toMatchObject({ token: 'salLOAD', tokenOutputsPerWallet: expect.any(Number) as number });
    expect(r.setup.depositsPerWallet).toBeGreaterThan(0);
    // A token's transaction goes in the block after its ROLLUP: the slowest confirmation is two blocks at least.
    expect(r.latency.blocks.max).toBeGreaterThanOrEqual(2);
    // Main spreads its funds before paying: a few rounds of 11 blocks and the token's first 61, where paying the 28
    // transactions of coin one at a time would take 11 blocks each (308).
    expect(r.setup.blocks).toBeLessThan(200);
    // A second load finds the token made: main makes it once.
    const again = await saltnet(['load', '--tps', '4', '--duration', '2', '--mix', 'tokens', '--json']);
    expect(again.exitCode, again.all as string).toBe(0);
    const r2 = JSON.parse(again.stdout as string) as LoadReport;
    expect(r2.byKind.tokens).toEqual({ sent: 8, confirmed: 8, rejected: 0 });
    expect(r2.setup.blocks).toBeLessThan(61);
  });

  it('refuses a kind of transaction it does not send, naming it, before anything is sent', async () => {
    const res = await saltnet(['load', '--tps', '2', '--duration', '1', '--mix', 'transfer,sweeps']);
    expect(res.exitCode).not.toBe(0);
    expect(res.stderr).toContain(
      '--mix: "transfer" is not a kind of transaction a load sends (did you mean transfers?); the kinds are transfers, subaddresses, tokens, sweeps',
    );
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the load request', () => {
  it('says which field is wrong and what it takes', () => {
    expect(() => parseBody(loadOperation.body, { tps: 0, duration: 5 })).toThrow(/tps must be transactions a second/);
    expect(() => parseBody(loadOperation.body, { tps: 5, duration: 5, mix: ['swaps'] })).toThrow(/mix/);
  });

  it("the library's options: the same words, said as a load's", () => {
    expect(() => checkLoadOptions({ tps: 0, duration: 5 })).toThrow(
      /^load: tps must be transactions a second.*, got the number 0$/,
    );
    expect(() => checkLoadOptions({ tps: 1, duration: 5, walets: 2 } as never)).toThrow(
      'load: unknown field "walets" (did you mean wallets?); a load takes',
    );
    expect(checkLoadOptions({ tps: 1, duration: 5 })).toMatchObject({ wallets: 4, mix: ['transfers'], blockTime: 1 });
  });

  it('funds each wallet two outputs a transaction for the blocks its change is locked, never more than it sends', () => {
    expect(outputsNeeded({ tps: 20, duration: 30, wallets: 4, spendableAge: 10, blockSeconds: 1 })).toBe(152);
    expect(outputsNeeded({ tps: 2, duration: 2, wallets: 2, spendableAge: 10, blockSeconds: 1 })).toBe(6);
  });

  it('pays each wallet what the mix spends: the coin for transfers and tokens (their ROLLUPs), a deposit per sweep', () => {
    const o = { tps: 20, duration: 30, wallets: 4 };
    expect(fundingPlan({ ...o, mix: ['transfers'] }, 10, 1)).toEqual({ outputs: 152, tokenOutputs: 0, deposits: 0 });
    expect(fundingPlan({ ...o, mix: ['sweeps'] }, 10, 1)).toEqual({ outputs: 0, tokenOutputs: 0, deposits: 77 });
    const all = fundingPlan({ ...o, mix: ['transfers', 'subaddresses', 'tokens', 'sweeps'] }, 10, 1);
    expect(all).toEqual({ outputs: 116, tokenOutputs: 40, deposits: 21 });
  });

  it('has every wallet send every kind of the mix, however many wallets there are', () => {
    const mix = ['transfers', 'subaddresses', 'tokens', 'sweeps'] as const;
    for (const wallets of [1, 2, 3, 4, 8]) {
      const byWallet = new Map<number, Set<string>>();
      for (let i = 0; i < wallets * mix.length; i++) {
        const w = i % wallets;
        byWallet.set(w, (byWallet.get(w) ?? new Set()).add(kindAt(mix, i, wallets)));
      }
      for (const kinds of byWallet.values()) expect([...kinds].sort(), `${wallets} wallets`).toEqual([...mix].sort());
    }
  });

  it('refuses tokens on a backend without them, and below the height where they activate, naming both', async () => {
    const t = (spec: object, height: number) => ({ backend: { spec }, height: () => Promise.resolve(height) }) as never;
    await expect(prepareLoadToken(t({ name: 'monero' }, 2000), 1n)).rejects.toThrow(
      "the mix's tokens need a backend with tokens; monero has none",
    );
    await expect(prepareLoadToken(t({ name: 'salvium', tokenHeight: 1200 }, 1150), 1n)).rejects.toThrow(
      "the mix's tokens need tokens active, from height 1200; the testnet is at 1150: mine 50 blocks first (saltnet mine 50)",
    );
  });

  it('takes percentiles by nearest rank', () => {
    expect(percentiles([3, 1, 2, 4, 5, 6, 7, 8, 9, 10])).toEqual({ p50: 5, p90: 9, p99: 10, max: 10 });
    expect(percentiles([])).toEqual({ p50: 0, p90: 0, p99: 0, max: 0 });
  });
});

/** A daemon's chain of 11 blocks (by height: [hash, txs]) for the watch, and how many blocks it was asked for. */
function fakeChain(): { chain: [string, string[]][]; t: Testnet; asked: () => number } {
  const chain: [string, string[]][] = Array.from({ length: 11 }, (_, i) => [`h${i}`, []]);
  let asked = 0;
  const daemon = {
    getInfo: async () => ({
      status: 'OK',
      height: chain.length,
      top_block_hash: chain[chain.length - 1]![0],
      tx_pool_size: 0,
    }),
    call: async (_m: string, p: { height: number }) => {
      asked++;
      const b = chain[p.height];
      if (!b) throw new Error('no such block');
      return { block_header: { hash: b[0] }, tx_hashes: b[1] };
    },
  };
  const t = { height: async () => 10, daemon: { client: daemon } } as unknown as Testnet;
  return { chain, t, asked: () => asked };
}

describe('the chain watch', () => {
  it('asks for no block while the top block is the one it looked at last', async () => {
    const { t, asked } = fakeChain();
    const watch = new ChainWatch(t, Date.now());
    watch.height = 10; // where begin() would start it, without its loop of looks beside these
    await watch.poll();
    expect(asked()).toBe(1); // block 10, new to the watch
    await watch.poll();
    await watch.poll();
    expect(asked()).toBe(1);
  });

  it('looks again at a height whose block was popped and mined anew, and confirms what the new block holds', async () => {
    // Blocks by height: [hash, txs]. The watch sees 11 (an empty block found past a target), then it is popped and a
    // block holding tx "a" is mined at its height.
    const { chain, t } = fakeChain();
    const watch = new ChainWatch(t, Date.now());
    await watch.begin();
    watch.track({ txHash: 'a', wallet: 'w', kind: 'transfers', at: 0, height: 10 });
    await watch.poll();
    chain[10] = ['h10b', ['a']];
    await watch.poll();
    await watch.end();
    expect(watch.pending.size).toBe(0);
    expect(watch.confirmed).toMatchObject([{ txHash: 'a', index: 10, blocks: 1 }]);
  });
});
