// Token transfers in the simulated wallet RPC, as recorded on Salvium 1.1.3c (harness/sim/README.md,
// "Established on the real programs"): a ROLLUP paying the SAL1 fees in front of every token tx,
// the entries each side lists, the block order, and what a wallet without SAL1 is told.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  generateWallet,
  height,
  mineAcrossCarrot,
  mineTo,
  post,
  rpc,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type CliWallet,
  type SimDaemon,
  type SimWalletRpc,
} from '../helpers/sim.js';

const SAL1 = 100_000_000;
const FEE_1_IN_2_OUT = 520 * 2383;
let dir: string;
let daemon: SimDaemon;
let alice: CliWallet;
let aliceRpc: SimWalletRpc;
let bobRpc: SimWalletRpc;
let bob: string;

const send = (
  port: number,
  method: string,
  to: string,
  amount: number,
  asset: string,
  extra: Record<string, unknown> = {},
): Promise<any> =>
  rpc(port, method, {
    destinations: [{ address: to, amount, asset_type: asset }],
    source_asset: asset,
    dest_asset: asset,
    tx_type: 3,
    ...extra,
  });
const mine = async (n: number): Promise<void> => {
  await mineTo(daemon.port, alice.carrot, (await height(daemon.port)) + n);
  for (const p of [aliceRpc.port, bobRpc.port]) await rpc(p, 'refresh');
};
const balance = async (port: number, asset: string): Promise<any> =>
  (await rpc(port, 'get_balance', { asset_type: asset })).result?.balances?.[0];

beforeAll(async () => {
  dir = tempDir('saltnet-wallet-tokens-');
  daemon = await startDaemon(dir, { env: { SALTNET_SIM_MIN_BLOCK_MS: '0' } });
  alice = await generateWallet(join(dir, 'alice'), 'pw', daemon.port);
  await mineTo(daemon.port, alice.cn, 900);
  await mineAcrossCarrot(daemon.port, alice, 1210);
  aliceRpc = await startWalletRpc(
    ['--wallet-file', alice.path, '--password', 'pw', '--log-file', join(dir, 'alice-rpc.log')],
    daemon.port,
  );
  bobRpc = await startWalletRpc(
    ['--wallet-dir', join(dir, 'wallets'), '--log-file', join(dir, 'bob-rpc.log')],
    daemon.port,
  );
  expect(await rpc(bobRpc.port, 'create_wallet', { filename: 'bob', password: '', language: 'English' })).toMatchObject(
    { result: {} },
  );
  bob = (await rpc(bobRpc.port, 'get_address')).result.addresses[0].address_carrot;
  const created = (await rpc(aliceRpc.port, 'create_token', { ticker: 'TOK1', supply: 100, name: 'token one' })).result
    .tx_hash_list;
  expect(created).toHaveLength(1);
  // It pays no one: its change is its one output, as v1.1.3c's vout lists it.
  const got = await post(daemon.port, '/get_transactions', { txs_hashes: created, decode_as_json: true });
  const ct = JSON.parse((got.json as any).txs[0].as_json);
  expect(ct.vout).toHaveLength(1);
  // Its own fields, as v1.1.3c lists them: where its protocol tx returns to, and the token's metadata.
  expect(ct).not.toHaveProperty('return_address_list');
  expect(Object.keys(ct.protocol_tx_data)).toEqual([
    'version',
    'return_address',
    'return_pubkey',
    'return_view_tag',
    'return_anchor_enc',
  ]);
  expect(ct.token_metadata).toMatchObject({
    version: 1,
    asset_type: 'TOK1',
    token: { sal_token: { version: 1, supply: 100, size: 0, name: 'token one', url: '' } },
  });
  await mine(61);
}, 120_000);

afterAll(async () => {
  await stopAll();
  if (dir) cleanup(dir);
});

