// The simulator's crypto: Monero base58, addresses, keys, 25-word seeds.
export * as base58 from './base58.js';
export * from './address.js';
export * from './keys.js';
export * from './mnemonic.js';
export { toHex, fromHex, isHex } from './hex.js';
export { encodeVarint, decodeVarint } from './varint.js';
