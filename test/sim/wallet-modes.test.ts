// Wallets made from keys, passwords and background sync in the simulated wallet RPC, as recorded from
// salvium-wallet-rpc v1.1.3c (2026-11-26, 2026-11-30): generate_from_keys keeps the CN keys and address it is
// given and, from a CN address, sets up no Carrot keys (its Carrot address is of zero keys); from a Carrot address
// it takes the view key as the view-balance secret s_vb, with CN keys of zero; a watch-only wallet refuses its
// secrets; change_wallet_password checks the old one; while a wallet syncs in the background, the commands that
// need its spend key answer -52.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cleanup,
  mineTo,
  rpc,
  startDaemon,
  startWalletRpc,
  stopAll,
  tempDir,
  type SimWalletRpc,
} from '../helpers/sim.js';

/** What v1.1.3c's get_address answers as the Carrot address of a wallet generated from keys. */
const ZERO_CARROT =
  'SC1TopfTYQX11111111111111111111111111111111111111111111111111111111111111111111111111111111116YfJCN';
const SYNCING = {
  code: -52,
  message: 'This command is disabled while background syncing. Stop background syncing to use this command.',
};

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'wallets');
let dir: string;
let daemonPort: number;
let w: SimWalletRpc;
let keys: { address: string; spendkey: string; viewkey: string };

beforeAll(async () => {
  dir = tempDir('saltnet-wallet-modes-');
  const daemon = await startDaemon(dir, { env: { SALTNET_SIM_MIN_BLOCK_MS: '0' } });
  daemonPort = daemon.port;
  w = await startWalletRpc(['--wallet-dir', join(dir, 'wallets')], daemon.port);
  await rpc(w.port, 'create_wallet', { filename: 'source', password: 'pw', language: 'English' });
  const key = async (key_type: string): Promise<string> => (await rpc(w.port, 'query_key', { key_type })).result.key;
  const address = (await rpc(w.port, 'get_address')).result.addresses[0].address_cn;
  keys = { address, spendkey: await key('spend_key'), viewkey: await key('view_key') };
}, 120_000);

afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('generate_from_keys', () => {
  it('checks its fields in order', async () => {
    expect((await rpc(w.port, 'generate_from_keys', {})).error).toEqual({
      code: -1,
      message: "field 'viewkey' is mandatory. Please provide a view key you want to restore from.",
    });
    const bad = (p: object): Promise<any> =>
      rpc(w.port, 'generate_from_keys', { filename: 'g', ...keys, ...p }).then((r) => r.error);
    expect(await bad({ address: '' })).toEqual({
      code: -1,
      message: "field 'address' is mandatory. Please provide a public address.",
    });
    expect(await bad({ filename: 'a/b' })).toEqual({ code: -1, message: 'Invalid filename' });
    expect(await bad({ filename: 'source' })).toEqual({ code: -1, message: 'Wallet already exists.' });
    expect(await bad({ address: 'bogus' })).toEqual({ code: -1, message: 'Failed to parse public address' });
    expect(await bad({ viewkey: 'zz' })).toEqual({ code: -1, message: 'Failed to parse view key secret key' });
    expect(await bad({ spendkey: 'zz' })).toEqual({ code: -1, message: 'Failed to parse spend key secret key' });
    expect(await bad({ language: 'Klingon' })).toEqual({
      code: -1,
      message: 'The specified seed language is invalid.',
    });
  });

  it('keeps the CN keys it is given, with a Carrot address of zero keys and no seed', async () => {
    const r = await rpc(w.port, 'generate_from_keys', { filename: 'full', password: 'p', ...keys });
    expect(r.result).toEqual({ address: keys.address, info: 'Wallet has been generated successfully.' });
    const a = (await rpc(w.port, 'get_address')).result.addresses[0];
    expect(a).toMatchObject({ address_cn: keys.address, address_carrot: ZERO_CARROT });
    expect((await rpc(w.port, 'query_key', { key_type: 'spend_key' })).result.key).toBe(keys.spendkey);
    expect((await rpc(w.port, 'query_key', { key_type: 'mnemonic' })).error).toEqual({
      code: -1,
      message: 'Failed to get seed.',
    });
  });

  it('makes a watch-only wallet without the spend key, which refuses its secrets', async () => {
    const { spendkey: _, ...viewOnly } = keys;
    const r = await rpc(w.port, 'generate_from_keys', { filename: 'watch', password: 'p', ...viewOnly });
    expect(r.result.info).toBe('Watch-only wallet has been generated successfully.');
    const q = (key_type: string): Promise<any> => rpc(w.port, 'query_key', { key_type });
    expect((await q('spend_key')).error).toEqual({
      code: -29,
      message: 'The wallet is watch-only. Cannot retrieve spend key.',
    });
    expect((await q('mnemonic')).error).toEqual({
      code: -29,
      message: 'The wallet is watch-only. Cannot retrieve seed.',
    });
    expect((await q('view_key')).result.key).toBe(keys.viewkey);
    expect((await q('s_view_balance')).result.key).toBe('0'.repeat(64));
    expect((await rpc(w.port, 'describe_transfer', { unsigned_txset: '00' })).error).toEqual({
      code: -29,
      message: 'command not supported by watch-only wallet',
    });
    expect((await rpc(w.port, 'setup_background_sync', { background_sync_type: 'off' })).error).toEqual({
      code: -29,
      message: 'Watch-only wallet cannot enable background sync',
    });
  });
});

