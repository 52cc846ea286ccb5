import { describe, expect, it } from 'vitest';
import { decodeAddress, encodeAddress, type Network } from '../../../harness/sim/crypto/address.js';
import { fromHex, isHex, toHex } from '../../../harness/sim/crypto/hex.js';
import {
  L,
  cnKeysFromSeed,
  keyImage,
  numberToBytesLE,
  randomHex,
  scalarMultBase,
  scReduce32,
  scReduce32Bytes,
  secretToPublic,
  walletFromSeed,
} from '../../../harness/sim/crypto/keys.js';
import { seedToWords, wordsToSeed } from '../../../harness/sim/crypto/mnemonic.js';

const MONERO_WORDS =
  'velvet lymph giddy number token physics poetry unquoted nibs useful sabotage limits benches lifestyle eden nitrogen anvil fewest avoid batch vials washing fences goat unquoted';
const MONERO_ADDRESS =
  '42ey1afDFnn4886T7196doS9GPMzexD9gXpsZJDwVjeRVdFCSoHnv7KPbBeGpzJBzHRCAs9UxqeoyFQMYbqSWYTfJJQAWDm';

function seedOf(i: number): Uint8Array {
  const seed = Uint8Array.from({ length: 32 }, (_, j) => (j * 13 + 1) & 0xff);
  new DataView(seed.buffer).setUint32(0, i, true);
  return seed;
}

describe('scalars', () => {
  it('sc_reduce32 reduces little-endian mod l', () => {
    expect(L).toBe(2n ** 252n + 27742317777372353535851937790883648493n);
    expect(scReduce32(numberToBytesLE(L))).toBe(0n);
    expect(scReduce32(numberToBytesLE(L + 5n))).toBe(5n);
    expect(scReduce32(new Uint8Array(32).fill(0xff))).toBe((2n ** 256n - 1n) % L);
    const one = new Uint8Array(32);
    one[0] = 1;
    expect(scReduce32(one)).toBe(1n);
    expect(toHex(scReduce32Bytes(numberToBytesLE(L + 1n)))).toBe(toHex(one));
    expect(() => scReduce32(new Uint8Array(31))).toThrow();
  });

  it('scalar·G gives the ed25519 base point and identity', () => {
    expect(toHex(scalarMultBase(1n))).toBe('5866666666666666666666666666666666666666666666666666666666666666');
    expect(toHex(scalarMultBase(0n))).toBe('01' + '00'.repeat(31));
    expect(toHex(scalarMultBase(L + 1n))).toBe(toHex(scalarMultBase(1n)));
  });
});

describe('CryptoNote keys (Monero derivation)', () => {
  it('derives the Monero functional-test wallet from its 25 words', () => {
    const seed = wordsToSeed(MONERO_WORDS);
    const k = cnKeysFromSeed(seed);
    expect(toHex(k.spendSecret)).toBe('148d78d2aba7dbca5cd8f6abcfb0b3c009ffbdbea1ff373d50ed94d78286640e');
    expect(toHex(k.viewSecret)).toBe('49774391fa5e8d249fc2c5b45dadef13534bf2483dede880dac88f061e809100');
    expect(toHex(secretToPublic(k.spendSecret))).toBe(toHex(k.spendPublic));
    const address = encodeAddress({
      coin: 'monero',
      network: 'mainnet',
      family: 'cn',
      type: 'standard',
      spendPublicKey: k.spendPublic,
      viewPublicKey: k.viewPublic,
    });
    expect(address).toBe(MONERO_ADDRESS);
  });

  it('derives a second, independent Monero mainnet vector (word spellings survive a round trip)', () => {
    const words =
      'ability pockets lordship tomorrow gypsy match neutral uncle avatar betting bicycle junk unzip pyramid lynx mammal edgy empty uneven knowledge juvenile wiring paradise psychic betting';
    const seed = wordsToSeed(words);
    expect(seedToWords(seed).join(' ')).toBe(words);
    const k = cnKeysFromSeed(seed);
    expect(
      encodeAddress({
        coin: 'monero',
        network: 'mainnet',
        family: 'cn',
        type: 'standard',
        spendPublicKey: k.spendPublic,
        viewPublicKey: k.viewPublic,
      }),
    ).toBe('48tLyQXpcwt8w6uKHyb5Zs3vdnoDWAEKFQr1c198o7aX9dBzXP3BTSMVsDiuH3ozDCNqwojb4vNeQZf7xg6URimDLaNtGSN');
  });

  it('reduces an unreduced seed like Monero does on restore', () => {
    const seed = new Uint8Array(32).fill(0xff);
    expect(toHex(cnKeysFromSeed(seed).spendSecret)).toBe(toHex(numberToBytesLE((2n ** 256n - 1n) % L)));
  });

  it('accepts the seed as hex and refuses other sizes', () => {
    const seed = seedOf(3);
    expect(cnKeysFromSeed(toHex(seed))).toEqual(cnKeysFromSeed(seed));
    expect(() => cnKeysFromSeed(new Uint8Array(16))).toThrow(/32 bytes/);
    expect(() => cnKeysFromSeed('zz')).toThrow(/hex/);
  });
});

