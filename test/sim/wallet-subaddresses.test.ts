// Subaddresses and accounts in the simulated wallet RPC, as recorded from salvium-wallet-rpc v1.1.3c
// (a wallet and a copy restored from its seed on the same testnet, 2026-11-26): detection within the
// lookahead window (50 accounts, 200 subaddresses past the created ones) without creating anything,
// payments between accounts and within one, pending balances, zero-amount change outputs.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  generateWallet,
  height,
  mineAcrossCarrot,
  mineTo,
  rpc,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type CliWallet,
  type SimDaemon,
  type SimWalletRpc,
} from '../helpers/sim.js';

const FAST = { SALTNET_SIM_MIN_BLOCK_MS: '0' };
const SAL1 = 100_000_000;
let dir: string;
let daemon: SimDaemon;
let alice: CliWallet;
let aliceRpc: SimWalletRpc;
let bobRpc: SimWalletRpc;
let copyRpc: SimWalletRpc;

const send = (port: number, dests: [string, number][], extra: Record<string, unknown> = {}): Promise<any> =>
  rpc(port, 'transfer', {
    destinations: dests.map(([address, amount]) => ({ address, amount, asset_type: 'SAL1' })),
    source_asset: 'SAL1',
    dest_asset: 'SAL1',
    tx_type: 3,
    ...extra,
  });
