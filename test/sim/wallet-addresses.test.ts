// The simulated wallet RPC answers a seed's addresses and Carrot keys as salvium-wallet-rpc v1.1.3c did, by the very
// calls they were recorded with (fixtures/salvium-v1.1.3c/carrot-addresses.json, the wallet "fresh"): restored at
// height 1, before the Carrot fork, where get_address's address_carrot and make_integrated_address are Carrot already.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, rpc, startDaemon, startWalletRpc, stopAll, tempDir, type SimWalletRpc } from '../helpers/sim.js';

const recorded = JSON.parse(
  readFileSync(new URL('../../fixtures/salvium-v1.1.3c/carrot-addresses.json', import.meta.url), 'utf8'),
) as {
  payment_id: string;
  wallets: {
    fresh: {
      seed: string;
      keys: Record<string, string>;
      addresses: { major: number; minor: number; cn: string; carrot: string }[];
      integrated: string;
    };
  };
};
const fresh = recorded.wallets.fresh;

let dir: string;
let wallet: SimWalletRpc;

const result = async (method: string, params?: unknown): Promise<any> => {
  const r = await rpc(wallet.port, method, params);
  if (r.error) throw new Error(`${method}: ${r.error.code} ${r.error.message}`);
  return r.result;
};

beforeAll(async () => {
  dir = tempDir('saltnet-wallet-addresses-');
  const daemon = await startDaemon(dir);
  wallet = await startWalletRpc(['--wallet-dir', join(dir, 'wallets')], daemon.port);
  await result('restore_deterministic_wallet', {
    filename: 'fresh',
    password: 'pw',
    seed: fresh.seed,
    restore_height: 0,
  });
  await result('create_address', { account_index: 0 });
  await result('create_account');
  await result('create_account');
  await result('create_address', { account_index: 2, count: 5 });
}, 120_000);

afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('the addresses of a restored seed, before the Carrot fork', () => {
  it('get_address lists the real CN and Carrot address of every index', async () => {
    expect((await result('get_height')).height).toBeLessThan(1100);
    for (const a of fresh.addresses) {
      const got = await result('get_address', {
        account_index: a.major,
        address_index: [a.minor],
        carrot: true,
        cryptonote: true,
      });
      expect({ ...a, cn: got.addresses[0].address_cn, carrot: got.addresses[0].address_carrot }).toEqual(a);
    }
  });

  it('make_integrated_address joins the payment id to the Carrot main address', async () => {
    expect(await result('make_integrated_address', { payment_id: recorded.payment_id })).toEqual({
      integrated_address: fresh.integrated,
      payment_id: recorded.payment_id,
    });
    const split = await result('split_integrated_address', { integrated_address: fresh.integrated });
    expect(split).toEqual({
      is_subaddress: false,
      payment_id: recorded.payment_id,
      standard_address: fresh.addresses[0]!.carrot,
    });
  });

  it('query_key answers the real keys', async () => {
    for (const [key_type, key] of Object.entries(fresh.keys))
      expect((await result('query_key', { key_type })).key).toBe(key);
  });

  it('get_address_index finds each subaddress of both families', async () => {
    for (const a of fresh.addresses.filter((x) => x.major !== 0 || x.minor !== 0))
      for (const address of [a.cn, a.carrot])
        expect((await result('get_address_index', { address })).index).toEqual({ major: a.major, minor: a.minor });
  });
});
