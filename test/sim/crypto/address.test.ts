import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import {
  ADDRESS_PREFIXES,
  addressPrefix,
  decodeAddress,
  encodeAddress,
  isValidAddress,
  type AddressFamily,
  type AddressType,
  type Network,
} from '../../../harness/sim/crypto/address.js';
import { decode as base58Decode } from '../../../harness/sim/crypto/base58.js';
import { scalarMultBase } from '../../../harness/sim/crypto/ed25519.js';
import { fromHex, toHex } from '../../../harness/sim/crypto/hex.js';
import { decodeVarint, encodeVarint } from '../../../harness/sim/crypto/varint.js';

// Same wallet, from the recorded get_address transcript (13-wallet-get_address.json).
const TRANSCRIPT_CN =
  'SaLvTyKyQDRGTjuP4tinmWCn3hm9j3qcsSXWQfXvPb3ncGTBo2tjW3Ggz9eoTAEytqHEDC5Z3AG1WXSUFyfDQPpYSJ3DQmeAnx33B';
const TRANSCRIPT_CARROT =
  'SC1TosF5e1GR9x5qTyaxvwdyvaGaTricz3ucbnq3pSjx6gVbvXeNJSoivw6LR89n8WcPUd8XfbzNJZ25hZUSoYLyb5VwJxTZmXQ';
// The destination the real wallet recorded for a transfer to TRANSCRIPT_CARROT (transcripts 50/54).
const TRANSCRIPT_DEST =
  'SC1TosF5e1GR9x5qTyaxvwdyvaGaTricz3ucbnq3pSjx6gVbvVyB1yoikWnHd8kCU7YnR2DQbCXo48UMJ9wMNbCWGQuxe5otRV9';

// Treasury addresses hard-coded in Salvium's src/cryptonote_config.h.
const SALVIUM_TREASURY = {
  mainnetCn: 'SaLvdZR6w1A21sf2Wh6jYEh1wzY4GSbT7RX6FjyPsnLsffWLrzFQeXUXJcmBLRWDzZC2YXeYe5t7qKsnrg9FpmxmEcxPHsEYfqA',
  mainnetCarrot: 'SC11ksHLFhy7H1yMk9bUZvADG1Z9ZkR1T5QMknm3RbGBbgdPkyanB2WBb5TER3MsiwJC5BnyoiYs2DBcvAfAm6JQ537iNKdtvm',
  testnetCn: 'SaLvTyL2pN2SCAPRxwDQ7qjhdg46VbhZrGZTp2wHKJ5sK434a8ivEH35eWp2FTcmyW6LY6ExfBb9chmQ9xAL1eJyZ5FQjtQGTis3v',
  testnetCarrot: 'SC1TouvX6e4HmkAqsU6AAXLRjgeZnnKHjSpVfMHepTXramNMT2P47AsDmteLH81wdPR2DwMg3cxKvgrhUBeDSUW6MhM3sQb92we',
};

// Monero vectors (Monero functional tests; monero-serai / monero-ts address tests).
const MONERO_STANDARD =
  '42ey1afDFnn4886T7196doS9GPMzexD9gXpsZJDwVjeRVdFCSoHnv7KPbBeGpzJBzHRCAs9UxqeoyFQMYbqSWYTfJJQAWDm';
const MONERO_INTEGRATED =
  '4CMe2PUhs4J4886T7196doS9GPMzexD9gXpsZJDwVjeRVdFCSoHnv7KPbBeGpzJBzHRCAs9UxqeoyFQMYbqSWYTfSbLRB61BQVATzerHGj';
const MONERO_STANDARD_2 =
  '46r4nYSevkfBUMhuykdK3gQ98XDqDTYW1hNLaXNvjpsJaSbNtdXh1sKMsdVgqkaihChAzEy29zEDPMR3NHQvGoZCLGwTerK';
const MONERO_INTEGRATED_2 =
  '4GYjoMG9Y2BBUMhuykdK3gQ98XDqDTYW1hNLaXNvjpsJaSbNtdXh1sKMsdVgqkaihChAzEy29zEDPMR3NHQvGoZCVSs1ZojwrDCGS5rUuo';
const MONERO_SUBADDRESS =
  '8C5zHM5ud8nGC4hC2ULiBLSWx9infi8JUUmWEat4fcTf8J4H38iWYVdFmPCA9UmfLTZxD43RsyKnGEdZkoGij6csDeUnbEB';
