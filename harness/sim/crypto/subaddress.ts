// Subaddress keys, by a simulator-only derivation (like the simulator's Carrot keys, not the real
// one) chosen so that a wallet can list every spend key of its lookahead window in milliseconds:
//   spend(major, minor) = B + (m_major + minor)·G, with m_0 = 0 and m_j = Hs("saltnet-sim subaddress" ‖ a ‖ j),
//   view(major, minor)  = Hs("saltnet-sim subaddress view" ‖ a ‖ spend)·G,
// where B is the family's spend public key and a its view secret. (0, 0) is the wallet's own
// address; a minor index adds G to the spend key, so a window of minors is one point addition each.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { L, bytesToNumberLE, numberToBytesLE, scalarMultBase } from './ed25519.js';
import { concatBytes, fromHex, toHex } from './hex.js';

const Point = ed25519.Point;
const TEXT = new TextEncoder();
const SPEND_TAG = TEXT.encode('saltnet-sim subaddress');
const VIEW_TAG = TEXT.encode('saltnet-sim subaddress view');

/** One family's keys a subaddress is derived from (hex, as in WalletKeys). */
export interface SubaddressBase {
  spendPublic: string;
  viewSecret: string;
}

const u32le = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};

const hashToScalar = (...parts: Uint8Array[]): bigint => bytesToNumberLE(keccak_256(concatBytes(...parts))) % L;

/** m_major: the scalar every spend key of an account is offset by (0 for account 0). */
function majorOffset(base: SubaddressBase, major: number): bigint {
  return major === 0 ? 0n : hashToScalar(SPEND_TAG, fromHex(base.viewSecret), u32le(major));
}

/** The spend public key of (major, minor), 32 bytes. */
export function subaddressSpendKey(base: SubaddressBase, major: number, minor: number): Uint8Array {
  const offset = (majorOffset(base, major) + BigInt(minor)) % L;
  const b = Point.fromHex(base.spendPublic);
  return offset === 0n ? b.toBytes() : b.add(Point.BASE.multiplyUnsafe(offset)).toBytes();
}

/** The view public key that goes with a subaddress spend key. */
export function subaddressViewKey(base: SubaddressBase, spendKey: Uint8Array): Uint8Array {
  return scalarMultBase(hashToScalar(VIEW_TAG, fromHex(base.viewSecret), spendKey));
}

/** Compressed encodings (hex) of many points, with one field inversion for all (Montgomery's trick). */
function encodeAll(points: InstanceType<typeof Point>[]): string[] {
  const Fp = Point.Fp;
  const inverses = Fp.invertBatch(points.map((p) => p.Z));
  return points.map((p, i) => {
    const x = Fp.mul(p.X, inverses[i]!);
    const bytes = numberToBytesLE(Fp.mul(p.Y, inverses[i]!));
    if (x & 1n) bytes[31]! |= 0x80;
    return toHex(bytes);
  });
}

/** Spend keys (hex) of minors 0 … count-1 of an account, one point addition each. */
export function accountSpendKeys(base: SubaddressBase, major: number, count: number): string[] {
  const points = [];
  const offset = majorOffset(base, major);
  let p = Point.fromHex(base.spendPublic);
  if (offset !== 0n) p = p.add(Point.BASE.multiplyUnsafe(offset));
  for (let i = 0; i < count; i++) {
    points.push(p);
    p = p.add(Point.BASE);
  }
  return encodeAll(points);
}
