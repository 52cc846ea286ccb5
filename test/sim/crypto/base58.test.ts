import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../../harness/sim/crypto/base58.js';
import { fromHex, toHex } from '../../../harness/sim/crypto/hex.js';

// Block vectors from Monero's tests/unit_tests/base58.cpp (encode_block / decode_block).
const BLOCKS: [string, string][] = [
  ['00', '11'],
  ['39', '1z'],
  ['ff', '5Q'],
  ['0000', '111'],
  ['0039', '11z'],
  ['0100', '15R'],
  ['ffff', 'LUv'],
  ['000000', '11111'],
  ['000039', '1111z'],
  ['010000', '11LUw'],
  ['ffffff', '2UzHL'],
  ['00000039', '11111z'],
  ['ffffffff', '7YXq9G'],
  ['0000000039', '111111z'],
  ['ffffffffff', 'VtB5VXc'],
  ['ffffffffffff', '3CUsUpv9t'],
  ['ffffffffffffff', 'Ahg1opVcGW'],
  ['0000000000000039', '1111111111z'],
  ['ffffffffffffffff', 'jpXCZedGfVQ'],
  ['0000000000000000', '11111111111'],
  ['0000000000000001', '11111111112'],
  ['0000000000000008', '11111111119'],
  ['0000000000000009', '1111111111A'],
  ['000000000000003a', '11111111121'],
  ['00ffffffffffffff', '1Ahg1opVcGW'],
  ['06156013762879f7', '22222222222'],
  ['05e022ba374b2a00', '1z111111111'],
];

describe('Monero base58', () => {
  it.each(BLOCKS)('block %s <-> %s', (hex, text) => {
    expect(encode(fromHex(hex))).toBe(text);
    expect(toHex(decode(text) ?? new Uint8Array([0xde, 0xad]))).toBe(hex);
  });

  it('encodes multi-block input block by block, each full block as 11 chars', () => {
    expect(encode(fromHex('00'.repeat(8) + 'ff'))).toBe('11111111111' + '5Q');
    expect(encode(fromHex('ff'.repeat(16)))).toBe('jpXCZedGfVQ'.repeat(2));
    expect(encode(new Uint8Array())).toBe('');
    expect(decode('')).toEqual(new Uint8Array());
  });

  it('round-trips every length from 0 to 80 bytes', () => {
    for (let n = 0; n <= 80; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31 + 7) & 0xff);
      const text = encode(bytes);
      expect(text.length).toBe(Math.floor(n / 8) * 11 + [0, 2, 3, 5, 6, 7, 9, 10, 11][n % 8]!);
      expect(decode(text)).toEqual(bytes);
    }
  });

  it('rejects overflowing blocks', () => {
    for (const t of [
      '5R',
      'LUw',
      '2UzHM',
      '7YXq9H',
      'VtB5VXd',
      '3CUsUpv9t'.slice(0, 8) + 'u',
      'Ahg1opVcGX',
      'jpXCZedGfVR',
      'zzzzzzzzzzz',
    ]) {
      expect(decode(t), t).toBeNull();
    }
    expect(decode('11111111111' + 'zzzzzzzzzzz')).toBeNull();
  });

  it('rejects invalid block lengths', () => {
    for (const len of [1, 4, 8, 12, 15, 19]) expect(decode('1'.repeat(len)), `length ${len}`).toBeNull();
  });

  it('rejects characters outside the alphabet', () => {
    for (const t of ['0', 'O1', 'I1', 'l1', '1+', '1é', ' 1', '11111111111 1']) expect(decode(t), t).toBeNull();
  });
});