const MONERO_SUB_SPEND = 'fe358188b528335ad1cfdc24a22a23988d742c882b6f19a602892eaab3c1b62b';
const MONERO_SUB_VIEW = '9bc2b464de90d058468522098d5610c5019c45fd1711a9517db1eea7794f5470';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function key(i: number): Uint8Array {
  return scalarMultBase(BigInt(i) * 0x9e3779b97f4a7c15f39cc0605cedc835n + 12345n);
}

describe('varint', () => {
  it('round-trips and matches known encodings', () => {
    expect(toHex(encodeVarint(0))).toBe('00');
    expect(toHex(encodeVarint(127))).toBe('7f');
    expect(toHex(encodeVarint(128))).toBe('8001');
    expect(toHex(encodeVarint(18))).toBe('12');
    // Salvium mainnet CN prefix 0x3ef318 -> 98 e6 fb 01
    expect(toHex(encodeVarint(0x3ef318))).toBe('98e6fb01');
    for (const v of [0, 1, 300, 0x3ef318, 0xd055eb318, 2 ** 40 + 5, Number.MAX_SAFE_INTEGER]) {
      const enc = encodeVarint(v);
      expect(decodeVarint(enc)).toEqual({ value: v, length: enc.length });
    }
  });

  it('rejects truncated and non-minimal input', () => {
    expect(decodeVarint(fromHex('80'))).toBeNull();
    expect(decodeVarint(fromHex('8000'))).toBeNull();
    expect(decodeVarint(new Uint8Array())).toBeNull();
    expect(() => encodeVarint(-1)).toThrow();
  });
});

describe('decodeAddress on real addresses', () => {
  it('decodes the transcript CN address (testnet, 101 chars)', () => {
    expect(TRANSCRIPT_CN).toHaveLength(101);
    const d = decodeAddress(TRANSCRIPT_CN);
    expect(d).toMatchObject({ coin: 'salvium', network: 'testnet', family: 'cn', type: 'standard' });
    expect(d?.paymentId).toBeUndefined();
    expect(encodeAddress(d!)).toBe(TRANSCRIPT_CN);
  });

  it('decodes the transcript Carrot address (testnet, 99 chars)', () => {
    expect(TRANSCRIPT_CARROT).toHaveLength(99);
    const d = decodeAddress(TRANSCRIPT_CARROT);
    expect(d).toMatchObject({ coin: 'salvium', network: 'testnet', family: 'carrot', type: 'standard' });
    expect(encodeAddress(d!)).toBe(TRANSCRIPT_CARROT);
  });

  it('the recorded destination has the same spend key and another view key', () => {
    const a = decodeAddress(TRANSCRIPT_CARROT)!;
    const b = decodeAddress(TRANSCRIPT_DEST)!;
    expect(b).toMatchObject({ network: 'testnet', family: 'carrot', type: 'standard' });
    expect(toHex(b.spendPublicKey)).toBe(toHex(a.spendPublicKey));
    expect(toHex(b.viewPublicKey)).not.toBe(toHex(a.viewPublicKey));
  });

  it('the transcript prefixes are the testnet standard prefixes', () => {
    const cn = base58Decode(TRANSCRIPT_CN)!;
    const carrot = base58Decode(TRANSCRIPT_CARROT)!;
    expect(decodeVarint(cn)?.value).toBe(0x15beb318);
    expect(decodeVarint(carrot)?.value).toBe(0x254c96);
    expect(addressPrefix('testnet', 'cn', 'standard')).toBe(0x15beb318);
    expect(addressPrefix('testnet', 'carrot', 'standard')).toBe(0x254c96);
  });

  it('decodes the treasury addresses from Salvium source', () => {
    expect(decodeAddress(SALVIUM_TREASURY.mainnetCn)).toMatchObject({
      network: 'mainnet',
      family: 'cn',
      type: 'standard',
    });
    expect(decodeAddress(SALVIUM_TREASURY.mainnetCarrot)).toMatchObject({
      network: 'mainnet',
      family: 'carrot',
      type: 'standard',
    });
    expect(decodeAddress(SALVIUM_TREASURY.testnetCn)).toMatchObject({
      network: 'testnet',
      family: 'cn',
      type: 'standard',
    });
    expect(decodeAddress(SALVIUM_TREASURY.testnetCarrot)).toMatchObject({
      network: 'testnet',
      family: 'carrot',
      type: 'standard',
    });
    expect(SALVIUM_TREASURY.mainnetCn).toHaveLength(99);
    expect(SALVIUM_TREASURY.mainnetCarrot).toHaveLength(98);
  });

  it('decodes and re-encodes Monero vectors, including integrated and subaddress', () => {
    const std = decodeAddress(MONERO_STANDARD)!;
    expect(std).toMatchObject({ coin: 'monero', network: 'mainnet', family: 'cn', type: 'standard' });
    const integ = decodeAddress(MONERO_INTEGRATED)!;
    expect(integ).toMatchObject({ coin: 'monero', network: 'mainnet', type: 'integrated' });
    expect(toHex(integ.paymentId!)).toBe('0123456789abcdef');
    expect(toHex(integ.spendPublicKey)).toBe(toHex(std.spendPublicKey));
    expect(encodeAddress({ ...std, type: 'integrated', paymentId: fromHex('0123456789abcdef') })).toBe(
      MONERO_INTEGRATED,
    );
    const std2 = decodeAddress(MONERO_STANDARD_2)!;
    expect(encodeAddress({ ...std2, type: 'integrated', paymentId: fromHex('1122334455667788') })).toBe(
      MONERO_INTEGRATED_2,
    );
    expect(
      encodeAddress({
        coin: 'monero',
        network: 'mainnet',
        family: 'cn',
        type: 'subaddress',
        spendPublicKey: fromHex(MONERO_SUB_SPEND),
        viewPublicKey: fromHex(MONERO_SUB_VIEW),
      }),
    ).toBe(MONERO_SUBADDRESS);
    expect(decodeAddress(MONERO_SUBADDRESS)).toMatchObject({ coin: 'monero', type: 'subaddress' });
  });
});

