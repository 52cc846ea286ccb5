// Monero varint: 7 bits per byte, least significant group first, high bit set
// on every byte but the last. Used for the address prefix (Salvium prefixes go
// up to 36 bits, so values are plain numbers up to Number.MAX_SAFE_INTEGER).

/** Encodes a non-negative safe integer. */
export function encodeVarint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`varint value out of range: ${value}`);
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/**
 * Decodes a varint at `offset`. Returns the value and the number of bytes read,
 * or null when the input ends inside the varint, the value exceeds 2^53 - 1,
 * or the encoding is not minimal (a trailing zero group, which Monero rejects).
 */
export function decodeVarint(bytes: Uint8Array, offset = 0): { value: number; length: number } | null {
  let value = 0;
  let scale = 1;
  for (let i = offset; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const group = b & 0x7f;
    value += group * scale;
    if (value > Number.MAX_SAFE_INTEGER) return null;
    if ((b & 0x80) === 0) {
      if (group === 0 && i > offset) return null;
      return { value, length: i - offset + 1 };
    }
    scale *= 0x80;
  }
  return null;
}