describe('a view-only wallet of a CN address', () => {
  // As salvium-wallet-rpc v1.1.3c did on a chain below height 1100 (2026-11-30): main's view-only wallet (its CN
  // address and query_key view_key) counted 420534532706 after main spent an output, main 395791248672: the spent
  // output (24743284034) still counted, the change of the spend counted too. It knows no key image, so no spend.
  it('counts all its address received, change included, and none of its spends', async () => {
    await rpc(w.port, 'create_wallet', { filename: 'payer', password: '', language: 'English' });
    const payer = (await rpc(w.port, 'get_address')).result.addresses[0].address_cn as string;
    const viewkey = (await rpc(w.port, 'query_key', { key_type: 'view_key' })).result.key as string;
    // SAL1 from height 815 (HF6); its first coinbases unlocked 60 blocks later.
    await mineTo(daemonPort, payer, 900);
    await rpc(w.port, 'refresh');
    const sent = await rpc(w.port, 'transfer', {
      destinations: [{ address: keys.address, amount: 100_000_000, asset_type: 'SAL1' }],
      source_asset: 'SAL1',
      dest_asset: 'SAL1',
      tx_type: 3,
    });
    expect(sent.error, JSON.stringify(sent.error)).toBeUndefined();
    await mineTo(daemonPort, keys.address, 902);
    await rpc(w.port, 'refresh');
    const balance = async (): Promise<bigint> => {
      const r = (await rpc(w.port, 'get_balance', { all_assets: true })).result;
      return BigInt(r.balances.find((b: { asset_type: string }) => b.asset_type === 'SAL1').balance);
    };
    const own = await balance();
    const all = (await rpc(w.port, 'incoming_transfers', { transfer_type: 'all' })).result.transfers as {
      amount: number;
      spent: boolean;
    }[];
    const spent = all.filter((t) => t.spent).reduce((sum, t) => sum + BigInt(t.amount), 0n);
    expect(spent).toBeGreaterThan(0n);

    await rpc(w.port, 'generate_from_keys', { filename: 'payer-view', address: payer, viewkey, password: '' });
    await rpc(w.port, 'refresh');
    expect(await balance()).toBe(own + spent);
    const seen = (await rpc(w.port, 'get_transfers', { in: true, out: true })).result;
    expect(seen.out).toBeUndefined();
    expect(seen.in.map((t: { txid: string }) => t.txid)).toContain(sent.result.tx_hash);
  });
});