const mine = async (n: number): Promise<void> => {
  await mineTo(daemon.port, alice.carrot, (await height(daemon.port)) + n);
  for (const p of [aliceRpc.port, bobRpc.port, copyRpc.port]) await rpc(p, 'refresh');
};
const result = async (port: number, method: string, params?: unknown): Promise<any> => {
  const r = await rpc(port, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
  return r.result;
};

beforeAll(async () => {
  dir = tempDir('saltnet-wallet-subaddresses-');
  daemon = await startDaemon(dir, { env: FAST });
  alice = await generateWallet(join(dir, 'alice'), 'pw', daemon.port);
  await mineAcrossCarrot(daemon.port, alice, 1290);
  aliceRpc = await startWalletRpc(['--wallet-file', alice.path, '--password', 'pw'], daemon.port);
  bobRpc = await startWalletRpc(['--wallet-dir', join(dir, 'bob')], daemon.port);
  copyRpc = await startWalletRpc(['--wallet-dir', join(dir, 'copy')], daemon.port);
  await result(bobRpc.port, 'create_wallet', { filename: 'bob', password: '', language: 'English' });
  const seed = (await result(bobRpc.port, 'query_key', { key_type: 'mnemonic' })).key;
  const restore_height = await height(daemon.port);
  await result(copyRpc.port, 'restore_deterministic_wallet', { filename: 'copy', password: '', seed, restore_height });
  await mine(1);
}, 180_000);

afterAll(async () => {
  await stopAll();
  if (dir) cleanup(dir);
});

describe('the lookahead window', () => {
  it('detects payments to subaddresses never created, within 200 of an account and 50 accounts, and lists nothing new', async () => {
    for (let i = 0; i < 4; i++) await result(bobRpc.port, 'create_address', { count: 64 });
    await result(bobRpc.port, 'create_account', { label: 'third' });
    await result(bobRpc.port, 'create_account');
    await result(bobRpc.port, 'create_account');
    const sub = async (major: number, minor: number): Promise<string> =>
      (await result(bobRpc.port, 'get_address', { account_index: major, address_index: [minor] })).addresses[0].address;
    const [a150, a199, a200, a256, b30] = [
      await sub(0, 150),
      await sub(0, 199),
      await sub(0, 200),
      await sub(0, 256),
      await sub(3, 0),
    ];
    const sent = await send(aliceRpc.port, [
      [a150, SAL1],
      [a199, 2 * SAL1],
      [a200, 3 * SAL1],
      [a256, 4 * SAL1],
      [b30, 5 * SAL1],
    ]);
    expect(sent.result.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    await mine(1);
    // The copy knows only its primary address: 0/150, 0/199 and 3/0 are within its window, 0/200 and 0/256 not.
    const inn = (await result(copyRpc.port, 'get_transfers', { in: true, all_accounts: true })).in;
    expect(inn.map((e: any) => `${e.subaddr_index.major}/${e.subaddr_index.minor}`).sort()).toEqual([
      '0/150',
      '0/199',
      '3/0',
    ]);
    expect(inn.find((e: any) => e.subaddr_index.minor === 150)).toMatchObject({
      address: a150,
      amount: SAL1,
      payment_id: '0000000000000000',
    });
    // Nothing was created: one account, one address; account 3 is outside every account listing.
    expect((await result(copyRpc.port, 'get_address')).addresses).toHaveLength(1);
    expect((await result(copyRpc.port, 'get_accounts')).subaddress_accounts).toHaveLength(1);
    const balances = (await result(copyRpc.port, 'get_balance', { all_accounts: true })).balances[0];
    expect(balances.balance).toBe(3 * SAL1);
    expect(balances.per_subaddress.map((p: any) => [p.address_index, p.label, p.balance])).toEqual([
      [150, '', SAL1],
      [199, '', 2 * SAL1],
    ]);
    expect(
      (await result(copyRpc.port, 'incoming_transfers', { transfer_type: 'all', account_index: 3 })).transfers,
    ).toHaveLength(1);
    expect((await result(copyRpc.port, 'get_address_index', { address: a199 })).index).toEqual({
      major: 0,
      minor: 199,
    });
    expect((await rpc(copyRpc.port, 'get_address_index', { address: a200 })).error).toEqual({
      code: -2,
      message: "Address doesn't belong to the wallet",
    });
    // bob created them all: he sees all five.
    expect((await result(bobRpc.port, 'get_transfers', { in: true, all_accounts: true })).in).toHaveLength(5);
  }, 60_000);
});

describe('payments within the wallet', () => {
  it('counts a payment to another subaddress of the account while pending, and shows amount 0 once mined', async () => {
    await mine(10);
    const target = (await result(bobRpc.port, 'create_address')).address;
    const before = (await result(bobRpc.port, 'get_balance')).balances[0].balance;
    const sent = await send(bobRpc.port, [[target, SAL1 / 2]], { subaddr_indices: [150] });
    expect(sent.result).toMatchObject({ amount: SAL1 / 2, amounts_by_dest: { amounts: [SAL1 / 2] } });
    const pending = (await result(bobRpc.port, 'get_transfers', { pending: true })).pending[0];
    expect(pending).toMatchObject({
      amount: SAL1 / 2,
      subaddr_index: { major: 0, minor: 0 },
      subaddr_indices: [{ major: 0, minor: 150 }],
    });
    expect(pending.destinations).toEqual([{ address: target, amount: SAL1 / 2, asset_type: 'SAL1' }]);
    // The change (at 0/0) and the payment (at the new subaddress) count: only the fee is gone.
    expect((await result(bobRpc.port, 'get_balance')).balances[0].balance).toBe(before - sent.result.fee);
    await mine(1);
    const out = (await result(bobRpc.port, 'get_transfer_by_txid', { txid: sent.result.tx_hash })).transfer;
    expect(out).toMatchObject({ type: 'out', amount: 0, fee: sent.result.fee });
    expect(out.suggested_confirmations_threshold).toBeUndefined();
  }, 60_000);

  it("records a payment to another account as that account's incoming, and keeps a zero change output", async () => {
    await mine(10);
    const savings = (await result(bobRpc.port, 'get_address', { account_index: 3 })).address;
    const all = async (): Promise<bigint> => BigInt((await result(bobRpc.port, 'get_balance')).balances[0].balance);
    const before = await all();
    // Account 3 holds one output of 5 SAL1: sending it all less the fee leaves a zero change output.
    const fee = (await send(bobRpc.port, [[alice.carrot, SAL1]], { account_index: 3, do_not_relay: true })).result.fee;
    const sent = await send(bobRpc.port, [[(await result(bobRpc.port, 'get_address')).address, 5 * SAL1 - fee]], {
      account_index: 3,
    });
    expect(sent.result.fee).toBe(fee);
    // Pending: account 0 does not count a payment from account 3 yet.
    expect(await all()).toBe(before);
    await mine(1);
    const inn = (await result(bobRpc.port, 'get_transfers', { in: true })).in[0];
    expect(inn).toMatchObject({
      txid: sent.result.tx_hash,
      amount: 5 * SAL1 - fee,
      subaddr_index: { major: 0, minor: 0 },
    });
    expect(inn.payment_id).toMatch(/^[0-9a-f]{16}$/);
    expect(inn.payment_id).not.toBe('0000000000000000');
    const outputs = (await result(bobRpc.port, 'incoming_transfers', { transfer_type: 'available', account_index: 3 }))
      .transfers;
    expect(outputs).toEqual([
      expect.objectContaining({ amount: 0, tx_hash: sent.result.tx_hash, subaddr_index: { major: 3, minor: 0 } }),
    ]);
    expect(savings).toMatch(/^SC1Ts/);
  }, 60_000);
});

describe('sweeps and strict balances', () => {
  it('shares a sweep to the wallet itself with the self-send change output, a sweep elsewhere among the destinations', async () => {
    await mine(10);
    const own = (await result(bobRpc.port, 'get_address')).address;
    const from = { account_index: 0, subaddr_indices: [199], do_not_relay: true };
    // 0/199 holds one output of 2 SAL1: to the wallet's own address the destination gets half, the change the rest.
    const mine2 = (await result(bobRpc.port, 'sweep_all', { address: own, ...from })) as any;
    const total = 2 * SAL1 - mine2.fee_list[0];
    expect(mine2.amount_list).toEqual([Math.floor(total / 2) + (total % 2)]);
    const away = (await result(bobRpc.port, 'sweep_all', { address: alice.carrot, outputs: 2, ...from })) as any;
    const rest = 2 * SAL1 - away.fee_list[0];
    expect(away.amounts_by_dest_list[0].amounts).toEqual([Math.ceil(rest / 2), Math.floor(rest / 2)]);
  });

  it('counts an output a pending tx spends in the strict balance, not its change', async () => {
    const before = (await result(bobRpc.port, 'get_balance', { strict: true })).balances[0].balance;
    const sent = await send(bobRpc.port, [[alice.carrot, SAL1 / 10]], { subaddr_indices: [256] });
    expect(sent.result.fee).toBeGreaterThan(0);
    expect((await result(bobRpc.port, 'get_balance', { strict: true })).balances[0].balance).toBe(before);
    const loose = (await result(bobRpc.port, 'get_balance')).balances[0].balance;
    expect(loose).toBe(before - SAL1 / 10 - sent.result.fee);
  });
});
