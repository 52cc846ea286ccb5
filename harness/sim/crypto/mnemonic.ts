// Monero's 25-word (Electrum-style) seed mnemonic, English list only.
// Mirrors src/mnemonics/electrum-words.cpp: each little-endian uint32 x of the
// 32-byte seed becomes 3 words
//   w1 = x % n, w2 = (x / n + w1) % n, w3 = (x / n / n + w2) % n   (n = 1626),
// and a 25th checksum word repeats words[crc32(first 3 chars of each word) % 24].
import { crc32 } from 'node:zlib';
import { ENGLISH_PREFIX_LENGTH, ENGLISH_WORDS } from './wordlist-english.js';

const N = ENGLISH_WORDS.length; // 1626
const SEED_BYTES = 32;
const SEED_WORDS = 24;

const INDEX_BY_PREFIX = new Map<string, number>(ENGLISH_WORDS.map((w, i) => [prefixOf(w), i]));

function prefixOf(word: string): string {
  // Monero trims by UTF-8 characters; the English list is ASCII.
  return Array.from(word).slice(0, ENGLISH_PREFIX_LENGTH).join('');
}

function checksumIndex(words: readonly string[]): number {
  return crc32(words.map(prefixOf).join('')) % words.length;
}

/** The 25 words of a 32-byte seed (24 data words + checksum word). */
export function seedToWords(seed: Uint8Array): string[] {
  if (seed.length !== SEED_BYTES) throw new Error(`seed must be ${SEED_BYTES} bytes, got ${seed.length}`);
  const view = new DataView(seed.buffer, seed.byteOffset, seed.byteLength);
  const words: string[] = [];
  for (let i = 0; i < SEED_BYTES / 4; i++) {
    const x = view.getUint32(4 * i, true);
    const w1 = x % N;
    const w2 = (Math.floor(x / N) + w1) % N;
    const w3 = (Math.floor(Math.floor(x / N) / N) + w2) % N;
    words.push(ENGLISH_WORDS[w1] as string, ENGLISH_WORDS[w2] as string, ENGLISH_WORDS[w3] as string);
  }
  words.push(words[checksumIndex(words)] as string);
  return words;
}

/** The mnemonic as one space-separated string. */
export function seedToMnemonic(seed: Uint8Array): string {
  return seedToWords(seed).join(' ');
}

/**
 * The 32-byte seed of a 25-word mnemonic (or 24 words without checksum). Words
 * are matched case-insensitively by their first 3 characters, as Monero does
 * for English. Throws an Error naming the problem on a wrong word count, an
 * unknown word, a word triple that encodes no 32-bit value, or a bad checksum.
 */
export function wordsToSeed(words: string | readonly string[]): Uint8Array {
  const list = (typeof words === 'string' ? words.trim().split(/\s+/) : words.map((w) => w.trim())).filter(
    (w) => w !== '',
  );
  if (list.length !== SEED_WORDS && list.length !== SEED_WORDS + 1) {
    throw new Error(`invalid seed: expected 25 words (or 24 without checksum), got ${list.length}`);
  }
  const lower = list.map((w) => w.toLowerCase());
  const indices = lower.map((w, i) => {
    const index = INDEX_BY_PREFIX.get(prefixOf(w));
    if (index === undefined)
      throw new Error(`invalid seed: word ${i + 1} "${list[i]}" is not in the English word list`);
    return index;
  });
  const data = lower.slice(0, SEED_WORDS);
  if (lower.length === SEED_WORDS + 1) {
    const expected = data[checksumIndex(data)] as string;
    if (prefixOf(expected) !== prefixOf(lower[SEED_WORDS] as string)) {
      throw new Error(
        `invalid seed: checksum word "${list[SEED_WORDS]}" does not match (expected "${ENGLISH_WORDS[INDEX_BY_PREFIX.get(prefixOf(expected)) as number]}")`,
      );
    }
  }
  const seed = new Uint8Array(SEED_BYTES);
  const view = new DataView(seed.buffer);
  for (let i = 0; i < SEED_WORDS / 3; i++) {
    const w1 = indices[3 * i] as number;
    const w2 = indices[3 * i + 1] as number;
    const w3 = indices[3 * i + 2] as number;
    // Monero computes this in uint32 arithmetic (wrapping) and then checks x % n == w1.
    const x = (w1 + N * ((N - w1 + w2) % N) + N * N * ((N - w2 + w3) % N)) % 0x100000000;
    if (x % N !== w1) {
      throw new Error(`invalid seed: words ${3 * i + 1}-${3 * i + 3} do not encode a valid value`);
    }
    view.setUint32(4 * i, x, true);
  }
  return seed;
}
