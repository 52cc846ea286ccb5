// An app's wallet registered by address and view key: the request is checked before any wallet RPC starts (the
// address a main address of this testnet's chain, the key 64 hex digits that pair with it, the name free), each
// refusal a 400 (409 for what is taken) naming the field, and never repeating the key; a good one is opened by the
// explorer's opener and removed with it. The keys: the fixture wallet main's, as salvium-wallet-rpc v1.1.3c answered
// them (get_address, query_key view_key and s_view_balance) past height 1100.
import { describe, expect, it } from 'vitest';
import { MONERO_COIN, SALVIUM_COIN } from '../../harness/coin/coins.js';
import { appRegistry, checkViewKey, UiRequestError } from '../../harness/ui/apps.js';
import type { ViewWallet, ViewWalletOpener } from '../../harness/ui/view-wallets.js';
import type { WalletClient } from '../../harness/rpc/wallet.js';

const CN = 'SaLvTyL538NgdgyNaSiwPjGAE9fbEyNFqb9yENF2AjJNWLXr4nuEota3pJhKjRcqpMAnqdd33YdsTAt7nkD43gq2DC8uvCyd8933o';
const CARROT = 'SC1TorbMnM1FD945vpj2w1ji4y9SMuxu8htsHHVMmnkyd33EPwECrkuFqGVR7tLFFEL3MVkbQKKS3Ut93MhPYoyFBEFnGwgTm6Z';
const VIEW_KEY = '8cf78f8ebf2bdeac7c373600aa63b345e99d6eec85d325e96fc6c7c126febf0f';
const VIEW_BALANCE = 'eb76e5436a0ae910abfe5e82c61fd595338365db6cebe97a1df64b1846c66fad';
const K_VIEW_INCOMING = 'c99467cb3de3aefa3b7ca09c30a69bcbac22c6635a49e6c2a3f6c427c742f409';
/** The miner fixture wallet's CN address: a real address whose view key is not main's. */
const OTHER_CN =
  'SaLvTyMCuYe7sU4Md68zvPBhKrEmRcHWEV2UYawmpg5Ac1Fg3wjbx4xDNcyuyWkheaV2JcJGdroGuNfchCGJ7c2Y7Nj7SNCAxfo2p';

/** The message checkViewKey refuses with (a 400), or undefined when it takes the pair. */
function refusal(address: string, viewKey: string): string | undefined {
  try {
    checkViewKey(SALVIUM_COIN, address, viewKey);
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(UiRequestError);
    expect((err as UiRequestError).status).toBe(400);
    if (viewKey.length === 64) expect((err as Error).message).not.toContain(viewKey.slice(8, 40));
    return (err as Error).message;
  }
}

describe('checkViewKey', () => {
  it("takes a Carrot address with the wallet's s_view_balance, a CN address with its view_key", () => {
    expect(refusal(CARROT, VIEW_BALANCE)).toBeUndefined();
    expect(refusal(CN, VIEW_KEY)).toBeUndefined();
    expect(refusal(CN, VIEW_KEY.toUpperCase())).toBeUndefined();
  });

  it('names the address when it is not a main address of this testnet', () => {
    expect(refusal('main', VIEW_KEY)).toBe(
      'address "main" is not an address of this testnet (a salvium testnet CN or Carrot address)',
    );
    const changed = CN.slice(0, 50) + (CN[50] === 'a' ? 'b' : 'a') + CN.slice(51);
    expect(refusal(changed, VIEW_KEY)).toMatch(/^address "SaLvTy.*" is not an address of this testnet/);
    expect(() => checkViewKey(MONERO_COIN, CN, VIEW_KEY)).toThrow('(a monero testnet CN address)');
  });

  it('names the view key when it is not 64 hex digits, no secret key, or not the address', () => {
    expect(refusal(CN, 'abc')).toBe('viewKey must be 64 hex digits (a secret key), got 3 characters that are not');
    expect(refusal(CN, 'f'.repeat(64))).toBe('viewKey is not a secret key (a scalar below the group order of ed25519)');
    expect(refusal(OTHER_CN, VIEW_KEY)).toMatch(
      /^viewKey does not match address "SaLvTyMC.*": a CN address pairs with its wallet's query_key view_key$/,
    );
    expect(refusal(CARROT, VIEW_KEY)).toMatch(
      /^viewKey does not match address "SC1T.*": a Carrot address pairs with its wallet's view-balance secret \(query_key s_view_balance\)/,
    );
    expect(refusal(CARROT, K_VIEW_INCOMING)).toMatch(
      /^viewKey is the incoming view key \(k_view_incoming\) of address .*give the wallet's query_key s_view_balance$/,
    );
  });
});

describe('the registry of view-only wallets', () => {
  const opened: string[] = [];
  const closed: string[] = [];
  const opener: ViewWalletOpener = {
    open(name, address, viewKey) {
      opened.push(`${name} ${address} ${viewKey}`);
      const w: ViewWallet = {
        url: 'http://127.0.0.1:1',
        client: { close: async () => undefined } as unknown as WalletClient,
        close: async () => void closed.push(name),
      };
      return Promise.resolve(w);
    },
    close: async () => void closed.push('(all)'),
  };

  it('opens a good one, refuses a taken name or address, removes it, and closes the opener with itself', async () => {
    const apps = appRegistry({ coin: SALVIUM_COIN, opener });
    const app = await apps.add({ name: 'shop', address: CARROT, viewKey: VIEW_BALANCE }, ['main']);
    expect(app).toMatchObject({ name: 'shop', address: CARROT, url: 'http://127.0.0.1:1' });
    expect(app.viewOnly).toBeDefined();
    expect(opened).toEqual([`shop ${CARROT} ${VIEW_BALANCE}`]);
    const refused = async (body: unknown): Promise<[number, string]> => {
      const err = (await apps.add(body, ['main']).catch((e: unknown) => e)) as UiRequestError;
      return [err.status, err.message];
    };
    expect(await refused({ name: 'main', address: CN, viewKey: VIEW_KEY })).toEqual([
      409,
      'name "main" is taken: a wallet of that name is already shown',
    ]);
    expect(await refused({ name: 'shop', address: CN, viewKey: VIEW_KEY })).toEqual([
      409,
      'name "shop" is taken: a wallet of that name is already shown',
    ]);
    expect((await refused({ name: 'again', address: CARROT, viewKey: VIEW_BALANCE }))[1]).toMatch(
      /^that address is already shown as "shop"$/,
    );
    expect((await refused({ name: 'x', address: CN }))[1]).toMatch(
      /^the body must be a JSON object .* or \{"name": "…", "address": "…", "viewKey": "…"\}/,
    );
    expect(opened).toHaveLength(1);
    await apps.remove('shop');
    expect(closed).toEqual(['shop']);
    await apps.close();
    expect(closed).toEqual(['shop', '(all)']);
  });

  it('an explorer without a testnet of its own refuses them', async () => {
    const err = (await appRegistry()
      .add({ name: 'shop', address: CARROT, viewKey: VIEW_BALANCE }, [])
      .catch((e: unknown) => e)) as UiRequestError;
    expect([err.status, err.message]).toEqual([
      400,
      'this explorer opens no view-only wallets (it shows no testnet of its own)',
    ]);
  });
});