describe('token transfers', () => {
  it('refuses too much with print_money amounts, and transfer with -18', async () => {
    expect((await send(aliceRpc.port, 'transfer_split', bob, 101 * SAL1, 'salTOK1')).error).toEqual({
      code: -4,
      message: 'Not enough money in all inputs (100.00000000) to fund minimum output sum (101.00000000)',
    });
    expect((await send(aliceRpc.port, 'transfer', bob, 15 * SAL1, 'salTOK1')).error).toEqual({
      code: -18,
      message: 'Transaction would be too large.  try /transfer_split.',
    });
  });

  it('sends a ROLLUP first and the token second; the sender pays both fees in SAL1', async () => {
    const before = (await balance(aliceRpc.port, 'SAL1')).balance;
    const r = (await send(aliceRpc.port, 'transfer_split', bob, 15 * SAL1, 'salTOK1')).result;
    expect(r).toMatchObject({ amount_list: [0, 15 * SAL1], amounts_by_dest_list: [{}, { amounts: [15 * SAL1] }] });
    const [rollupFee, tokenFee] = r.fee_list as [number, number];
    const txs = (await post(daemon.port, '/get_transactions', { txs_hashes: r.tx_hash_list, decode_as_json: true }))
      .json as any;
    // The ROLLUP's change is its one output; the token tx pays bob and its change.
    const [rollup, token] = txs.txs.map((t: any) => JSON.parse(t.as_json));
    expect([rollup.vout.length, token.vout.length]).toEqual([1, 2]);
    // The ROLLUP names the tx it pays for: its first key image and its fee.
    expect(rollup.layer2_rollup_data.txs).toEqual([
      {
        tx_prefix_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        first_key_image: [...token.vin.map((i: any) => i.key.k_image)].sort()[0],
        tx_fee: tokenFee,
      },
    ]);
    expect([rollup.return_address, rollup.return_pubkey]).toEqual(['0'.repeat(64), '0'.repeat(64)]);
    // The token tx's fee is nominal (its inputs are all token): the ROLLUP burns it.
    expect(tokenFee).toBe(FEE_1_IN_2_OUT);
    expect((await balance(aliceRpc.port, 'SAL1')).balance).toBe(before - rollupFee - tokenFee);
    expect(await balance(aliceRpc.port, 'salTOK1')).toMatchObject({
      balance: 85 * SAL1,
      unlocked_balance: 0,
      blocks_to_unlock: 0,
    });
    const pending = (await rpc(aliceRpc.port, 'get_transfers', { pending: true })).result.pending;
    // As the real wallet lists them: the token (recorded last) first.
    expect(pending.map((e: any) => e.txid)).toEqual([r.tx_hash_list[1], r.tx_hash_list[0]]);
    expect(pending[0]).toMatchObject({
      asset_type: 'salTOK1',
      amount: 15 * SAL1,
      fee: 0,
      destinations: [{ address: bob, amount: 15 * SAL1, asset_type: 'salTOK1' }],
    });
    expect(pending[1]).toMatchObject({
      asset_type: 'SAL1',
      amount: 0,
      fee: rollupFee + tokenFee,
      payment_id: '0'.repeat(16),
    });
    expect(pending[1]).not.toHaveProperty('destinations');
    await rpc(bobRpc.port, 'refresh');
    const pool = (await rpc(bobRpc.port, 'get_transfers', { pool: true })).result.pool;
    expect(pool).toEqual([
      expect.objectContaining({
        txid: r.tx_hash_list[1],
        asset_type: '',
        amount: 15 * SAL1,
        fee: tokenFee,
        payment_id: '0'.repeat(16),
      }),
    ]);
  });

  it('the token is mined one block after its ROLLUP; the receiver sees its fee', async () => {
    await mine(3);
    const out = (await rpc(aliceRpc.port, 'get_transfers', { out: true })).result.out;
    const [token, rollup] = out.filter((e: any) => e.asset_type === 'salTOK1' || e.amount === 0).slice(0, 2);
    expect(token).toMatchObject({ asset_type: 'salTOK1', fee: 0 });
    expect(rollup).toMatchObject({ asset_type: 'SAL1', amount: 0 });
    expect(token.height).toBe(rollup.height + 1);
    const inn = (await rpc(bobRpc.port, 'get_transfers', { in: true })).result.in;
    expect(inn).toEqual([
      expect.objectContaining({
        type: 'in',
        asset_type: 'salTOK1',
        amount: 15 * SAL1,
        fee: FEE_1_IN_2_OUT,
        payment_id: '0'.repeat(16),
        height: token.height,
      }),
    ]);
  });

  it('a wallet that never held SAL1 cannot pay a ROLLUP; sweep_all of a token sends it whole', async () => {
    await mine(10);
    expect((await balance(bobRpc.port, 'salTOK1')).unlocked_balance).toBe(15 * SAL1);
    const noSal1 = { code: -4, message: 'invalid asset_type specified to get_transfers' };
    expect((await send(bobRpc.port, 'transfer_split', alice.carrot, SAL1, 'salTOK1')).error).toEqual(noSal1);
    expect((await rpc(bobRpc.port, 'sweep_all', { address: alice.carrot, asset_type: 'salTOK1' })).error).toEqual(
      noSal1,
    );
    const swept = (await rpc(aliceRpc.port, 'sweep_all', { address: bob, asset_type: 'salTOK1' })).result;
    expect(swept).toMatchObject({ amount_list: [0, 85 * SAL1], amounts_by_dest_list: [{}, { amounts: [85 * SAL1] }] });
    expect(swept.tx_hash_list).toHaveLength(2);
    expect((await rpc(aliceRpc.port, 'get_balance', { asset_type: 'salTOK1' })).result).toEqual({});
  });

  it("a request's ROLLUP pays for its first token tx alone: of a transfer_split of two, the second stays in the pool", async () => {
    expect((await send(aliceRpc.port, 'transfer', bob, 5 * SAL1, 'SAL1')).error).toBeUndefined();
    await mine(11);
    // Bob splits his tokens into outputs of 10 first, so that both token txs below find inputs whichever ones the
    // first takes (one input or two, at random, where one can pay).
    const own = (await rpc(bobRpc.port, 'get_address')).result.address;
    const split = Array.from({ length: 7 }, () => ({ address: own, amount: 10 * SAL1, asset_type: 'salTOK1' }));
    const splitting = await rpc(bobRpc.port, 'transfer_split', {
      destinations: split,
      source_asset: 'salTOK1',
      dest_asset: 'salTOK1',
      tx_type: 3,
    });
    expect(splitting.result.tx_hash_list).toHaveLength(2);
    await mine(12);
    const destinations = Array.from({ length: 8 }, () => ({
      address: alice.carrot,
      amount: SAL1,
      asset_type: 'salTOK1',
    }));
    const r = await rpc(bobRpc.port, 'transfer_split', {
      destinations,
      source_asset: 'salTOK1',
      dest_asset: 'salTOK1',
      tx_type: 3,
    });
    const [rollup, first, second] = r.result.tx_hash_list as string[];
    expect(r.result.tx_hash_list).toHaveLength(3);
    await mine(5);
    const where = async (txid: string): Promise<boolean> =>
      ((await post(daemon.port, '/get_transactions', { txs_hashes: [txid] })).json as any).txs[0].in_pool;
    expect(await where(rollup!)).toBe(false);
    expect(await where(first!)).toBe(false);
    expect(await where(second!)).toBe(true);
    const pending = (await rpc(bobRpc.port, 'get_transfers', { pending: true })).result.pending;
    expect(pending.map((e: any) => e.txid)).toEqual([second]);
  });
});
