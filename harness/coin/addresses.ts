// An address of a chain read down to its keys (the checksum checked), and whether a view key is the one of an
// address: what the explorer checks before it opens a view-only wallet (generate_from_keys checks neither:
// wallet2::generate keeps whatever it is given). A CN address's view key k_v is the secret of its view public key
// (k_v·G). Salvium v1.1.3c's generate_from_keys takes, for a Carrot address, the view-balance secret s_vb
// (query_key s_view_balance): the address's view public key is k_vi·G, k_vi = H_n[s_vb]("Carrot incoming view key"),
// H_n being blake2b-512 keyed with s_vb of the length-prefixed domain, reduced mod l (src/carrot_core).
//   base58( varint(prefix) ‖ spend public key (32) ‖ view public key (32) [‖ payment id (8)] ‖ checksum (4) )
// where the checksum is the first 4 bytes of Keccak-256 (the original Keccak) of what precedes it.
import { ed25519 } from '@noble/curves/ed25519.js';
import { blake2b } from '@noble/hashes/blake2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58Decode, decodeVarint } from '../sim/index.js';
import type { AddressPrefix, CoinSpec } from './coins.js';

export interface DecodedAddress extends AddressPrefix {
  spendPublicKey: Uint8Array;
  viewPublicKey: Uint8Array;
}

/** The order of ed25519's base point: a secret key is a scalar below it (Monero's sc_check). */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

const equal = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The address's kind and keys on `coin`, or undefined when it is not one of that coin's (or its checksum fails). */
export function decodeAddress(coin: CoinSpec, text: string): DecodedAddress | undefined {
  if (text.length < 90 || text.length > 120) return undefined;
  const raw = base58Decode(text);
  const tag = raw && decodeVarint(raw);
  if (!raw || !tag) return undefined;
  const prefix = coin.addressPrefixes.find((p) => p.prefix === tag.value);
  if (!prefix) return undefined;
  const body = raw.subarray(0, raw.length - 4);
  if (raw.length - tag.length !== (prefix.type === 'integrated' ? 76 : 68)) return undefined;
  if (!equal(keccak_256(body).subarray(0, 4), raw.subarray(raw.length - 4))) return undefined;
  return {
    ...prefix,
    spendPublicKey: raw.slice(tag.length, tag.length + 32),
    viewPublicKey: raw.slice(tag.length + 32, tag.length + 64),
  };
}

/** A secret key as 64 hex digits: a canonical scalar (little-endian, below the group order), or undefined. */
export function secretKeyScalar(hex: string): bigint | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return undefined;
  const n = BigInt(`0x${Buffer.from(hex, 'hex').reverse().toString('hex')}`);
  return n > 0n && n < L ? n : undefined;
}

/** Whether the secret key `scalar` is the one of `publicKey` (publicKey = scalar·G). */
export function pairsWith(scalar: bigint, publicKey: Uint8Array): boolean {
  return equal(ed25519.Point.BASE.multiply(scalar).toBytes(), publicKey);
}

/** Carrot's k_vi of a view-balance secret s_vb (32 bytes). */
export function carrotViewIncoming(viewBalance: Uint8Array): bigint {
  const domain = new TextEncoder().encode('Carrot incoming view key');
  const wide = blake2b(Uint8Array.of(domain.length, ...domain), { key: viewBalance, dkLen: 64 });
  return BigInt(`0x${Buffer.from(wide).reverse().toString('hex')}`) % L;
}
