// The simulated daemon's pool and its raw-byte answers, with a transaction sent as the simulator's
// own hex. The layouts are recorded from salviumd v1.1.3c: get_txpool_backlog's `backlog` holds per tx
// its weight, fee and receive time less now (a uint64: it wraps below zero) as 24 little-endian bytes;
// /get_transaction_pool_hashes.bin's `tx_hashes` the 32-byte hashes; get_output_distribution with
// `binary` (its default) the counts as 64-bit little-endian numbers, with `compress` as varints.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, encode, toHex } from '../../harness/sim/chain/codec.js';
import { TxType } from '../../harness/sim/chain/constants.js';
import type { Block, Tx } from '../../harness/sim/chain/types.js';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';
import {
  cleanup,
  height,
  mineAcrossCarrot,
  mineTo,
  post,
  rpc,
  startDaemon,
  stopAll,
  tempDir,
  type SimDaemon,
} from '../helpers/sim.js';

const alice = walletFromSeed(new Uint8Array(32).fill(9), 'testnet');

let dir: string;
let daemon: SimDaemon;
let tx: Tx;

/** The raw bytes of a JSON string field of an answer (latin1: one char per byte), unescaped as epee escapes. */
async function rawField(path: string, body: unknown, field: string): Promise<Buffer> {
  const res = await fetch(`http://127.0.0.1:${daemon.port}${path}`, { method: 'POST', body: JSON.stringify(body) });
  const text = Buffer.from(await res.arrayBuffer()).toString('latin1');
  const m = new RegExp(`"${field}": "((?:[^"\\\\]|\\\\.)*)"`).exec(text);
  if (!m) throw new Error(`no ${field} in ${text}`);
  const esc: Record<string, string> = {
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '"': '"',
    '\\': '\\',
    '/': '/',
  };
  return Buffer.from(
    m[1]!.replace(/\\(.)/g, (_, c: string) => esc[c] ?? c),
    'latin1',
  );
}

/** A tx spending block 1130's coinbase output to alice (two outputs), as the simulated wallet would send it. */
async function spendCoinbase(): Promise<Tx> {
  const res = (await post(daemon.port, '/getblocks.bin', { start_height: 1130, count: 1 })).json;
  const block = decode<Block[]>(res.blocks_json as string)[0]!;
  const out = block.minerTx.outputs[0]!;
  const fee = 1239160n;
  const half = (out.amount - fee) / 2n;
  const txid = 'ab'.repeat(32);
  return {
    txid,
    type: TxType.TRANSFER,
    inputs: [{ outputId: out.id, keyImage: 'cd'.repeat(32), amount: out.amount, asset: 'SAL1' }],
    outputs: [half, out.amount - fee - half].map((amount, i) => ({
      id: `${txid}:${i}`,
      address: alice.carrot.address,
      amount,
      asset: 'SAL1',
    })),
    fee,
    burnt: 0n,
    sourceAsset: 'SAL1',
    destAsset: 'SAL1',
    paymentId: '0'.repeat(16),
    weight: 2382,
    timestamp: Math.floor(Date.now() / 1000),
    unlockTime: 0,
  };
}

