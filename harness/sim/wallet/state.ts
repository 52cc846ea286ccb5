// An open simulated wallet: its keys, its scan state, and where and how it is saved.
import { randomBytes } from 'node:crypto';
import { walletFromSeed } from '../crypto/keys.js';
import { decode, encode } from '../chain/codec.js';
import { HF_CARROT, hardForkAt } from '../chain/constants.js';
import { unorderedMapOrder } from './asset-order.js';
import { deriveKey, readCache, readKeys, writeCache, writeKeys, type WalletKey } from './files.js';

export interface OwnedOutput {
  id: string;
  txid: string;
  amount: bigint;
  asset: string;
  blockIndex: number;
  coinbase: boolean;
  keyImage: string;
  /** First chain height at which it can be spent. */
  unlockHeight: number;
  unlockTime: number;
  address: string;
  spent: boolean;
  spentBy?: string;
  /** Position among all outputs of the chain (incoming_transfers' global_index). */
  globalIndex?: number;
}

export interface Destination {
  address: string;
  amount: bigint;
  asset: string;
}

/** A transaction this wallet sent (pending, confirmed or failed). */
export interface OutRecord {
  txid: string;
  state: 'pending' | 'confirmed' | 'failed';
  height: number;
  timestamp: number;
  amountIn: bigint;
  change: bigint;
  /** Network fee plus anything burnt (the real wallet reports the token burn as fee). */
  fee: bigint;
  asset: string;
  destinations: Destination[];
  paymentId: string;
  inputs: string[];
}

/** Money received in a confirmed transaction this wallet did not send. */
export interface InRecord {
  txid: string;
  height: number;
  timestamp: number;
  amount: bigint;
  amounts: bigint[];
  asset: string;
  coinbase: boolean;
  unlockHeight: number;
  unlockTime: number;
  paymentId: string;
  address: string;
  /** The tx's fee (a token tx's nominal fee; 0 for coinbase). Absent in caches written before it was kept. */
  fee?: bigint;
}

export interface PoolRecord {
  txid: string;
  timestamp: number;
  amount: bigint;
  amounts: bigint[];
  asset: string;
  paymentId: string;
  address: string;
  /** The tx's fee. Absent in caches written before it was kept. */
  fee?: bigint;
}

export interface WalletState {
  /** Blocks scanned (the wallet's `get_height`). */
  height: number;
  /** Block index the wallet starts scanning at (restore/creation height). */
  refreshFrom: number;
  outputs: OwnedOutput[];
  outs: OutRecord[];
  ins: InRecord[];
  pool: PoolRecord[];
  assetsSeen: string[];
  lastBlockReward: bigint;
  /** Hash of the last scanned block, to notice a different chain. */
  topHash: string;
  /** Hashes of the last scanned blocks (the last one is topHash), to find where a different chain splits off. */
  recentHashes?: string[];
}

export interface KeysFile {
  network: 'testnet';
  seed: string;
  language: string;
  refreshFrom: number;
}

export type WalletKeys = ReturnType<typeof walletFromSeed>;

export interface Wallet {
  /** File path, or null for an in-memory wallet (create_wallet with an empty filename). */
  path: string | null;
  key: WalletKey;
  keysFile: KeysFile;
  keys: WalletKeys;
  state: WalletState;
}

export function emptyState(refreshFrom: number): WalletState {
  return {
    height: refreshFrom,
    refreshFrom,
    outputs: [],
    outs: [],
    ins: [],
    pool: [],
    assetsSeen: [],
    lastBlockReward: 0n,
    topHash: '',
  };
}

export function newWallet(
  path: string | null,
  password: string,
  opts: { seed?: Uint8Array; language?: string; refreshFrom?: number } = {},
): Wallet {
  const seed = opts.seed ?? new Uint8Array(randomBytes(32));
  const keysFile: KeysFile = {
    network: 'testnet',
    seed: Buffer.from(seed).toString('hex'),
    language: opts.language ?? 'English',
    refreshFrom: opts.refreshFrom ?? 0,
  };
  return {
    path,
    key: deriveKey(password),
    keysFile,
    keys: walletFromSeed(seed, 'testnet'),
    state: emptyState(keysFile.refreshFrom),
  };
}

export function saveWallet(w: Wallet): void {
  if (!w.path) return;
  writeKeys(w.path, w.key, JSON.stringify(w.keysFile));
  writeCache(w.path, w.key, encode(w.state));
}

/** Open a wallet; throws InvalidPassword or a file error. */
export function loadWallet(path: string, password: string): Wallet {
  const { plaintext, key } = readKeys(path, password);
  const keysFile = JSON.parse(plaintext) as KeysFile;
  const cache = readCache(path, key);
  const state = cache ? decode<WalletState>(cache) : emptyState(keysFile.refreshFrom);
  // Loading wallet2's m_payments inserts the saved entries again, each in front of the last: reversed.
  state.ins.reverse();
  // Loading inserts the assets again in the order they were listed (asset-order.ts).
  state.assetsSeen = unorderedMapOrder(state.assetsSeen);
  return {
    path,
    key,
    keysFile,
    keys: walletFromSeed(new Uint8Array(Buffer.from(keysFile.seed, 'hex')), 'testnet'),
    state,
  };
}

/** The wallet's primary address as shown for its synced height: CN below HF10, Carrot from it. */
export function primaryAddress(w: Wallet): string {
  return hardForkAt(w.state.height) >= HF_CARROT ? w.keys.carrot.address : w.keys.cn.address;
}

export function ownsAddress(w: Wallet, address: string): boolean {
  return address === w.keys.cn.address || address === w.keys.carrot.address;
}