describe('Carrot keys', () => {
  it('derive from the CN spend secret key, differ from the CN keys, and are valid keys', () => {
    const w = walletFromSeed(seedOf(7), 'testnet');
    expect(walletFromSeed(seedOf(7), 'testnet').carrot).toEqual(w.carrot);
    expect(w.carrot.spendPublic).not.toBe(w.cn.spendPublic);
    expect(w.carrot.viewPublic).not.toBe(w.carrot.spendPublic);
    expect(toHex(secretToPublic(fromHex(w.carrot.viewSecret)))).toBe(w.carrot.viewPublic);
  });
});

describe('walletFromSeed', () => {
  it.each<Network>(['testnet', 'mainnet', 'stagenet'])('gives both addresses on %s', (network) => {
    const w = walletFromSeed(seedOf(11), network);
    expect(w.seed).toBe(toHex(seedOf(11)));
    expect(w.network).toBe(network);
    expect(w.viewKeyHex).toBe(w.cn.viewSecret);
    for (const family of ['cn', 'carrot'] as const) {
      const keys = w[family];
      for (const h of [keys.spendSecret, keys.viewSecret, keys.spendPublic, keys.viewPublic])
        expect(isHex(h, 32)).toBe(true);
      const d = decodeAddress(keys.address)!;
      expect(d).toMatchObject({ coin: 'salvium', network, family, type: 'standard' });
      expect(toHex(d.spendPublicKey)).toBe(keys.spendPublic);
      expect(toHex(d.viewPublicKey)).toBe(keys.viewPublic);
    }
    if (network === 'testnet') {
      expect(w.cn.address).toMatch(/^SaLvT/);
      expect(w.cn.address).toHaveLength(101);
      expect(w.carrot.address).toMatch(/^SC1T/);
      expect(w.carrot.address).toHaveLength(99);
    }
  });

  it('the CN keys of a mnemonic match Monero; the wallet is reproducible from its words', () => {
    const w = walletFromSeed(wordsToSeed(MONERO_WORDS), 'mainnet');
    expect(w.cn.spendSecret).toBe('148d78d2aba7dbca5cd8f6abcfb0b3c009ffbdbea1ff373d50ed94d78286640e');
    const again = walletFromSeed(wordsToSeed(seedToWords(fromHex(w.seed))), 'mainnet');
    expect(again).toEqual(w);
  });

  it('gives 300 seeds 300 different wallets', () => {
    const count = 300;
    const addresses = new Set<string>();
    for (let i = 0; i < count; i++) addresses.add(walletFromSeed(seedOf(i + 1), 'testnet').carrot.address);
    expect(addresses.size).toBe(count);
  });
});

describe('keyImage and randomHex', () => {
  it('keyImage is 64 hex, deterministic, and depends on both inputs', () => {
    const k = walletFromSeed(seedOf(9), 'testnet').cn.spendSecret;
    const a = keyImage(k, 'tx1:0');
    expect(isHex(a, 32)).toBe(true);
    expect(keyImage(k, 'tx1:0')).toBe(a);
    expect(keyImage(k.toUpperCase(), 'tx1:0')).toBe(a);
    expect(keyImage(k, 'tx1:1')).not.toBe(a);
    expect(keyImage(walletFromSeed(seedOf(10), 'testnet').cn.spendSecret, 'tx1:0')).not.toBe(a);
  });

  it('randomHex gives the requested number of random bytes', () => {
    expect(randomHex(32)).toMatch(/^[0-9a-f]{64}$/);
    expect(randomHex(8)).toHaveLength(16);
    expect(randomHex(32)).not.toBe(randomHex(32));
  });
});
