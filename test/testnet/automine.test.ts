// Automine's loop on its own, against a made-up daemon: what it mines for (a transaction in the
// pool, an interval), what it leaves (a transaction the daemon never mines), how a change of mode
// takes effect, and that an error is said once and retried. The real programs and the simulator are
// in test/cli/loop.test.ts and test/real/7-loop.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { applyChange, Automine, describeAutomine, MANUAL, STUCK_AFTER } from '../../harness/testnet/mining/automine.js';
import { waitFor } from '../helpers/sim.js';

/** A daemon with a pool: a block takes every pool tx except those in `never`. */
function fakeChain(o: { never?: string[]; failFirst?: number } = {}) {
  const state = { height: 100, pool: [] as string[], mined: [] as string[][], logs: [] as string[], fails: 0 };
  const never = new Set(o.never ?? []);
  const host = {
    poolHashes: async () => [...state.pool],
    mineBlock: async (signal: AbortSignal, due: () => boolean) => {
      signal.throwIfAborted();
      if (!due()) return undefined;
      if (state.fails < (o.failFirst ?? 0)) {
        state.fails++;
        throw new Error('the daemon is restarting');
      }
      state.mined.push(state.pool.filter((h) => !never.has(h)));
      state.pool = state.pool.filter((h) => never.has(h));
      return ++state.height;
    },
    log: (l: string) => void state.logs.push(l),
    detail: (l: string) => void state.logs.push(l),
  };
  return { state, host };
}

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

function started(host: ReturnType<typeof fakeChain>['host'], mode = MANUAL): Automine {
  const a = new Automine(host, mode);
  a.start();
  stop = () => a.stop();
  return a;
}

describe('automine', () => {
  it('manual by default: nothing is mined, however full the pool', async () => {
    const { state, host } = fakeChain();
    state.pool.push('tx1');
    const a = started(host);
    expect(a.get()).toEqual({ mineOnTx: false, blockTime: 0 });
    // Turning it on is what mines the waiting transaction (nothing was mined before).
    expect(state.mined).toEqual([]);
    a.set({ mineOnTx: true });
    await waitFor('a block', async () => state.mined.length === 1);
    expect(state.mined[0]).toEqual(['tx1']);
  });

  it('mine-on-tx mines a block for each transaction that arrives, and none for an empty pool', async () => {
    const { state, host } = fakeChain();
    started(host, { mineOnTx: true, blockTime: 0 });
    state.pool.push('a');
    await waitFor('block for a', async () => state.mined.length === 1);
    state.pool.push('b', 'c');
    await waitFor('block for b and c', async () => state.mined.length === 2);
    expect(state.mined).toEqual([['a'], ['b', 'c']]);
    expect(state.logs).toContain('saltnet: automine: block 101 (2 txs in the pool)');
  });

  it('mines nothing for a transaction it saw when the mode changes before the chain lock is held', async () => {
    const { state, host } = fakeChain();
    // The lock is held elsewhere (a scenario's own mine) while automine sees the pool and asks for it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = false;
    const locked = {
      ...host,
      mineBlock: async (signal: AbortSignal, due: () => boolean) => {
        asked = true;
        await held;
        return host.mineBlock(signal, due);
      },
    };
    state.pool.push('tx1');
    const a = started(locked, { mineOnTx: true, blockTime: 0 });
    await waitFor('automine to ask for the lock', async () => asked);
    a.set('off');
    release();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(state.mined).toEqual([]);
    expect(state.height).toBe(100);
  });

  it('leaves a transaction the daemon never mines after a few blocks, and says so once', async () => {
    const { state, host } = fakeChain({ never: ['bad'] });
    started(host, { mineOnTx: true, blockTime: 0 });
    state.pool.push('bad');
    await waitFor('the stuck tx to be left', async () => state.logs.some((l) => l.includes('tx bad is still')));
    expect(state.mined.length).toBe(STUCK_AFTER);
    // Still in the pool, but a new transaction is mined at once (and the stuck one is not mined for again).
    state.pool.push('good');
    await waitFor('block for good', async () => state.mined.some((b) => b.includes('good')));
    expect(state.mined.length).toBe(STUCK_AFTER + 1);
    expect(state.logs.filter((l) => l.includes('tx bad is still'))).toHaveLength(1);
  });

  it('an interval mines blocks without transactions; interval 0 and off stop it', async () => {
    const { state, host } = fakeChain();
    const a = started(host);
    a.set({ blockTime: 0.02 });
    await waitFor('two interval blocks', async () => state.mined.length >= 2);
    expect(a.get()).toEqual({ mineOnTx: false, blockTime: 0.02 });
    expect(a.set('off')).toEqual(MANUAL);
    const after = state.mined.length;
    // A transaction while it is off stays in the pool: turning mine-on-tx on is what takes it.
    state.pool.push('x');
    a.set({ mineOnTx: true });
    await waitFor('block for x', async () => state.mined.some((b) => b.includes('x')));
    expect(state.mined.length).toBe(after + 1);
  });

  it('says a failure once and tries again', async () => {
    const { state, host } = fakeChain({ failFirst: 3 });
    started(host, { mineOnTx: true, blockTime: 0 });
    state.pool.push('t');
    await waitFor('the block after the failures', async () => state.mined.length === 1);
    expect(state.logs.filter((l) => l.includes('the daemon is restarting; trying again'))).toHaveLength(1);
  });

  it('refuses a change once stopped', async () => {
    const { host } = fakeChain();
    const a = started(host, { mineOnTx: true, blockTime: 0 });
    await a.stop();
    expect(() => a.set('off')).toThrow(/the testnet is stopping/);
  });
});

describe('a change of mode', () => {
  it('keeps what it does not name; off is manual', () => {
    const on = applyChange(MANUAL, { mineOnTx: true });
    expect(applyChange(on, { blockTime: 5 })).toEqual({ mineOnTx: true, blockTime: 5 });
    expect(applyChange({ mineOnTx: true, blockTime: 5 }, 'off')).toEqual(MANUAL);
    expect(describeAutomine({ mineOnTx: true, blockTime: 5 })).toBe('mine-on-tx and a block every 5 s');
    expect(describeAutomine(MANUAL)).toBe('manual');
  });

  it('names the bad field', () => {
    expect(() => applyChange(MANUAL, { blockTime: -1 })).toThrow(/blockTime must be a number of seconds from 0/);
    expect(() => applyChange(MANUAL, { blockTime: 100_000 })).toThrow(/to 86400, got 100000/);
    expect(() => applyChange(MANUAL, { mineOnTx: 'yes' as never })).toThrow(/mineOnTx must be true or false/);
    expect(() => applyChange(MANUAL, 'on' as never)).toThrow(/expected 'off' or/);
  });
});
