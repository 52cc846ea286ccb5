// Wallet keys. CryptoNote keys follow Monero exactly (so a seed restored in the
// real wallet gives the same CN address); Carrot keys use a documented,
// simulator-only derivation (the real Carrot key hierarchy is not modelled).
import { randomBytes } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeAddress, encodeAddress, type Network } from './address.js';
import { numberToBytesLE, scalarMultBase, scReduce32 } from './ed25519.js';
import { concatBytes, fromHex, toHex } from './hex.js';

export {
  L,
  bytesToNumberLE,
  numberToBytesLE,
  scReduce32,
  scReduce32Bytes,
  scalarMultBase,
  secretToPublic,
  isValidPublicKey,
} from './ed25519.js';

const TEXT = new TextEncoder();
const CARROT_SPEND_TAG = TEXT.encode('saltnet-sim carrot spend');
const CARROT_VIEW_TAG = TEXT.encode('saltnet-sim carrot view');
const CARROT_DEST_TAG = TEXT.encode('saltnet-sim carrot dest');

export interface KeyBytes {
  spendSecret: Uint8Array;
  viewSecret: Uint8Array;
  spendPublic: Uint8Array;
  viewPublic: Uint8Array;
}

function keysFromSecrets(spend: bigint, view: bigint): KeyBytes {
  return {
    spendSecret: numberToBytesLE(spend),
    viewSecret: numberToBytesLE(view),
    spendPublic: scalarMultBase(spend),
    viewPublic: scalarMultBase(view),
  };
}

function seedBytes(seed: Uint8Array | string): Uint8Array {
  const bytes = typeof seed === 'string' ? fromHex(seed) : seed;
  if (bytes.length !== 32) throw new RangeError(`seed must be 32 bytes, got ${bytes.length}`);
  return bytes;
}

/**
 * Monero's key derivation from a 32-byte seed (the 25-word mnemonic's bytes):
 * spend = sc_reduce32(seed); view = sc_reduce32(keccak256(spend)); publics = secret·G.
 */
export function cnKeysFromSeed(seed: Uint8Array | string): KeyBytes {
  const spend = scReduce32(seedBytes(seed));
  const view = scReduce32(keccak_256(numberToBytesLE(spend)));
  return keysFromSecrets(spend, view);
}

/**
 * Simulator-only Carrot keys (NOT the real Carrot derivation):
 * spend = sc_reduce32(keccak256("saltnet-sim carrot spend" ‖ seed)),
 * view  = sc_reduce32(keccak256("saltnet-sim carrot view" ‖ seed)), publics = secret·G.
 */
export function carrotKeysFromSeed(seed: Uint8Array | string): KeyBytes {
  const s = seedBytes(seed);
  const spend = scReduce32(keccak_256(concatBytes(CARROT_SPEND_TAG, s)));
  const view = scReduce32(keccak_256(concatBytes(CARROT_VIEW_TAG, s)));
  return keysFromSecrets(spend, view);
}

/** One family's keys as lowercase hex (64 chars each) plus its standard address. */
export interface WalletKeys {
  spendSecret: string;
  viewSecret: string;
  spendPublic: string;
  viewPublic: string;
  address: string;
}

export interface SimWallet {
  /** The 32-byte seed, 64 hex chars (what the mnemonic encodes). */
  seed: string;
  network: Network;
  cn: WalletKeys;
  carrot: WalletKeys;
  /** CN view secret key, 64 hex (what `query_key key_type=view_key` returns). */
  viewKeyHex: string;
}

function walletKeys(k: KeyBytes, network: Network, family: 'cn' | 'carrot'): WalletKeys {
  return {
    spendSecret: toHex(k.spendSecret),
    viewSecret: toHex(k.viewSecret),
    spendPublic: toHex(k.spendPublic),
    viewPublic: toHex(k.viewPublic),
    address: encodeAddress({
      network,
      family,
      type: 'standard',
      spendPublicKey: k.spendPublic,
      viewPublicKey: k.viewPublic,
    }),
  };
}

/** Both key sets and standard Salvium addresses of a seed on `network`. */
export function walletFromSeed(seed: Uint8Array | string, network: Network): SimWallet {
  const s = seedBytes(seed);
  const cn = walletKeys(cnKeysFromSeed(s), network, 'cn');
  return {
    seed: toHex(s),
    network,
    cn,
    carrot: walletKeys(carrotKeysFromSeed(s), network, 'carrot'),
    viewKeyHex: cn.viewSecret,
  };
}

/**
 * The Carrot address the real wallet records as a transfer's destination: same
 * network, type, spend key (and payment id) as `address`, but view public key
 * replaced by sc_reduce32(keccak256("saltnet-sim carrot dest" ‖ viewPub))·G.
 * A deterministic stand-in; anything that is not a Carrot address is returned unchanged.
 */
export function carrotDestinationDisplayAddress(address: string): string {
  const d = decodeAddress(address);
  if (d === null || d.family !== 'carrot') return address;
  const view = scalarMultBase(scReduce32(keccak_256(concatBytes(CARROT_DEST_TAG, d.viewPublicKey))));
  return encodeAddress({ ...d, viewPublicKey: view });
}

/**
 * Simulated key image of an output: keccak256(utf8(lowercase spendSecretHex) ‖ 0x3a ':' ‖ utf8(outputId)),
 * 64 hex chars. Deterministic per (wallet, output); not a real key image.
 */
export function keyImage(spendSecretHex: string, outputId: string): string {
  return toHex(keccak_256(TEXT.encode(`${spendSecretHex.toLowerCase()}:${outputId}`)));
}

/** `bytes` random bytes from node:crypto, as lowercase hex. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
