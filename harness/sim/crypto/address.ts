// Salvium / Monero public address text:
//   base58( varint(prefix) ‖ spendPub(32) ‖ viewPub(32) [‖ paymentId(8)] ‖ checksum(4) )
// where checksum = first 4 bytes of Keccak-256 (original Keccak, not NIST SHA3)
// of everything before it. The prefix alone tells coin, network, family and type.
import { keccak_256 } from '@noble/hashes/sha3.js';
import { LRUCache } from 'lru-cache';
import { decode as base58Decode, encode as base58Encode } from './base58.js';
import { isValidPublicKey } from './ed25519.js';
import { concatBytes } from './hex.js';
import { decodeVarint, encodeVarint } from './varint.js';

export type Network = 'mainnet' | 'testnet' | 'stagenet';
/** Salvium legacy CryptoNote ('cn') vs Carrot; Monero addresses are always 'cn'. */
export type AddressFamily = 'cn' | 'carrot';
export type AddressType = 'standard' | 'subaddress' | 'integrated';
export type Coin = 'salvium' | 'monero';

export interface DecodedAddress {
  coin: Coin;
  network: Network;
  family: AddressFamily;
  type: AddressType;
  spendPublicKey: Uint8Array;
  viewPublicKey: Uint8Array;
  /** 8 bytes, only for integrated addresses. */
  paymentId?: Uint8Array;
}

export interface AddressPrefix {
  coin: Coin;
  network: Network;
  family: AddressFamily;
  type: AddressType;
  prefix: number;
}

const KEY_SIZE = 32;
const PAYMENT_ID_SIZE = 8;
const CHECKSUM_SIZE = 4;

/**
 * Every known prefix. Salvium values: src/cryptonote_config.h of the Salvium
 * source (namespaces config, config::testnet, config::stagenet; the CARROT_*
 * constants exist from the Carrot release on). Monero values: Monero's
 * src/cryptonote_config.h. Salvium regtest ("fakechain") uses the mainnet set.
 */
export const ADDRESS_PREFIXES: readonly AddressPrefix[] = Object.freeze(
  [
    // Salvium, CryptoNote (legacy)
    { coin: 'salvium', network: 'mainnet', family: 'cn', type: 'standard', prefix: 0x3ef318 }, // SaLv
    { coin: 'salvium', network: 'mainnet', family: 'cn', type: 'integrated', prefix: 0x55ef318 }, // SaLvi
    { coin: 'salvium', network: 'mainnet', family: 'cn', type: 'subaddress', prefix: 0xf5ef318 }, // SaLvs
    { coin: 'salvium', network: 'testnet', family: 'cn', type: 'standard', prefix: 0x15beb318 }, // SaLvT
    { coin: 'salvium', network: 'testnet', family: 'cn', type: 'integrated', prefix: 0xd055eb318 }, // SaLvTi
    { coin: 'salvium', network: 'testnet', family: 'cn', type: 'subaddress', prefix: 0xa59eb318 }, // SaLvTs
    { coin: 'salvium', network: 'stagenet', family: 'cn', type: 'standard', prefix: 0x149eb318 }, // SaLvS
    { coin: 'salvium', network: 'stagenet', family: 'cn', type: 'integrated', prefix: 0xf343eb318 }, // SaLvSi
    { coin: 'salvium', network: 'stagenet', family: 'cn', type: 'subaddress', prefix: 0x2d47eb318 }, // SaLvSs
    // Salvium, Carrot
    { coin: 'salvium', network: 'mainnet', family: 'carrot', type: 'standard', prefix: 0x180c96 }, // SC1
    { coin: 'salvium', network: 'mainnet', family: 'carrot', type: 'integrated', prefix: 0x2ccc96 }, // SC1i
    { coin: 'salvium', network: 'mainnet', family: 'carrot', type: 'subaddress', prefix: 0x314c96 }, // SC1s
    { coin: 'salvium', network: 'testnet', family: 'carrot', type: 'standard', prefix: 0x254c96 }, // SC1T
    { coin: 'salvium', network: 'testnet', family: 'carrot', type: 'integrated', prefix: 0x1ac50c96 }, // SC1Ti
    { coin: 'salvium', network: 'testnet', family: 'carrot', type: 'subaddress', prefix: 0x3c54c96 }, // SC1Ts
    { coin: 'salvium', network: 'stagenet', family: 'carrot', type: 'standard', prefix: 0x24cc96 }, // SC1S
    { coin: 'salvium', network: 'stagenet', family: 'carrot', type: 'integrated', prefix: 0x1a848c96 }, // SC1Si
    { coin: 'salvium', network: 'stagenet', family: 'carrot', type: 'subaddress', prefix: 0x384cc96 }, // SC1Ss
    // Monero
    { coin: 'monero', network: 'mainnet', family: 'cn', type: 'standard', prefix: 18 }, // 4
    { coin: 'monero', network: 'mainnet', family: 'cn', type: 'integrated', prefix: 19 }, // 4
    { coin: 'monero', network: 'mainnet', family: 'cn', type: 'subaddress', prefix: 42 }, // 8
    { coin: 'monero', network: 'testnet', family: 'cn', type: 'standard', prefix: 53 }, // 9/A
    { coin: 'monero', network: 'testnet', family: 'cn', type: 'integrated', prefix: 54 }, // A
    { coin: 'monero', network: 'testnet', family: 'cn', type: 'subaddress', prefix: 63 }, // B
    { coin: 'monero', network: 'stagenet', family: 'cn', type: 'standard', prefix: 24 }, // 5
    { coin: 'monero', network: 'stagenet', family: 'cn', type: 'integrated', prefix: 25 }, // 5
    { coin: 'monero', network: 'stagenet', family: 'cn', type: 'subaddress', prefix: 36 }, // 7
  ].map((p) => Object.freeze(p as AddressPrefix)),
);

