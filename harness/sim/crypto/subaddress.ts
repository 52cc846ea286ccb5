// Subaddress keys of both families, as the real wallet derives them (index (major, minor) ≠ (0, 0)):
//   CN (Monero's, src/device/device_default.cpp get_subaddress): m = Hs("SubAddr\0" ‖ a ‖ major ‖ minor),
//     D = B + m·G, C = a·D — with B the CN spend public key and a the CN view secret;
//   Carrot (carrot.ts): K^j_s = k^j_subscal·K_s, K^j_v = k^j_subscal·K_v = k_vi·K^j_s.
// In both, the view key is the family's view secret times the spend key, so whether an address is one
// of a wallet's subaddresses is one scalar multiplication (isSubaddressOf); which index it is takes a
// search of the wallet's lookahead window (wallet/subaddresses.ts).
import { keccak_256 } from '@noble/hashes/sha3.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { AddressFamily } from './address.js';
import { carrotSubaddressScalar, u32le } from './carrot.js';
import { L, bytesToNumberLE, numberToBytesLE, scalarMultKey } from './ed25519.js';
import { concatBytes, fromHex, toHex } from './hex.js';

const Point = ed25519.Point;
type Point = InstanceType<typeof Point>;
const SUBADDR = new TextEncoder().encode('SubAddr\0');

/** The keys one family's subaddresses are derived from (hex, as in WalletKeys). */
export interface SubaddressBase {
  family: AddressFamily;
  /** B (CN) or K_s (Carrot). */
  spendPublic: string;
  /** a (CN) or k_vi (Carrot). */
  viewSecret: string;
  /** s_ga (Carrot only). */
  generateAddress?: string;
}

/** Spend public keys as points, with a precomputed window: a Carrot lookahead multiplies K_s thousands of times. */
const spendPoints = new Map<string, Point>();
function spendPoint(hex: string): Point {
  let p = spendPoints.get(hex);
  if (!p) {
    if (spendPoints.size > 64) spendPoints.clear();
    spendPoints.set(hex, (p = Point.fromHex(hex).precompute(8)));
  }
  return p;
}

/** The spend key of (major, minor) ≠ (0, 0) as a point. */
function spendPointOf(base: SubaddressBase, major: number, minor: number): Point {
  if (base.family === 'carrot') {
    const k = carrotSubaddressScalar(fromHex(base.generateAddress ?? ''), fromHex(base.spendPublic), major, minor);
    return spendPoint(base.spendPublic).multiplyUnsafe(k);
  }
  const m = bytesToNumberLE(keccak_256(concatBytes(SUBADDR, fromHex(base.viewSecret), u32le(major), u32le(minor)))) % L;
  return spendPoint(base.spendPublic).add(Point.BASE.multiplyUnsafe(m));
}

/** The spend public key of subaddress (major, minor) ≠ (0, 0), 32 bytes. */
export function subaddressSpendKey(base: SubaddressBase, major: number, minor: number): Uint8Array {
  return spendPointOf(base, major, minor).toBytes();
}

/** The view public key that goes with a subaddress spend key: the family's view secret times it. */
export function subaddressViewKey(base: SubaddressBase, spendKey: Uint8Array): Uint8Array {
  return scalarMultKey(spendKey, bytesToNumberLE(fromHex(base.viewSecret)));
}

/** Whether (spend, view) is a subaddress of these keys (of any index): view = view secret · spend. */
export function isSubaddressOf(base: SubaddressBase, spendKey: Uint8Array, viewKey: Uint8Array): boolean {
  return toHex(subaddressViewKey(base, spendKey)) === toHex(viewKey);
}

/** Compressed encodings (hex) of many points, with one field inversion for all (Montgomery's trick). */
function encodeAll(points: Point[]): string[] {
  const Fp = Point.Fp;
  const inverses = Fp.invertBatch(points.map((p) => p.Z));
  return points.map((p, i) => {
    const x = Fp.mul(p.X, inverses[i]!);
    const bytes = numberToBytesLE(Fp.mul(p.Y, inverses[i]!));
    if (x & 1n) bytes[31]! |= 0x80;
    return toHex(bytes);
  });
}

/** Spend keys (hex) of minors from … from+count-1 of an account; (0, 0) is the family's own spend key. */
export function accountSpendKeys(base: SubaddressBase, major: number, from: number, count: number): string[] {
  const points: Point[] = [];
  for (let minor = from; minor < from + count; minor++)
    points.push(major === 0 && minor === 0 ? spendPoint(base.spendPublic) : spendPointOf(base, major, minor));
  return encodeAll(points);
}
