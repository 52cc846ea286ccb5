// Monero's block-wise base58 (NOT Bitcoin's): the input is cut into 8-byte
// blocks, each encoded on its own as a big-endian number into exactly 11
// characters (left-padded with '1'); a last, shorter block of n bytes takes
// ENCODED_BLOCK_SIZES[n] characters. Mirrors src/common/base58.cpp.

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const FULL_BLOCK_SIZE = 8;
const FULL_ENCODED_BLOCK_SIZE = 11;
/** Encoded length for a block of 0..8 bytes. */
const ENCODED_BLOCK_SIZES = [0, 2, 3, 5, 6, 7, 9, 10, 11] as const;

const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

const UINT64_MAX = (1n << 64n) - 1n;

function encodeBlock(bytes: Uint8Array, start: number, size: number, out: string[]): void {
  let num = 0n;
  for (let i = 0; i < size; i++) num = (num << 8n) | BigInt(bytes[start + i] as number);
  const width = ENCODED_BLOCK_SIZES[size] as number;
  const chars = new Array<string>(width).fill(ALPHABET[0] as string);
  let i = width;
  while (num > 0n) {
    chars[--i] = ALPHABET[Number(num % 58n)] as string;
    num /= 58n;
  }
  out.push(chars.join(''));
}

/** Encodes bytes to Monero base58 text. */
export function encode(bytes: Uint8Array): string {
  const out: string[] = [];
  const full = Math.floor(bytes.length / FULL_BLOCK_SIZE);
  for (let b = 0; b < full; b++) encodeBlock(bytes, b * FULL_BLOCK_SIZE, FULL_BLOCK_SIZE, out);
  const rest = bytes.length % FULL_BLOCK_SIZE;
  if (rest > 0) encodeBlock(bytes, full * FULL_BLOCK_SIZE, rest, out);
  return out.join('');
}

function decodeBlock(text: string, start: number, width: number, size: number, out: Uint8Array, at: number): boolean {
  let num = 0n;
  for (let i = start; i < start + width; i++) {
    const code = text.charCodeAt(i);
    const digit = code < 128 ? (DIGIT[code] as number) : -1;
    if (digit < 0) return false;
    num = num * 58n + BigInt(digit);
    if (num > UINT64_MAX) return false;
  }
  if (size < FULL_BLOCK_SIZE && num >= 1n << BigInt(8 * size)) return false;
  for (let i = size - 1; i >= 0; i--) {
    out[at + i] = Number(num & 0xffn);
    num >>= 8n;
  }
  return true;
}

/** Decodes Monero base58 text; null on an invalid character, block length or overflow. */
export function decode(text: string): Uint8Array | null {
  const full = Math.floor(text.length / FULL_ENCODED_BLOCK_SIZE);
  const restWidth = text.length % FULL_ENCODED_BLOCK_SIZE;
  const restSize = (ENCODED_BLOCK_SIZES as readonly number[]).indexOf(restWidth);
  if (restSize < 0) return null;
  const out = new Uint8Array(full * FULL_BLOCK_SIZE + restSize);
  for (let b = 0; b < full; b++) {
    if (
      !decodeBlock(
        text,
        b * FULL_ENCODED_BLOCK_SIZE,
        FULL_ENCODED_BLOCK_SIZE,
        FULL_BLOCK_SIZE,
        out,
        b * FULL_BLOCK_SIZE,
      )
    )
      return null;
  }
  if (
    restSize > 0 &&
    !decodeBlock(text, full * FULL_ENCODED_BLOCK_SIZE, restWidth, restSize, out, full * FULL_BLOCK_SIZE)
  )
    return null;
  return out;
}
