// Signatures and proofs in the simulator's own formats, with the real headers (SigV2, OutProofV3,
// InProofV3, SpendProofV1, ReserveProofV2) and sizes: no cryptography, but each one checks out only
// for what it was made for (data and address; tx, address and message; …), so a proof made by one
// simulated wallet verifies in another, and a changed message or address does not.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decode as base58Decode, encode as base58Encode } from '../crypto/base58.js';
import type { DecodedAddress } from '../crypto/address.js';
import { L, bytesToNumberLE, numberToBytesLE } from '../crypto/ed25519.js';
import { concatBytes, toHex } from '../crypto/hex.js';

const TEXT = new TextEncoder();
const hash = (...parts: (Uint8Array | string)[]): Uint8Array =>
  keccak_256(concatBytes(...parts.map((p) => (typeof p === 'string' ? TEXT.encode(p) : p))));

/** `n` bytes from a seed: keccak256 chained (what the simulator puts where a signature's bytes go). */
function stretch(seed: Uint8Array, n: number): Uint8Array {
  const out: Uint8Array[] = [];
  let h = seed;
  for (let got = 0; got < n; got += 32) out.push((h = hash(h, 'more')));
  return concatBytes(seed, ...out).subarray(0, n);
}

/** The keys an address stands for: its spend and view public keys (a payment id is not part of them). */
const keysOf = (a: DecodedAddress): Uint8Array => concatBytes(a.spendPublicKey, a.viewPublicKey);

export type SignatureMode = 'spend' | 'view';

/** `sign`: "SigV2" and 64 bytes that only this data and address (and mode) give. */
export function signMessage(data: string, address: DecodedAddress, mode: SignatureMode): string {
  return `SigV2${base58Encode(stretch(hash('saltnet-sim sign', keysOf(address), mode, data), 64))}`;
}

/** `verify`: which mode the signature was made with for this data and address, if any. */
export function verifyMessage(data: string, address: DecodedAddress, signature: string): SignatureMode | undefined {
  return (['spend', 'view'] as const).find((mode) => signMessage(data, address, mode) === signature);
}

/** A tx's secret key (get_tx_key): a canonical scalar derived from its id. */
export const txKey = (txid: string): string =>
  toHex(numberToBytesLE(bytesToNumberLE(hash('saltnet-sim tx key', txid)) % L));

export type ProofDirection = 'Out' | 'In';

/** get_tx_proof: "OutProofV3" (the sender's) or "InProofV3" (the receiver's) and 98 bytes. */
export function txProof(direction: ProofDirection, txid: string, address: DecodedAddress, message: string): string {
  const body = stretch(hash('saltnet-sim tx proof', direction, txid, keysOf(address), message), 98);
  return `${direction}ProofV3${base58Encode(body)}`;
}

/** get_spend_proof's format: "SpendProofV1" and a signature per input. */
export function spendProof(txid: string, keyImages: string[], message: string): string {
  return `SpendProofV1${base58Encode(stretch(hash('saltnet-sim spend proof', txid, ...keyImages, message), 64 * keyImages.length))}`;
}

/** A reserve proof's content: the outputs it shows (id, amount, key image) for an address and message. */
export interface ReserveEntry {
  id: string;
  amount: string;
  keyImage: string;
}

export function reserveProof(address: DecodedAddress, message: string, entries: ReserveEntry[]): string {
  const body = TEXT.encode(JSON.stringify(entries));
  const tag = hash('saltnet-sim reserve proof', keysOf(address), message, body);
  return `ReserveProofV2${base58Encode(concatBytes(tag, body))}`;
}

/** The entries of a reserve proof made for this address and message; 'decoding' or 'address' when it is not one. */
export function openReserveProof(
  address: DecodedAddress,
  message: string,
  signature: string,
): ReserveEntry[] | 'decoding' | 'address' {
  const raw = base58Decode(signature.slice('ReserveProofV2'.length));
  if (!raw || raw.length < 32) return 'decoding';
  const body = raw.subarray(32);
  let entries: ReserveEntry[];
  try {
    entries = JSON.parse(new TextDecoder().decode(body)) as ReserveEntry[];
  } catch {
    return 'decoding';
  }
  const tag = hash('saltnet-sim reserve proof', keysOf(address), message, body);
  return toHex(tag) === toHex(raw.subarray(0, 32)) ? entries : 'address';
}
