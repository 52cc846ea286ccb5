// Addresses read down to their keys, and a view key checked against an address: with the keys salvium-wallet-rpc
// v1.1.3c answered for the fixture wallet main (get_address's addresses[0]; query_key view_key, s_view_balance and
// k_view_incoming)
// on a real testnet past height 1100.
import { describe, expect, it } from 'vitest';
import { carrotViewIncoming, decodeAddress, pairsWith, secretKeyScalar } from '../../harness/coin/addresses.js';
import { MONERO_COIN, SALVIUM_COIN } from '../../harness/coin/coins.js';

const CN = 'SaLvTyL538NgdgyNaSiwPjGAE9fbEyNFqb9yENF2AjJNWLXr4nuEota3pJhKjRcqpMAnqdd33YdsTAt7nkD43gq2DC8uvCyd8933o';
const CARROT = 'SC1TorbMnM1FD945vpj2w1ji4y9SMuxu8htsHHVMmnkyd33EPwECrkuFqGVR7tLFFEL3MVkbQKKS3Ut93MhPYoyFBEFnGwgTm6Z';
const VIEW_KEY = '8cf78f8ebf2bdeac7c373600aa63b345e99d6eec85d325e96fc6c7c126febf0f';
const VIEW_BALANCE = 'eb76e5436a0ae910abfe5e82c61fd595338365db6cebe97a1df64b1846c66fad';
const K_VIEW_INCOMING = 'c99467cb3de3aefa3b7ca09c30a69bcbac22c6635a49e6c2a3f6c427c742f409';

describe('decodeAddress', () => {
  it('reads the kind and keys of a CN and a Carrot address', () => {
    expect(decodeAddress(SALVIUM_COIN, CN)).toMatchObject({ network: 'testnet', family: 'cn', type: 'standard' });
    expect(decodeAddress(SALVIUM_COIN, CARROT)).toMatchObject({ network: 'testnet', family: 'carrot' });
  });

  it("refuses a changed character (the checksum), another coin's address and text", () => {
    const changed = CN.slice(0, 40) + (CN[40] === 'a' ? 'b' : 'a') + CN.slice(41);
    expect(decodeAddress(SALVIUM_COIN, changed)).toBeUndefined();
    expect(decodeAddress(MONERO_COIN, CN)).toBeUndefined();
    expect(decodeAddress(SALVIUM_COIN, 'main')).toBeUndefined();
  });
});

describe('a view key against an address', () => {
  it('query_key view_key pairs with the CN address, not with the Carrot one', () => {
    const k = secretKeyScalar(VIEW_KEY)!;
    expect(pairsWith(k, decodeAddress(SALVIUM_COIN, CN)!.viewPublicKey)).toBe(true);
    expect(pairsWith(k, decodeAddress(SALVIUM_COIN, CARROT)!.viewPublicKey)).toBe(false);
  });

  it("a Carrot address's view key is k_vi·G, k_vi derived from s_view_balance", () => {
    const c = decodeAddress(SALVIUM_COIN, CARROT)!;
    const kvi = carrotViewIncoming(Buffer.from(VIEW_BALANCE, 'hex'));
    expect(kvi).toBe(secretKeyScalar(K_VIEW_INCOMING));
    expect(pairsWith(kvi, c.viewPublicKey)).toBe(true);
    expect(pairsWith(carrotViewIncoming(Buffer.from(VIEW_KEY, 'hex')), c.viewPublicKey)).toBe(false);
  });

  it('a key that is not 64 hex digits, or not below the group order, is no secret key', () => {
    expect(secretKeyScalar('zz')).toBeUndefined();
    expect(secretKeyScalar('f'.repeat(64))).toBeUndefined();
    expect(secretKeyScalar('0'.repeat(64))).toBeUndefined();
    expect(secretKeyScalar(VIEW_KEY.toUpperCase())).toBe(secretKeyScalar(VIEW_KEY));
  });
});
