import { describe, expect, it } from 'vitest';
import { toHex } from '../../../harness/sim/crypto/hex.js';
import { seedToMnemonic, seedToWords, wordsToSeed } from '../../../harness/sim/crypto/mnemonic.js';
import { ENGLISH_WORDS } from '../../../harness/sim/crypto/wordlist-english.js';

// Monero's functional-test wallet (tests/functional_tests/*.py).
const MONERO_WORDS =
  'velvet lymph giddy number token physics poetry unquoted nibs useful sabotage limits benches lifestyle eden nitrogen anvil fewest avoid batch vials washing fences goat unquoted';
const MONERO_SEED = '148d78d2aba7dbca5cd8f6abcfb0b3c009ffbdbea1ff373d50ed94d78286640e';

function seedOf(i: number): Uint8Array {
  return Uint8Array.from({ length: 32 }, (_, j) => (i * 131 + j * 29 + ((i * j) >> 2)) & 0xff);
}

describe('English word list', () => {
  it('has 1626 sorted words with unique 3-letter prefixes', () => {
    expect(ENGLISH_WORDS).toHaveLength(1626);
    expect([...ENGLISH_WORDS].sort()).toEqual([...ENGLISH_WORDS]);
    expect(new Set(ENGLISH_WORDS.map((w) => w.slice(0, 3))).size).toBe(1626);
    expect(ENGLISH_WORDS.every((w) => /^[a-z]{3,}$/.test(w))).toBe(true);
    expect(ENGLISH_WORDS[0]).toBe('abbey');
    expect(ENGLISH_WORDS[1625]).toBe('zoom');
  });
});

describe('25-word mnemonic', () => {
  it('decodes the Monero test wallet seed', () => {
    expect(toHex(wordsToSeed(MONERO_WORDS))).toBe(MONERO_SEED);
    expect(seedToMnemonic(wordsToSeed(MONERO_WORDS))).toBe(MONERO_WORDS);
  });

  it('round-trips seeds, including all-zero and all-ones', () => {
    const seeds = [
      new Uint8Array(32),
      new Uint8Array(32).fill(0xff),
      ...Array.from({ length: 50 }, (_, i) => seedOf(i)),
    ];
    for (const seed of seeds) {
      const words = seedToWords(seed);
      expect(words).toHaveLength(25);
      expect(words.every((w) => ENGLISH_WORDS.includes(w))).toBe(true);
      expect(words.slice(0, 24)).toContain(words[24]);
      expect(wordsToSeed(words)).toEqual(seed);
      expect(wordsToSeed(words.join(' '))).toEqual(seed);
      expect(wordsToSeed(words.slice(0, 24))).toEqual(seed);
    }
  });

  it('matches words by their first 3 letters, case-insensitively, with loose spacing', () => {
    const words = MONERO_WORDS.split(' ');
    const abbreviated = words.map((w) => w.slice(0, 3)).join(' ');
    expect(toHex(wordsToSeed(abbreviated))).toBe(MONERO_SEED);
    expect(toHex(wordsToSeed(`  ${MONERO_WORDS.toUpperCase().replaceAll(' ', '   \n')}  `))).toBe(MONERO_SEED);
  });

  it('rejects a bad checksum word with a clear message', () => {
    const words = MONERO_WORDS.split(' ');
    words[24] = 'abbey';
    expect(() => wordsToSeed(words)).toThrow(/checksum word "abbey" does not match \(expected "unquoted"\)/);
    // a data word changed: checksum no longer matches either
    const swapped = MONERO_WORDS.split(' ');
    swapped[0] = 'zoom';
    expect(() => wordsToSeed(swapped)).toThrow(/checksum/);
  });

  it('rejects a wrong word count', () => {
    expect(() => wordsToSeed(MONERO_WORDS.split(' ').slice(0, 23))).toThrow(
      /expected 25 words \(or 24 without checksum\), got 23/,
    );
    expect(() => wordsToSeed(`${MONERO_WORDS} abbey`)).toThrow(/got 26/);
    expect(() => wordsToSeed('')).toThrow(/got 0/);
  });

  it('rejects an unknown word, naming it', () => {
    const words = MONERO_WORDS.split(' ');
    words[5] = 'qqqxyz';
    expect(() => wordsToSeed(words)).toThrow(/word 6 "qqqxyz" is not in the English word list/);
  });

  it('rejects a word triple that encodes no 32-bit value', () => {
    // w1 = 0, w2 = 1625, w3 = 1624: value = 0 + n*1625 + n^2*1625 > 2^32, and wraps to a value whose x % n != w1
    const bad = [...Array(21).fill('abbey'), 'abbey', 'zoom', 'zones'];
    expect(() => wordsToSeed(bad)).toThrow(/words 22-24 do not encode a valid value/);
  });

  it('rejects a seed that is not 32 bytes', () => {
    expect(() => seedToWords(new Uint8Array(31))).toThrow(/32 bytes/);
  });
});