const BY_PREFIX = new Map<number, AddressPrefix>(ADDRESS_PREFIXES.map((p) => [p.prefix, p]));
const BY_KIND = new Map<string, AddressPrefix>(
  ADDRESS_PREFIXES.map((p) => [kindKey(p.coin, p.network, p.family, p.type), p]),
);

function kindKey(coin: Coin, network: Network, family: AddressFamily, type: AddressType): string {
  return `${coin}/${network}/${family}/${type}`;
}

/** The numeric prefix for a kind of address, or undefined when none is known (e.g. Monero Carrot). */
export function addressPrefix(
  network: Network,
  family: AddressFamily,
  type: AddressType,
  coin: Coin = 'salvium',
): number | undefined {
  return BY_KIND.get(kindKey(coin, network, family, type))?.prefix;
}

/** Encodes an address; throws on wrong key / payment id sizes or an unknown kind. */
export function encodeAddress(a: Omit<DecodedAddress, 'coin'> & { coin?: Coin }): string {
  const coin = a.coin ?? 'salvium';
  const prefix = addressPrefix(a.network, a.family, a.type, coin);
  if (prefix === undefined) throw new Error(`no address prefix for ${kindKey(coin, a.network, a.family, a.type)}`);
  if (a.spendPublicKey.length !== KEY_SIZE) throw new Error(`spend public key must be ${KEY_SIZE} bytes`);
  if (a.viewPublicKey.length !== KEY_SIZE) throw new Error(`view public key must be ${KEY_SIZE} bytes`);
  const parts = [encodeVarint(prefix), a.spendPublicKey, a.viewPublicKey];
  if (a.type === 'integrated') {
    if (a.paymentId?.length !== PAYMENT_ID_SIZE)
      throw new Error(`integrated address needs an ${PAYMENT_ID_SIZE}-byte payment id`);
    parts.push(a.paymentId);
  } else if (a.paymentId !== undefined) {
    throw new Error('only integrated addresses carry a payment id');
  }
  const body = concatBytes(...parts);
  return base58Encode(concatBytes(body, keccak_256(body).subarray(0, CHECKSUM_SIZE)));
}

/** The same keys (and payment id) under the other family's prefix; text that is no address stays as it is. */
export function inFamily(text: string, family: AddressFamily): string {
  const d = decodeAddress(text);
  if (!d || d.family === family) return text;
  return encodeAddress({ ...d, family });
}

/**
 * Addresses decoded lately, by text: checking that an address's keys are curve points is most of what a transfer
 * costs the simulated wallet and daemon, and a testnet pays the same few addresses again and again.
 */
const decoded = new LRUCache<string, { address: DecodedAddress | null }>({ max: 4096 });

/**
 * Decodes an address; null if not base58, unknown prefix, wrong length, bad
 * checksum, or a key that is not a valid ed25519 point. The answer is shared: never change it.
 */
export function decodeAddress(text: string): DecodedAddress | null {
  const known = decoded.get(text);
  if (known) return known.address;
  const address = decodeUncached(text);
  decoded.set(text, { address });
  return address;
}

function decodeUncached(text: string): DecodedAddress | null {
  const raw = base58Decode(text);
  if (raw === null) return null;
  const tag = decodeVarint(raw);
  if (tag === null) return null;
  const kind = BY_PREFIX.get(tag.value);
  if (kind === undefined) return null;
  const extra = kind.type === 'integrated' ? PAYMENT_ID_SIZE : 0;
  if (raw.length !== tag.length + 2 * KEY_SIZE + extra + CHECKSUM_SIZE) return null;
  const bodyEnd = raw.length - CHECKSUM_SIZE;
  const sum = keccak_256(raw.subarray(0, bodyEnd));
  for (let i = 0; i < CHECKSUM_SIZE; i++) if (sum[i] !== raw[bodyEnd + i]) return null;
  // Base58 blocks are canonical, so a text that decodes re-encodes to itself.
  const at = tag.length;
  const spendPublicKey = raw.slice(at, at + KEY_SIZE);
  const viewPublicKey = raw.slice(at + KEY_SIZE, at + 2 * KEY_SIZE);
  // Like Monero's get_account_address_from_str: both keys must be curve points.
  if (!isValidPublicKey(spendPublicKey) || !isValidPublicKey(viewPublicKey)) return null;
  const out: DecodedAddress = {
    coin: kind.coin,
    network: kind.network,
    family: kind.family,
    type: kind.type,
    spendPublicKey,
    viewPublicKey,
  };
  if (extra > 0) out.paymentId = raw.slice(at + 2 * KEY_SIZE, at + 2 * KEY_SIZE + extra);
  return out;
}

/** True when `text` is a valid address (optionally of the given kind). */
export function isValidAddress(
  text: string,
  want: Partial<Pick<DecodedAddress, 'coin' | 'network' | 'family' | 'type'>> = {},
): boolean {
  const d = decodeAddress(text);
  if (d === null) return false;
  return (
    (want.coin === undefined || want.coin === d.coin) &&
    (want.network === undefined || want.network === d.network) &&
    (want.family === undefined || want.family === d.family) &&
    (want.type === undefined || want.type === d.type)
  );
}
