// Wallet keys, as the real wallet derives them from a seed: the CryptoNote keys Monero's way, the Carrot
// keys from the CN spend secret key (carrot.ts), so a seed gives the real wallet's addresses.
import { randomBytes } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeAddress, encodeAddress, type Network } from './address.js';
import { carrotAccountKeys } from './carrot.js';
import { numberToBytesLE, scalarMultBase, scalarMultKey, scReduce32 } from './ed25519.js';
import { fromHex, toHex } from './hex.js';

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

/** One family's keys as lowercase hex (64 chars each) plus its standard address. */
export interface WalletKeys {
  spendSecret: string;
  viewSecret: string;
  spendPublic: string;
  viewPublic: string;
  address: string;
}

/**
 * The Carrot keys: spendSecret k_ps (prove-spend), viewSecret k_vi (incoming view), spendPublic K_s, viewPublic k_vi·G
 * (the main address's view key), and the rest of the hierarchy (carrot.ts).
 */
export interface CarrotWalletKeys extends WalletKeys {
  /** s_vb */
  viewBalance: string;
  /** k_gi */
  generateImage: string;
  /** s_ga */
  generateAddress: string;
}

export interface SimWallet {
  /** The 32-byte seed, 64 hex chars (what the mnemonic encodes). */
  seed: string;
  network: Network;
  cn: WalletKeys;
  carrot: CarrotWalletKeys;
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

/** The Carrot keys of a wallet whose CN spend secret key (s_master) is `spendSecret`. */
export function carrotKeysFromSpendSecret(spendSecret: Uint8Array, network: Network): CarrotWalletKeys {
  const c = carrotAccountKeys(spendSecret);
  return {
    ...walletKeys(
      {
        spendSecret: c.proveSpend,
        viewSecret: c.viewIncoming,
        spendPublic: c.spendPublic,
        viewPublic: c.mainViewPublic,
      },
      network,
      'carrot',
    ),
    viewBalance: toHex(c.viewBalance),
    generateImage: toHex(c.generateImage),
    generateAddress: toHex(c.generateAddress),
  };
}

/** Both key sets and standard Salvium addresses of a seed on `network`. */
export function walletFromSeed(seed: Uint8Array | string, network: Network): SimWallet {
  const s = seedBytes(seed);
  const cnBytes = cnKeysFromSeed(s);
  const cn = walletKeys(cnBytes, network, 'cn');
  return {
    seed: toHex(s),
    network,
    cn,
    carrot: carrotKeysFromSpendSecret(cnBytes.spendSecret, network),
    viewKeyHex: cn.viewSecret,
  };
}

/**
 * The destination the real wallet records for a Carrot payment: the address tx_builder.cpp's make_tx_destination_entry
 * rebuilds from the payment proposal. A proposal carries no payment id, so an integrated address shows as the standard
 * address of its keys. A payment to one of the wallet's own addresses is a self-send proposal, which keeps the spend
 * key only: the view key shown is k_vi times it (`selfSendViewSecret`: the wallet's k_vi, given for such a payment),
 * so the main address (K_s, k_vi·G) and its integrated addresses show as the account address (K_s, K_v) while a
 * subaddress stays itself. Anything that is not a Carrot address is returned unchanged.
 */
export function carrotDestinationAddress(address: string, selfSendViewSecret?: string): string {
  const d = decodeAddress(address);
  if (d === null || d.family !== 'carrot') return address;
  if (d.type !== 'integrated' && selfSendViewSecret === undefined) return address;
  return encodeAddress({
    network: d.network,
    family: 'carrot',
    type: d.type === 'subaddress' ? 'subaddress' : 'standard',
    spendPublicKey: d.spendPublicKey,
    viewPublicKey:
      selfSendViewSecret === undefined
        ? d.viewPublicKey
        : scalarMultKey(d.spendPublicKey, scReduce32(fromHex(selfSendViewSecret))),
  });
}

/**
 * Simulated key image of an output: keccak256(utf8(lowercase secretHex) ‖ 0x3a ':' ‖ utf8(outputId)), 64 hex chars,
 * of the wallet's Carrot generate-image key k_gi (as a real Carrot key image needs k_gi and no spend secret: a
 * view-balance wallet knows it, a CN view-only wallet does not). Deterministic per (wallet, output); not a real one.
 */
export function keyImage(secretHex: string, outputId: string): string {
  return toHex(keccak_256(TEXT.encode(`${secretHex.toLowerCase()}:${outputId}`)));
}

/** `bytes` random bytes from node:crypto, as lowercase hex. */
export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}