describe('decodeAddress rejects', () => {
  it('any single mutated character of the transcript addresses', () => {
    for (const addr of [TRANSCRIPT_CN, TRANSCRIPT_CARROT]) {
      for (let i = 0; i < addr.length; i++) {
        const c = addr[i]!;
        const other = ALPHABET[(ALPHABET.indexOf(c) + 1 + (i % 57)) % 58]!;
        const mutated = addr.slice(0, i) + other + addr.slice(i + 1);
        expect(decodeAddress(mutated), `position ${i}`).toBeNull();
      }
    }
  });

  it('non-base58, truncated, extended and unknown-prefix text', () => {
    expect(decodeAddress('')).toBeNull();
    expect(decodeAddress('not an address')).toBeNull();
    expect(decodeAddress(TRANSCRIPT_CN.slice(0, -1))).toBeNull();
    expect(decodeAddress(TRANSCRIPT_CN + '1')).toBeNull();
    expect(decodeAddress(TRANSCRIPT_CN.replace('S', '0'))).toBeNull();
    // Salvium's stagenet treasury address uses a prefix that is not an address prefix of any network.
    expect(
      decodeAddress(
        'fuLMowH85abK8nz9BBMEem7MAfUbQu4aSHHUV9j5Z86o6Go9Lv2U5ZQiJCWPY9R9HA8p5idburazjAhCqDngLo7fYPCD9ciM9ee1A',
      ),
    ).toBeNull();
  });

  it('a valid checksum over keys that are not curve points', () => {
    const bad = new Uint8Array(32).fill(0xff); // y >= p: not a canonical point
    const good = decodeAddress(TRANSCRIPT_CARROT)!;
    // encodeAddress only checks sizes, so it can build such a text; its checksum is valid
    const text = encodeAddress({ ...good, spendPublicKey: bad });
    const raw = base58Decode(text)!;
    expect(toHex(keccak_256(raw.subarray(0, raw.length - 4)).subarray(0, 4))).toBe(toHex(raw.subarray(raw.length - 4)));
    expect(decodeAddress(text)).toBeNull();
    expect(decodeAddress(encodeAddress({ ...good, viewPublicKey: bad }))).toBeNull();
  });
});

