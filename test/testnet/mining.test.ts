// mineTo ends exactly at its target: the blocks a miner finds past it are popped when they hold only
// their coinbase; a block past the target that holds a transaction is kept (and all below it); a
// daemon that cannot pop keeps its overshoot rather than failing the mine.
import { describe, expect, it } from 'vitest';
import { type DaemonClient, unrelayedTxs } from '../../harness/rpc/daemon.js';
import { BACKENDS } from '../../harness/coin/backends.js';
import { MAX_POLL_MS, mineTo, pollDelay, settleRelay } from '../../harness/testnet/mining/mining.js';

/** A daemon whose miner finds `perPoll` blocks between two height polls; `txAt` marks blocks holding a tx. */
function fakeDaemon(o: {
  start: number;
  perPoll: number;
  txAt?: number[];
  canPop?: boolean;
}): DaemonClient & { popped: number[] } {
  let height = o.start;
  let mining = false;
  const popped: number[] = [];
  const d = {
    popped,
    height: async () => {
      if (mining) height += o.perPoll;
      return height;
    },
    startMining: async () => {
      mining = true;
      return 'OK';
    },
    stopMining: async () => {
      mining = false;
      return 'OK';
    },
    miningStatus: async () => ({ active: mining, address: '', speed: 1, threads_count: 1 }),
    txCount: async (h: number) => ((o.txAt ?? []).includes(h) ? 1 : 0),
    popBlocks: async (n: number) => {
      if (o.canPop === false) throw new Error('403 Forbidden');
      popped.push(n);
      height -= n;
      return height;
    },
  };
  return d as unknown as DaemonClient & { popped: number[] };
}

const opts = { spec: BACKENDS.sim, addresses: { cn: 'cn', carrot: 'carrot' }, timeoutMs: 5_000, pollMs: 1 };

describe('mineTo', () => {
  it('pops the coinbase-only blocks found past the target', async () => {
    const d = fakeDaemon({ start: 1300, perPoll: 7 });
    expect((await mineTo(d, 1301, opts)).height).toBe(1301);
    expect(d.popped).toEqual([6]);
  });

  it('keeps a block past the target that holds a transaction, and every block below it', async () => {
    const d = fakeDaemon({ start: 1300, perPoll: 7, txAt: [1303] });
    expect((await mineTo(d, 1301, opts)).height).toBe(1304);
    expect(d.popped).toEqual([3]);
  });

  it('leaves a chain already at or past the target as it is: it pops no block it did not mine', async () => {
    const d = fakeDaemon({ start: 926, perPoll: 7 });
    expect((await mineTo(d, 70, opts)).height).toBe(926);
    expect((await mineTo(d, 926, opts)).height).toBe(926);
    expect(d.popped).toEqual([]);
  });

  it('gives up on a daemon that answers BUSY (not synchronized) past busyMs, saying why', async () => {
    const d = fakeDaemon({ start: 30, perPoll: 1 });
    let asked = 0;
    d.startMining = async () => (asked++, 'BUSY');
    await expect(mineTo(d, 31, { ...opts, busyMs: 300 })).rejects.toThrow(
      '/start_mining answered BUSY for 300 ms at height 30: the daemon is not synchronized with a peer (it mines only once it is); see its log',
    );
    expect(asked).toBeGreaterThan(1); // retried meanwhile: a node that just started synchronizes within seconds
  });

  it('keeps the overshoot when the daemon cannot pop (restricted RPC)', async () => {
    const d = fakeDaemon({ start: 1300, perPoll: 4, canPop: false });
    expect((await mineTo(d, 1302, opts)).height).toBe(1304);
  });

  it('chooses the address for the chain as it is when the miner stopped itself at the Carrot height', async () => {
    // As real v1.1.3c: a CN address is refused from the Carrot height on, and a CN miner stops itself there, after
    // finding the block the harness has not seen yet (its last read said 1099).
    let height = 1095;
    let miner: string | undefined;
    const d = {
      height: async () => {
        if (miner && height < 1099) height++;
        else if (miner === 'carrot') height++;
        return height;
      },
      startMining: async (address: string) => {
        if (address === 'cn' && height >= 1100)
          return 'Mining to CryptoNote wallet address, but Carrot wallet address is required';
        miner = address;
        return 'OK';
      },
      stopMining: async () => {
        miner = undefined;
        return 'OK';
      },
      miningStatus: async () => {
        if (miner === 'cn' && height === 1099) [height, miner] = [1100, undefined];
        return { active: miner !== undefined, address: '', speed: 1, threads_count: 1 };
      },
      txCount: async () => 0,
      popBlocks: async (n: number) => (height -= n),
    } as unknown as DaemonClient;
    const spec = { ...BACKENDS.salvium!, relaySettleMs: 0 };
    expect((await mineTo(d, 1103, { ...opts, spec })).height).toBe(1103);
  });
});

