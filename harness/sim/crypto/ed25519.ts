// ed25519 scalar and point helpers in Monero's conventions: scalars are 32
// little-endian bytes reduced mod l, public keys are compressed points.
import { ed25519 } from '@noble/curves/ed25519.js';

const Point = ed25519.Point;

/** Order of the ed25519 base point: 2^252 + 27742317777372353535851937790883648493. */
export const L = (1n << 252n) + 27742317777372353535851937790883648493n;

/** Little-endian bytes -> bigint. */
export function bytesToNumberLE(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i] as number);
  return n;
}

/** bigint -> `size` little-endian bytes (the value must fit). */
export function numberToBytesLE(n: bigint, size = 32): Uint8Array {
  if (n < 0n || n >= 1n << BigInt(8 * size)) throw new RangeError(`value does not fit in ${size} bytes`);
  const out = new Uint8Array(size);
  let v = n;
  for (let i = 0; i < size; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Monero's sc_reduce32: 32 little-endian bytes mod l, as a bigint. */
export function scReduce32(bytes32: Uint8Array): bigint {
  if (bytes32.length !== 32) throw new RangeError('sc_reduce32 needs 32 bytes');
  return bytesToNumberLE(bytes32) % L;
}

/** sc_reduce32 as 32 little-endian bytes (a canonical scalar). */
export function scReduce32Bytes(bytes32: Uint8Array): Uint8Array {
  return numberToBytesLE(scReduce32(bytes32));
}

/**
 * scalar·G, compressed to 32 bytes (the ed25519 / Monero public key encoding).
 * Variable-time (noble's multiplyUnsafe, about a third faster): the simulator's
 * keys guard nothing, and a test run may derive keys for hundreds of wallets.
 */
export function scalarMultBase(scalar: bigint): Uint8Array {
  const s = ((scalar % L) + L) % L;
  return Point.BASE.multiplyUnsafe(s).toBytes();
}

/** scalar·P for a compressed point P (rct::scalarmultKey, variable-time), compressed. */
export function scalarMultKey(point: Uint8Array, scalar: bigint): Uint8Array {
  return Point.fromBytes(point)
    .multiplyUnsafe(((scalar % L) + L) % L)
    .toBytes();
}

/** Public key of a 32-byte little-endian secret scalar (reduced mod l first). */
export function secretToPublic(secret: Uint8Array): Uint8Array {
  return scalarMultBase(scReduce32(secret));
}

/** True when `key` is 32 bytes encoding a point on the curve (Monero's check_key). */
export function isValidPublicKey(key: Uint8Array): boolean {
  if (key.length !== 32) return false;
  try {
    Point.fromBytes(key);
    return true;
  } catch {
    return false;
  }
}
