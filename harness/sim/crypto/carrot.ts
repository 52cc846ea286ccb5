// Salvium's Carrot key hierarchy and addresses (Salvium v1.1.3c: src/carrot_core/account_secrets.cpp,
// address_utils.cpp, destination.cpp, hash_functions.cpp, transcript_fixed.h, config.h; the wallet's
// account: carrot_and_legacy_account::set_carrot_keys in src/carrot_core/account.cpp):
//   s_m   = the CN spend secret key k_s (the seed reduced mod l)
//   k_ps  = H_n[s_m]("Carrot prove-spend key")        s_vb = H_32[s_m]("Carrot view-balance secret")
//   k_vi  = H_n[s_vb]("Carrot incoming view key")     k_gi = H_n[s_vb]("Carrot generate-image key")
//   s_ga  = H_32[s_vb]("Carrot generate-address secret")
//   K_s   = k_gi G + k_ps T (the account spend key)   K_v = k_vi K_s (the account view key)
//   main address (K_s, k_vi G); integrated address the same keys with a payment id;
//   subaddress j = (major, minor) ≠ (0, 0): s^j_gen = H_32[s_ga]("Carrot address index generator", major, minor),
//   k^j_subscal = H_n[s^j_gen]("Carrot subaddress scalar", K_s, major, minor), (K^j_s, K^j_v) = k^j_subscal (K_s, K_v).
// H_32[k](x) is blake2b-256 of the transcript x keyed with the 32-byte k; H_n[k](x) blake2b-512 reduced mod l.
// A transcript is the domain separator prefixed by its length (one byte), then each field: points as 32 bytes,
// indices as u32 little-endian.
import { blake2b } from '@noble/hashes/blake2.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { L, bytesToNumberLE, numberToBytesLE, scalarMultBase, scalarMultKey } from './ed25519.js';
import { concatBytes } from './hex.js';

const Point = ed25519.Point;
type Point = InstanceType<typeof Point>;
const TEXT = new TextEncoder();

/** The second generator T = H_p(keccak("Monero Generator T")), as src/crypto/generators.cpp holds it. */
export const GENERATOR_T = Point.fromHex('966fc66b82cd56cf85eaec801c42845f5f408878d1561e00d3d7ded2794d094f').precompute(
  8,
);

/** sp::make_fixed_transcript: length-prefixed domain separator, then the fields. */
export function transcript(domain: string, ...fields: Uint8Array[]): Uint8Array {
  const sep = TEXT.encode(domain);
  return concatBytes(Uint8Array.of(sep.length), sep, ...fields);
}

export const u32le = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};

/** derive_bytes_32: H_32[key](data). */
export const deriveBytes32 = (key: Uint8Array, data: Uint8Array): Uint8Array => blake2b(data, { key, dkLen: 32 });

/** derive_scalar: H_n[key](data), 64 bytes of blake2b reduced mod l. */
export const deriveScalar = (key: Uint8Array, data: Uint8Array): bigint =>
  bytesToNumberLE(blake2b(data, { key, dkLen: 64 })) % L;

/** A wallet's Carrot secrets and public keys (32-byte values). */
export interface CarrotAccountKeys {
  proveSpend: Uint8Array;
  viewBalance: Uint8Array;
  viewIncoming: Uint8Array;
  generateImage: Uint8Array;
  generateAddress: Uint8Array;
  /** K_s: the spend key of the account and of its main address. */
  spendPublic: Uint8Array;
  /** k_vi G: the main address's view key. */
  mainViewPublic: Uint8Array;
}

/** carrot_and_legacy_account::set_carrot_keys, from s_master (the CN spend secret key, 32 bytes). */
export function carrotAccountKeys(sMaster: Uint8Array): CarrotAccountKeys {
  const proveSpend = deriveScalar(sMaster, transcript('Carrot prove-spend key'));
  const viewBalance = deriveBytes32(sMaster, transcript('Carrot view-balance secret'));
  const viewIncoming = deriveScalar(viewBalance, transcript('Carrot incoming view key'));
  const generateImage = deriveScalar(viewBalance, transcript('Carrot generate-image key'));
  const generateAddress = deriveBytes32(viewBalance, transcript('Carrot generate-address secret'));
  const spend = Point.BASE.multiplyUnsafe(generateImage).add(GENERATOR_T.multiplyUnsafe(proveSpend));
  return {
    proveSpend: numberToBytesLE(proveSpend),
    viewBalance,
    viewIncoming: numberToBytesLE(viewIncoming),
    generateImage: numberToBytesLE(generateImage),
    generateAddress,
    spendPublic: spend.toBytes(),
    mainViewPublic: scalarMultBase(viewIncoming),
  };
}

/**
 * K_v = k_vi·K_s: the account's view key (the one subaddresses scale, the one the wallet CLI's `viewkey` shows as
 * "Carrot public", and the view key of the address the wallet records for a payment to its main address).
 */
export function carrotAccountViewKey(viewIncoming: Uint8Array, spendPublic: Uint8Array): Uint8Array {
  return scalarMultKey(spendPublic, bytesToNumberLE(viewIncoming));
}

/** k^j_subscal of subaddress (major, minor) ≠ (0, 0), from s_ga and K_s (32 bytes each). */
export function carrotSubaddressScalar(
  generateAddress: Uint8Array,
  spendPublic: Uint8Array,
  major: number,
  minor: number,
): bigint {
  const index = [u32le(major), u32le(minor)];
  const generator = deriveBytes32(generateAddress, transcript('Carrot address index generator', ...index));
  return deriveScalar(generator, transcript('Carrot subaddress scalar', spendPublic, ...index));
}

/** K^j_s = k^j_subscal K_s: the spend key of subaddress (major, minor) ≠ (0, 0), as a point. */
export function carrotSubaddressSpendPoint(
  generateAddress: Uint8Array,
  spendPublic: Point,
  spendBytes: Uint8Array,
  major: number,
  minor: number,
): Point {
  return spendPublic.multiplyUnsafe(carrotSubaddressScalar(generateAddress, spendBytes, major, minor));
}
