// Mining and syncing across a delayed link (sim, two nodes): `mine` stops the miner's node exactly at its target
// whatever the link's delay, and says so when its blocks cannot reach the other node within the wait; once the delay is
// lowered, `sync` brings both nodes onto one top, and a `sync` that cannot settle ends when its caller gives up.
// Deadlines are scaled down (0.1: the waits are 12 s) so that a delay of 20 s outlasts them; the delay that must be
// waited out is 1 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetTimeoutFactor, setTimeoutFactor } from '../../harness/common/timeouts.js';
import { startTestnet, type Testnet } from '../../harness/testnet/testnet.js';
import { cleanup, tempDir } from '../helpers/sim.js';

describe('a delayed link (sim, two nodes)', { timeout: 300_000 }, () => {
  let t: Testnet;
  let cache: string;
  const heights = (): Promise<number[]> => Promise.all(t.nodes.map((n) => n.client.height()));

  beforeAll(async () => {
    cache = tempDir('saltnet-link-delay-');
    t = await startTestnet({
      backend: 'sim',
      nodes: 2,
      progress: 'none',
      log: () => undefined,
      trapSignals: false,
      cacheDir: cache,
    });
    setTimeoutFactor(0.1);
  }, 300_000);
  afterAll(async () => {
    resetTimeoutFactor();
    await t?.stop();
    cleanup(cache);
  });

  it('mine stops n0 at its target and says why n1 is behind when the delay outlasts the wait', async () => {
    const [start] = await heights();
    await t.setLink('n0', 'n1', { delayMs: 20_000 });
    await expect(t.mine(1)).rejects.toThrow(
      `mine: n0 mined to ${start! + 1}, but the blocks did not reach the rest of its group: the nodes did not come to one top block within 12 s: n0 at ${start! + 1}`,
    );
    await expect(t.mine(1)).rejects.toThrow(/the link n0-n1 \(20000 ms\) holds every message that long on its way/);
    expect((await heights())[0]).toBe(start! + 2);
  });

  it('sync brings n1 onto n0 once the delay is lowered, and mine waits out a short delay', async () => {
    const [top] = await heights();
    await t.setLink('n0', 'n1', { delayMs: 0 });
    await t.sync();
    expect(await heights()).toEqual([top, top]);
    await t.setLink('n0', 'n1', { delayMs: 1000 });
    expect(await t.mine(1)).toBe(top! + 1);
    expect(await heights()).toEqual([top! + 1, top! + 1]);
    expect(await t.mine({ blocks: 3 })).toBe(top! + 4);
    expect(await heights()).toEqual([top! + 4, top! + 4]);
  });

  it('sync gives up when its caller does (two chains of one length never settle)', async () => {
    await t.setLink('n0', 'n1', { delayMs: 0 });
    await t.partition([['n0'], ['n1']]);
    await t.mine(1, { node: 'n0' });
    await t.mine(1, { node: 'n1' });
    await t.heal();
    const giveUp = new AbortController();
    const synced = t.sync({ signal: giveUp.signal });
    giveUp.abort(new Error('the client went away'));
    await expect(synced).rejects.toThrow('the client went away');
  });
});
