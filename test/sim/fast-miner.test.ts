// The simulated miner's default pace (`fast`): its first block at /start_mining, then one more for each request that
// asks where the chain stands once its top block has been told to a client, and one on a timer when none comes (off
// here: SALTNET_SIM_MIN_BLOCK_MS of a minute). So a client that polls the height while it mines stops the miner at
// the height it waits for, however slow its stop is to come.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, height, post, startDaemon, stopAll, tempDir, waitFor, type SimDaemon } from '../helpers/sim.js';
import { walletFromSeed } from '../../harness/sim/crypto/index.js';

const ADDRESS = walletFromSeed('11'.repeat(32), 'testnet').cn.address;

let root: string;
let daemon: SimDaemon;
beforeAll(async () => {
  root = tempDir('saltnet-fast-miner-');
  daemon = await startDaemon(root, { env: { SALTNET_SIM_MIN_BLOCK_MS: '60000' } });
});
afterAll(async () => {
  await stopAll();
  if (root) cleanup(root);
});

const start = async (): Promise<void> => {
  const r = await post(daemon.port, '/start_mining', { miner_address: ADDRESS, threads_count: 1 });
  expect(r.json.status).toBe('OK');
};
const stop = async (): Promise<void> => void (await post(daemon.port, '/stop_mining', {}));

/** Poll /get_height every millisecond, as a mining client does, until the chain is above `h`; the height seen. */
const pollAbove = (h: number): Promise<number> =>
  waitFor(
    `a height above ${h}`,
    async () => {
      const now = await height(daemon.port);
      return now > h && now;
    },
    10_000,
    1,
  );

describe('the simulated fast miner', () => {
  it('stops at the block a polling client waits for: the poll that tells it makes no more', async () => {
    const h0 = await height(daemon.port);
    await start();
    expect(await pollAbove(h0)).toBe(h0 + 1);
    // The stop comes late, as from a busy client: the miner found nothing meanwhile.
    await new Promise((r) => setTimeout(r, 300));
    await stop();
    expect(await height(daemon.port)).toBe(h0 + 1);
  });

  it('finds one more block for a request that comes once its top block was told', async () => {
    const h0 = await height(daemon.port);
    await start();
    expect(await pollAbove(h0)).toBe(h0 + 1);
    // Another client asks (as a wallet or an explorer does): the top was told, so the miner goes on.
    expect((await post(daemon.port, '/get_info', {})).json.status).toBe('OK');
    expect(await pollAbove(h0 + 1)).toBe(h0 + 2);
    await stop();
    expect(await height(daemon.port)).toBe(h0 + 2);
  });

  it('mines as fast as a client polls: each new height told, the next request finds a block', async () => {
    const h0 = await height(daemon.port);
    await start();
    let h = h0;
    while (h < h0 + 50) h = await pollAbove(h);
    await stop();
    expect(await height(daemon.port)).toBeGreaterThanOrEqual(h0 + 50);
  });
});