describe('the height poll while mining', () => {
  it('is the base right after a block, then a tenth of the time since, up to MAX_POLL_MS', () => {
    expect(pollDelay(5, 0)).toBe(5);
    expect(pollDelay(5, 40)).toBe(5);
    expect(pollDelay(5, 300)).toBe(30);
    expect(pollDelay(5, 60_000)).toBe(MAX_POLL_MS);
    // A base above the cap is kept.
    expect(pollDelay(250, 60_000)).toBe(250);
  });

  it('asks the daemon far less often while a block is slow to come (as at difficulty 500)', async () => {
    // One block every 1.5 s: at a fixed 5 ms that is ~300 polls a block, ~45 with the backoff.
    const height = 1300;
    let polls = 0;
    const t0 = Date.now();
    const d = fakeDaemon({ start: 0, perPoll: 0 });
    d.height = async () => {
      polls++;
      return height + Math.floor((Date.now() - t0) / 1500);
    };
    d.popBlocks = async () => height;
    const out = await mineTo(d, 1302, { ...opts, pollMs: 5 });
    expect(out.height).toBeGreaterThanOrEqual(1302);
    expect(polls).toBeLessThan(150);
  });
});

describe('a transaction the daemon has not relayed yet', () => {
  // As /get_transaction_pool answers on real v1.1.3c (tx_pool.cpp get_transactions_and_spent_keys_info): a stem's
  // last_relayed_time is hidden as 0.
  const tx = { relayed: true, last_relayed_time: 1795780083, do_not_relay: false, kept_by_block: false };
  it('is one still local (relayed false) or a stem; held back or from a popped block is settled', () => {
    const pool = {
      transactions: [
        { ...tx, id_hash: 'fluffed' },
        { ...tx, id_hash: 'local', relayed: false },
        { ...tx, id_hash: 'stem', last_relayed_time: 0 },
        { ...tx, id_hash: 'held', relayed: false, do_not_relay: true },
        { ...tx, id_hash: 'popped', relayed: false, kept_by_block: true },
      ],
    };
    expect(unrelayedTxs(pool)).toEqual(['local', 'stem']);
    expect(unrelayedTxs({})).toEqual([]);
  });

  it('holds mining back until the daemon has relayed it, and no longer than the bound', async () => {
    let asks = 0;
    const relayedAfter = (n: number) =>
      ({ unrelayed: async () => (++asks <= n ? ['local'] : []) }) as unknown as DaemonClient;
    await settleRelay(relayedAfter(3), 5_000);
    expect(asks).toBe(4);
    asks = 0;
    const t0 = Date.now();
    await settleRelay(relayedAfter(Infinity), 100);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(asks).toBeGreaterThan(1);
    // A daemon that does not answer is left to the mining that follows.
    await settleRelay({ unrelayed: async () => Promise.reject(new Error('403')) } as unknown as DaemonClient, 5_000);
  });

  it('is waited for before mineTo starts the miner', async () => {
    const order: string[] = [];
    const d = fakeDaemon({ start: 1300, perPoll: 1 });
    let asks = 0;
    d.unrelayed = async () => (order.push('pool'), ++asks < 3 ? ['local'] : []);
    const start = d.startMining.bind(d);
    d.startMining = async (a, t) => (order.push('start'), start(a, t));
    await mineTo(d, 1301, { ...opts, spec: BACKENDS.salvium! });
    expect(order.slice(0, 4)).toEqual(['pool', 'pool', 'pool', 'start']);
  });
});
