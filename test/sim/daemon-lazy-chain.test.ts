// The simulated daemon answers before its chain has loaded (daemon/loading.ts): what it answers from the last block on
// file, what waits for the chain, and that a daemon stopped before its chain loaded loses nothing on disk.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mineBlock } from '../../harness/sim/chain/build.js';
import { TESTNET_VERSION, TxType } from '../../harness/sim/chain/constants.js';
import { encode } from '../../harness/sim/chain/codec.js';
import { emptyTx } from '../../harness/sim/chain/ledger.js';
import { openChain, POOL_FILE } from '../../harness/sim/chain/store.js';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';
import { cleanup, freePort, post, spawnSim, stopAll, tempDir, waitFor, type Proc } from '../helpers/sim.js';

const alice = walletFromSeed(new Uint8Array(32).fill(7), 'testnet');
const BLOCKS = 40;

/** A daemon data dir holding BLOCKS blocks after genesis; the top block's hash. */
function chainDir(dir: string): { top: string; lmdb: string } {
  const lmdb = join(dir, 'daemon', 'testnet', String(TESTNET_VERSION), 'lmdb');
  const { ledger, store } = openChain(lmdb);
  for (let i = 0; i < BLOCKS; i++) store.appendBlock(mineBlock(ledger, alice.cn.address, 1_700_000_000 + i, 1n).block);
  return { top: ledger.blocks[BLOCKS]!.hash, lmdb };
}

/** The daemon on `dir`, once it answers get_height; it loads its chain only when a request needs it. */
async function daemonOn(dir: string): Promise<{ port: number; p: Proc }> {
  const port = await freePort();
  const p = spawnSim(
    'salviumd',
    [
      '--testnet',
      '--offline',
      '--non-interactive',
      '--data-dir',
      join(dir, 'daemon'),
      '--rpc-bind-port',
      String(port),
      '--no-zmq',
      '--log-file',
      join(dir, 'daemon.log'),
    ],
    { env: { SALTNET_SIM_CHAIN_LOAD_DELAY_MS: '600000' } },
  );
  await waitFor('get_height', async () => (await post(port, '/get_height', {})).json?.status === 'OK');
  return { port, p };
}

describe('a simulated daemon whose chain loads behind its start', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(async () => {
    await stopAll();
    cleanup(dir);
  });

  it('answers the height, a refresh from the top and the pool at once, and everything else once loaded', async () => {
    const d = join(dir, 'answers');
    const { top } = chainDir(d);
    const { port } = await daemonOn(d);
    expect((await post(port, '/get_height', {})).json).toMatchObject({ height: BLOCKS + 1, hash: top, status: 'OK' });
    const fromTop = (await post(port, '/getblocks.bin', { start_height: BLOCKS + 1 })).json;
    expect(fromTop).toMatchObject({ blocks_json: '[]', current_height: BLOCKS + 1 });
    expect((await post(port, '/get_transaction_pool', {})).json?.status).toBe('OK');
    // These need the chain: they wait for it (and start its load).
    const all = (await post(port, '/getblocks.bin', { start_height: 0 })).json;
    expect((JSON.parse(String(all?.blocks_json)) as unknown[]).length).toBe(BLOCKS + 1);
    const info = (await post(port, '/json_rpc', { jsonrpc: '2.0', id: 0, method: 'get_info' })).json;
    expect(info?.result).toMatchObject({ height: BLOCKS + 1, top_block_hash: top });
  });

  it('stopped before its chain loaded, leaves the saved pool as it was', async () => {
    const d = join(dir, 'pool');
    const { lmdb } = chainDir(d);
    const tx = emptyTx(TxType.TRANSFER, 'ab'.repeat(32), 1_700_000_000);
    const saved = encode({ txs: [tx], arrival: [[tx.txid, 1_700_000_000]], kept: [] });
    writeFileSync(join(lmdb, POOL_FILE), saved);
    const { p } = await daemonOn(d);
    expect((await p.stop('SIGTERM')).exitCode).toBe(0);
    expect(readFileSync(join(lmdb, POOL_FILE), 'utf8')).toBe(saved);
  });
});
