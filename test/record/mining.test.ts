// How a recording counts the blocks of a mining episode (harness/record/mining.ts): what the app waited for — the
// height its last poll before stop_mining saw, minus the height when mining started — not what the daemon went on to
// mine before it stopped; and what the chain gained when the app never looked at the height.
import { afterEach, describe, expect, it } from 'vitest';
import { polledHeight, trackMining, type Mined, type MiningTracker } from '../../harness/record/mining.js';

const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
const rpc = (method: string): Buffer => json({ jsonrpc: '2.0', id: 0, method });
const EMPTY: Buffer = Buffer.alloc(0);

let tracker: MiningTracker | undefined;
afterEach(() => tracker?.close());

/** A tracker on a chain whose height the test sets (popping lowers it), and what it settled. */
function track(start: number, pop: (n: number) => Promise<void> = async () => undefined) {
  const chain = { height: start };
  const mined: Mined[] = [];
  const popped: number[] = [];
  tracker = trackMining({
    height: async () => chain.height,
    pop: async (n) => {
      await pop(n);
      popped.push(n);
      chain.height -= n;
    },
    mined: (m) => void mined.push(m),
    startHeight: start,
    pollMs: 60_000,
  });
  const t = tracker;
  /** A daemon request the app sends (and its answer, for a poll). */
  const daemon = async (path: string, answer?: unknown, body: Buffer = EMPTY): Promise<boolean> => {
    const step = await t.before('daemon', path, body);
    if (answer !== undefined) t.answered('daemon', path, body, json(answer));
    return step;
  };
  return { chain, mined, popped, t, daemon };
}

describe('a mining episode', () => {
  it('mines what the app waited for: its last height poll before stop_mining, not the overshoot', async () => {
    const { chain, mined, t, daemon } = track(100);
    expect(await daemon('/start_mining', { status: 'OK' })).toBe(false);
    chain.height = 104;
    expect(await daemon('/get_height', { height: 104 })).toBe(false);
    chain.height = 111;
    expect(await daemon('/get_height', { height: 111 })).toBe(false); // the app's loop ends here: it wanted ≤ 11
    chain.height = 265; // the miner goes on until stop_mining takes effect
    expect(await daemon('/stop_mining', { status: 'OK' })).toBe(false);
    chain.height = 265;
    expect(await daemon('/get_height', { height: 265 })).toBe(false); // after the stop: not what it waited for
    expect(await t.before('wallet:main', '/json_rpc', rpc('refresh'))).toBe(true);
    expect(mined).toEqual([{ blocks: 11, overshoot: 154, popped: true }]);
  });

  it("pops the overshoot before the app's next request goes on: the app goes on from the chain a replay has", async () => {
    const { chain, mined, popped, t, daemon } = track(100);
    await daemon('/start_mining', { status: 'OK' });
    chain.height = 102;
    await daemon('/get_height', { height: 102 });
    chain.height = 112;
    await daemon('/stop_mining', { status: 'OK' });
    expect(popped).toEqual([]);
    expect(await t.before('wallet:main', '/json_rpc', rpc('get_transfers'))).toBe(true);
    expect(popped).toEqual([10]);
    expect(chain.height).toBe(102);
    expect(mined).toEqual([{ blocks: 2, overshoot: 10, popped: true }]);
    // the next episode counts from there
    await daemon('/start_mining', { status: 'OK' });
    chain.height = 105;
    await daemon('/get_height', { height: 105 });
    await daemon('/stop_mining', { status: 'OK' });
    await t.finish();
    expect(mined.at(-1)).toEqual({ blocks: 3 });
  });

  it('a daemon that refuses the pop: the overshoot stays, said as not replayed', async () => {
    const { chain, mined, t, daemon } = track(100, async () => {
      throw new Error('pop_blocks refused');
    });
    await daemon('/start_mining', { status: 'OK' });
    chain.height = 102;
    await daemon('/get_height', { height: 102 });
    chain.height = 107;
    await daemon('/stop_mining', { status: 'OK' });
    await t.finish();
    expect(chain.height).toBe(107);
    expect(mined).toEqual([{ blocks: 2, overshoot: 5, popped: false }]);
  });

  it('reads the height from get_info, get_block_count and get_last_block_header too', () => {
    expect(polledHeight('/get_info', EMPTY, json({ height: 7, status: 'OK' }))).toBe(7);
    expect(polledHeight('/json_rpc', rpc('get_info'), json({ result: { height: 8 } }))).toBe(8);
    expect(polledHeight('/json_rpc', rpc('get_block_count'), json({ result: { count: 9 } }))).toBe(9);
    expect(
      polledHeight('/json_rpc', rpc('get_last_block_header'), json({ result: { block_header: { height: 9 } } })),
    ).toBe(10);
    expect(polledHeight('/json_rpc', rpc('get_block'), json({ result: { height: 9 } }))).toBeUndefined();
    expect(polledHeight('/get_height', EMPTY, Buffer.from('not json'))).toBeUndefined();
  });

  it('keeps what the chain gained when the app never polled the height, or popped its overshoot', async () => {
    const a = track(100);
    await a.daemon('/start_mining', { status: 'OK' });
    a.chain.height = 140;
    await a.daemon('/stop_mining', { status: 'OK' });
    await a.t.finish();
    expect(a.mined).toEqual([{ blocks: 40 }]);
    a.t.close();

    const b = track(100);
    await b.daemon('/start_mining', { status: 'OK' });
    b.chain.height = 130;
    await b.daemon('/get_height', { height: 130 });
    b.chain.height = 190;
    await b.daemon('/stop_mining', { status: 'OK' });
    b.chain.height = 120; // the app pops back to where it wanted to be
    await b.daemon('/pop_blocks', { height: 120 }, json({ nblocks: 70 }));
    await b.t.finish();
    expect(b.mined).toEqual([{ blocks: 20 }]);
  });

  it('two loops in a row are two counts, each what its app waited for', async () => {
    const { chain, mined, t, daemon } = track(100);
    for (const [polled, overshoot] of [
      [3, 50],
      [2, 7],
    ] as const) {
      await daemon('/start_mining', { status: 'OK' }); // settles the loop before: its overshoot popped
      const from = chain.height;
      chain.height = from + polled;
      await daemon('/get_height', { height: chain.height });
      chain.height += overshoot;
      await daemon('/stop_mining', { status: 'OK' });
    }
    await t.finish();
    expect(mined).toEqual([
      { blocks: 3, overshoot: 50, popped: true },
      { blocks: 2, overshoot: 7, popped: true },
    ]);
  });
});