describe('encodeAddress: every kind, lengths and leading text', () => {
  const expectations: [Network, AddressFamily, AddressType, string, number | null][] = [
    ['testnet', 'cn', 'standard', 'SaLvT', 101],
    ['testnet', 'cn', 'subaddress', 'SaLvTs', 101],
    ['testnet', 'cn', 'integrated', 'SaLvTi', 113],
    ['testnet', 'carrot', 'standard', 'SC1T', 99],
    ['testnet', 'carrot', 'subaddress', 'SC1Ts', 99],
    ['testnet', 'carrot', 'integrated', 'SC1Ti', 112],
    ['mainnet', 'cn', 'standard', 'SaLv', 99],
    ['mainnet', 'cn', 'subaddress', 'SaLvs', null],
    ['mainnet', 'cn', 'integrated', 'SaLvi', null],
    ['mainnet', 'carrot', 'standard', 'SC1', 98],
    ['mainnet', 'carrot', 'subaddress', 'SC1s', null],
    ['mainnet', 'carrot', 'integrated', 'SC1i', null],
    ['stagenet', 'cn', 'standard', 'SaLvS', null],
    ['stagenet', 'cn', 'subaddress', 'SaLvSs', null],
    ['stagenet', 'cn', 'integrated', 'SaLvSi', null],
    ['stagenet', 'carrot', 'standard', 'SC1S', null],
    ['stagenet', 'carrot', 'subaddress', 'SC1Ss', null],
    ['stagenet', 'carrot', 'integrated', 'SC1Si', null],
  ];

  it.each(expectations)('%s %s %s starts with %s (length %s)', (network, family, type, lead, length) => {
    const lengths = new Set<number>();
    for (let i = 0; i < 16; i++) {
      const a = {
        network,
        family,
        type,
        spendPublicKey: key(2 * i),
        viewPublicKey: key(2 * i + 1),
        ...(type === 'integrated'
          ? { paymentId: Uint8Array.from({ length: 8 }, (_, j) => (i * 8 + j * 37) & 0xff) }
          : {}),
      };
      const text = encodeAddress(a);
      expect(text.startsWith(lead), text).toBe(true);
      lengths.add(text.length);
      const d = decodeAddress(text)!;
      expect(d).toMatchObject({ coin: 'salvium', network, family, type });
      expect(toHex(d.spendPublicKey)).toBe(toHex(a.spendPublicKey));
      expect(toHex(d.viewPublicKey)).toBe(toHex(a.viewPublicKey));
      if (type === 'integrated') expect(toHex(d.paymentId!)).toBe(toHex(a.paymentId!));
    }
    expect(lengths.size).toBe(1);
    if (length !== null) expect([...lengths][0]).toBe(length);
  });

  it('every prefix is unique and round-trips', () => {
    expect(new Set(ADDRESS_PREFIXES.map((p) => p.prefix)).size).toBe(ADDRESS_PREFIXES.length);
    for (const p of ADDRESS_PREFIXES) {
      const text = encodeAddress({
        coin: p.coin,
        network: p.network,
        family: p.family,
        type: p.type,
        spendPublicKey: key(1),
        viewPublicKey: key(2),
        ...(p.type === 'integrated' ? { paymentId: new Uint8Array(8) } : {}),
      });
      expect(decodeAddress(text)).toMatchObject({ coin: p.coin, network: p.network, family: p.family, type: p.type });
    }
  });

  it('Monero prefixes give Monero leading characters', () => {
    const enc = (network: Network, type: AddressType) =>
      encodeAddress({
        coin: 'monero',
        network,
        family: 'cn',
        type,
        spendPublicKey: key(3),
        viewPublicKey: key(4),
        ...(type === 'integrated' ? { paymentId: new Uint8Array(8) } : {}),
      });
    expect(enc('mainnet', 'standard')[0]).toBe('4');
    expect(enc('mainnet', 'subaddress')[0]).toBe('8');
    expect(enc('mainnet', 'standard')).toHaveLength(95);
    expect(enc('mainnet', 'integrated')).toHaveLength(106);
    expect(enc('stagenet', 'standard')[0]).toBe('5');
    expect(enc('stagenet', 'subaddress')[0]).toBe('7');
    expect(enc('testnet', 'subaddress')[0]).toBe('B');
  });

  it('throws on bad input', () => {
    const base = {
      network: 'testnet' as const,
      family: 'carrot' as const,
      spendPublicKey: key(1),
      viewPublicKey: key(2),
    };
    expect(() => encodeAddress({ ...base, type: 'integrated' })).toThrow(/payment id/);
    expect(() => encodeAddress({ ...base, type: 'standard', paymentId: new Uint8Array(8) })).toThrow(/payment id/);
    expect(() => encodeAddress({ ...base, type: 'standard', spendPublicKey: new Uint8Array(31) })).toThrow(/32 bytes/);
    expect(() => encodeAddress({ ...base, coin: 'monero', type: 'standard' })).toThrow(/no address prefix/);
  });

  it('isValidAddress filters by kind', () => {
    expect(isValidAddress(TRANSCRIPT_CARROT)).toBe(true);
    expect(isValidAddress(TRANSCRIPT_CARROT, { family: 'carrot', network: 'testnet' })).toBe(true);
    expect(isValidAddress(TRANSCRIPT_CARROT, { family: 'cn' })).toBe(false);
    expect(isValidAddress(TRANSCRIPT_CN, { network: 'mainnet' })).toBe(false);
    expect(isValidAddress(MONERO_STANDARD, { coin: 'monero' })).toBe(true);
    expect(isValidAddress('SC1T')).toBe(false);
  });
});
