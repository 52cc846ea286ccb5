// Hex <-> bytes helpers with strict validation (lowercase output).

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

/** Lowercase hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += (b < 16 ? '0' : '') + b.toString(16);
  return out;
}

/** Bytes of an even-length hex string; throws on anything else. */
export function fromHex(hex: string): Uint8Array {
  if (!HEX_RE.test(hex)) throw new Error(`invalid hex string (${hex.length} chars)`);
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** True when `text` is exactly `bytes` bytes of hex. */
export function isHex(text: string, bytes?: number): boolean {
  return HEX_RE.test(text) && (bytes === undefined || text.length === bytes * 2);
}

/** Concatenation of byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