beforeAll(async () => {
  dir = tempDir('saltnet-pool-');
  daemon = await startDaemon(dir);
  await mineAcrossCarrot(daemon.port, { cn: alice.cn.address, carrot: alice.carrot.address }, 1201);
  tx = await spendCoinbase();
  const sent = (await post(daemon.port, '/send_raw_transaction', { tx_as_hex: toHex(encode(tx)) })).json;
  expect(sent.status, JSON.stringify(sent)).toBe('OK');
}, 120_000);
afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('the pool with one transaction', () => {
  it('get_txpool_backlog: weight, fee and receive time less now, 24 bytes a tx', async () => {
    const b = await rawField('/json_rpc', { jsonrpc: '2.0', id: 0, method: 'get_txpool_backlog' }, 'backlog');
    expect(b.length).toBe(24);
    expect(b.readBigUInt64LE(0)).toBe(2382n);
    expect(b.readBigUInt64LE(8)).toBe(1239160n);
    // Received a moment ago: 0, or a few seconds below zero, wrapped.
    const age = b.readBigUInt64LE(16);
    expect(age === 0n || age > 2n ** 63n).toBe(true);
  });

  it('/get_transaction_pool_hashes.bin: the 32 bytes of its hash; the text form the hex', async () => {
    expect((await rawField('/get_transaction_pool_hashes.bin', {}, 'tx_hashes')).toString('hex')).toBe(tx.txid);
    expect((await post(daemon.port, '/get_transaction_pool_hashes', {})).json.tx_hashes).toEqual([tx.txid]);
  });

  it('/get_transaction_pool: the tx, its decoded JSON, and the key image it spends', async () => {
    const pool = (await post(daemon.port, '/get_transaction_pool', {})).json;
    expect(pool.spent_key_images).toEqual([{ id_hash: 'cd'.repeat(32), txs_hashes: [tx.txid] }]);
    expect(pool.transactions[0]).toMatchObject({ id_hash: tx.txid, fee: 1239160, blob_size: 2382, relayed: true });
    expect(JSON.parse(pool.transactions[0].tx_json)).toMatchObject({
      version: 5,
      type: 3,
      vin: [{ key: { k_image: 'cd'.repeat(32) } }],
    });
  });

  it('/get_transaction_pool_stats: one tx, no histogram', async () => {
    const s = (await post(daemon.port, '/get_transaction_pool_stats', {})).json.pool_stats;
    expect(s).toMatchObject({ txs_total: 1, bytes_total: 2382, bytes_min: 2382, bytes_med: 2382, fee_total: 1239160 });
    expect(s).not.toHaveProperty('histo');
  });

  it('/get_transactions: in the pool, relayed, no block fields', async () => {
    const e = (await post(daemon.port, '/get_transactions', { txs_hashes: [tx.txid], split: true })).json.txs[0];
    expect(e).toMatchObject({ in_pool: true, relayed: true, as_hex: '', tx_hash: tx.txid });
    expect(e.pruned_as_hex).toMatch(/^[0-9a-f]+$/);
    expect(e).not.toHaveProperty('block_height');
  });
});

describe('get_output_distribution in binary', () => {
  const ask = (extra: Record<string, unknown>) =>
    rawField(
      '/json_rpc',
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'get_output_distribution',
        params: { amounts: [0], rct_asset_type: 'SAL1', from_height: 1190, ...extra },
      },
      extra.compress ? 'compressed_data' : 'distribution',
    );

  it('64-bit little-endian counts by default, varints with compress: the numbers binary: false gives', async () => {
    const plain = (
      await rpc(daemon.port, 'get_output_distribution', {
        amounts: [0],
        rct_asset_type: 'SAL1',
        from_height: 1190,
        binary: false,
      })
    ).result.distributions[0].distribution as number[];
    expect(plain).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3]);
    const b = await ask({});
    expect(Array.from({ length: b.length / 8 }, (_, i) => Number(b.readBigUInt64LE(i * 8)))).toEqual(plain);
    expect([...(await ask({ compress: true }))]).toEqual(plain);
  });
});

describe('flushing', () => {
  it('relay_tx knows the tx; flush_txpool takes it out', async () => {
    expect((await rpc(daemon.port, 'relay_tx', { txids: [tx.txid] })).result.status).toBe('OK');
    expect((await rpc(daemon.port, 'flush_txpool', { txids: [tx.txid, 'zz'] })).result.status).toBe(
      'Failed to parse some of the txids',
    );
    expect((await post(daemon.port, '/get_transaction_pool_hashes', {})).json).not.toHaveProperty('tx_hashes');
    expect((await rpc(daemon.port, 'relay_tx', { txids: [tx.txid] })).error).toEqual({
      code: -5,
      message: `transaction not found in pool: ${tx.txid}`,
    });
  });
});

describe('a daemon killed', () => {
  const restart = async (): Promise<void> => {
    await daemon.stop('SIGKILL');
    daemon = await startDaemon(dir, { port: daemon.port, zmqPort: daemon.zmqPort });
  };
  const poolHashes = async (): Promise<string[]> =>
    (await post(daemon.port, '/get_transaction_pool_hashes', {})).json.tx_hashes ?? [];

  it('keeps a transaction its pool took since the pool was last saved whole, and not once a block took it', async () => {
    const sent = (await post(daemon.port, '/send_raw_transaction', { tx_as_hex: toHex(encode(tx)) })).json;
    expect(sent.status, JSON.stringify(sent)).toBe('OK');
    await restart();
    expect(await poolHashes()).toEqual([tx.txid]);
    await mineTo(daemon.port, alice.carrot.address, (await height(daemon.port)) + 1);
    expect(await poolHashes()).toEqual([]);
    await restart();
    expect(await poolHashes()).toEqual([]);
  });
});