describe('generate_from_keys of a Carrot address', () => {
  // Recorded from salvium-wallet-rpc v1.1.3c on a testnet past height 1100, with the fixture wallet main: its Carrot
  // address, its CN view key (query_key view_key) and its view-balance secret (query_key s_view_balance).
  const main = {
    seed: JSON.parse(readFileSync(join(FIXTURES, 'main.json'), 'utf8')).seed as string,
    carrot: 'SC1TorbMnM1FD945vpj2w1ji4y9SMuxu8htsHHVMmnkyd33EPwECrkuFqGVR7tLFFEL3MVkbQKKS3Ut93MhPYoyFBEFnGwgTm6Z',
    viewKey: '8cf78f8ebf2bdeac7c373600aa63b345e99d6eec85d325e96fc6c7c126febf0f',
    viewBalance: 'eb76e5436a0ae910abfe5e82c61fd595338365db6cebe97a1df64b1846c66fad',
  };
  const ZERO_CN =
    'SaLvTyKnku5111111111111111111111111111111111111111111111111111111111111111111111111111111111111CSZo43';

  it("takes the key as the view-balance secret: with s_view_balance, the wallet's own Carrot address", async () => {
    const restored = await rpc(w.port, 'restore_deterministic_wallet', {
      filename: 'main',
      password: '',
      seed: main.seed,
      restore_height: 0,
      language: 'English',
    });
    expect(restored.error).toBeUndefined();
    expect((await rpc(w.port, 'query_key', { key_type: 's_view_balance' })).result.key).toBe(main.viewBalance);
    expect((await rpc(w.port, 'query_key', { key_type: 'view_key' })).result.key).toBe(main.viewKey);
    const gen = await rpc(w.port, 'generate_from_keys', {
      filename: 'main-view',
      address: main.carrot,
      viewkey: main.viewBalance,
      password: '',
    });
    expect(gen.result).toEqual({ address: ZERO_CN, info: 'Watch-only wallet has been generated successfully.' });
    const a = (await rpc(w.port, 'get_address')).result.addresses[0];
    expect(a).toMatchObject({ address_cn: ZERO_CN, address_carrot: main.carrot });
    const q = async (key_type: string): Promise<string> => (await rpc(w.port, 'query_key', { key_type })).result.key;
    expect(await q('view_key')).toBe('0'.repeat(64));
    expect(await q('s_view_balance')).toBe(main.viewBalance);
    expect(await q('k_view_incoming')).toBe('c99467cb3de3aefa3b7ca09c30a69bcbac22c6635a49e6c2a3f6c427c742f409');
  });

  it('with the CN view key instead, a Carrot address of another view key (one that sees nothing of the wallet)', async () => {
    await rpc(w.port, 'generate_from_keys', {
      filename: 'main-wrong',
      address: main.carrot,
      viewkey: main.viewKey,
      password: '',
    });
    expect((await rpc(w.port, 'get_address')).result.addresses[0]).toMatchObject({
      address_cn: ZERO_CN,
      address_carrot:
        'SC1TorbMnM1FD945vpj2w1ji4y9SMuxu8htsHHVMmnkyd33EPwo7Pn2PCkjt4W5JVMgnyytnhFR2ves5TbVpziEhV1Jc2P8UXgx',
    });
  });
});

describe('passwords and background sync', () => {
  beforeAll(async () => {
    await rpc(w.port, 'open_wallet', { filename: 'source', password: 'pw' });
  });

  it('changes the password only with the old one, and opens with the new one', async () => {
    expect((await rpc(w.port, 'change_wallet_password', { old_password: 'no', new_password: 'x' })).error).toEqual({
      code: -22,
      message: 'Invalid original password.',
    });
    expect((await rpc(w.port, 'change_wallet_password', { old_password: 'pw', new_password: 'pw2' })).result).toEqual(
      {},
    );
    expect((await rpc(w.port, 'open_wallet', { filename: 'source', password: 'pw' })).error).toEqual({
      code: -1,
      message: 'Failed to open wallet : Invalid password.',
    });
    expect((await rpc(w.port, 'open_wallet', { filename: 'source', password: 'pw2' })).result).toEqual({});
  });

  it('syncs in the background once set up, refusing what needs the spend key until stopped', async () => {
    const call = (method: string, params?: unknown): Promise<any> => rpc(w.port, method, params);
    expect((await call('start_background_sync')).error).toEqual({
      code: -1,
      message: 'must setup background sync first before using background sync',
    });
    expect((await call('setup_background_sync', { background_sync_type: 'bogus' })).error).toEqual({
      code: -1,
      message: 'Unknown background sync type',
    });
    const setup = { background_sync_type: 'reuse-wallet-password' };
    expect((await call('setup_background_sync', { ...setup, wallet_password: 'no' })).error).toEqual({
      code: -22,
      message: 'Invalid password.',
    });
    expect((await call('setup_background_sync', { ...setup, wallet_password: 'pw2' })).result).toEqual({});
    expect((await call('start_background_sync')).result).toEqual({});
    expect((await call('create_address')).error).toEqual(SYNCING);
    expect((await call('query_key', { key_type: 'spend_key' })).error).toEqual(SYNCING);
    expect((await call('query_key', { key_type: 'view_key' })).result.key).toBe(keys.viewkey);
    expect((await call('get_address')).result.addresses).toHaveLength(1);
    expect((await call('stop_background_sync', { wallet_password: 'no' })).error).toEqual({
      code: -22,
      message: 'Invalid password.',
    });
    expect((await call('stop_background_sync', { wallet_password: 'pw2' })).result).toEqual({});
    expect((await call('create_address')).result.address_index).toBe(1);
  });
});
