// An open simulated wallet: its keys, its scan state, and where and how it is saved.
import { randomBytes } from 'node:crypto';
import { decodeAddress, encodeAddress, inFamily } from '../crypto/address.js';
import { deriveBytes32, deriveScalar, transcript } from '../crypto/carrot.js';
import { numberToBytesLE, scalarMultBase } from '../crypto/ed25519.js';
import { fromHex, toHex } from '../crypto/hex.js';
import { walletFromSeed } from '../crypto/keys.js';
import { decode, encode } from '../chain/codec.js';
import { HF_CARROT, hardForkAt } from '../chain/constants.js';
import { unorderedMapOrder } from './asset-order.js';
import { deriveKey, readCache, readKeys, writeCache, writeKeys, type WalletKey } from './files.js';

/** A subaddress: its account (major) and its index in the account (minor); (0, 0) is the wallet's address. */
export interface SubIndex {
  major: number;
  minor: number;
}

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
  /** The subaddress it was received at (absent: 0/0, as in caches written before subaddresses). */
  subaddr?: SubIndex;
  /** Excluded from balances and spending (`freeze`). */
  frozen?: boolean;
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
  /** The account it spends from (absent: 0), and the minors of the inputs it spends. */
  account?: number;
  subaddrIndices?: number[];
  /** Destinations that are this wallet's own subaddresses (they count in the balance while pending). */
  selfDests?: (SubIndex & { amount: bigint })[];
  /** A pending tx last seen in the daemon's pool (wallet2's `pending_in_pool`); absent: `pending`, not seen there. */
  seenInPool?: boolean;
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
  subaddr?: SubIndex;
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
  subaddr?: SubIndex;
}

/** An address book row as wallet2 keeps it: the address's keys, kind and payment id, and a description. */
export interface BookEntry {
  address: string;
  description: string;
  /** 16 hex digits when the row was added with an integrated address (kept when the address is edited). */
  paymentId?: string;
}

/**
 * What the wallet keeps beside its scan, which a rescan does not forget: subaddress labels, account
 * tags, tx notes, attributes, the address book, and the txs whose secret key it stored.
 */
export interface WalletMeta {
  /** labels[major][minor]: every created subaddress (an account is its minor-0 entry's label). */
  labels: string[][];
  /** The tag of every account ('' for none), and each registered tag's description. */
  accountTags: string[];
  tagDescriptions: Record<string, string>;
  notes: Record<string, string>;
  attributes: Record<string, string>;
  addressBook: BookEntry[];
  /** Txids of the txs this wallet sent (their keys are stored). */
  txKeys: string[];
  /** setup_background_sync's type, and whether it syncs in the background now (start_background_sync). */
  backgroundSync?: { type: string; syncing: boolean };
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
  /** Absent in caches written before it was kept: see meta(). */
  meta?: WalletMeta;
}

export function defaultMeta(): WalletMeta {
  return {
    labels: [['Primary account']],
    accountTags: [''],
    tagDescriptions: {},
    notes: {},
    attributes: {},
    addressBook: [],
    txKeys: [],
  };
}

/** The wallet's labels, tags, notes, attributes and address book (created on first use). */
export function meta(w: Wallet): WalletMeta {
  return (w.state.meta ??= defaultMeta());
}

export interface KeysFile {
  network: 'testnet';
  /** The 32-byte seed as hex; '' for a wallet generated from keys. */
  seed: string;
  language: string;
  refreshFrom: number;
  /** generate_from_keys: the CN keys and address as given (no spend secret: watch-only). */
  fromKeys?: { address: string; spendSecret: string; viewSecret: string };
  /** The subaddress lookahead the wallet CLI's --subaddress-lookahead set (absent: wallet2's 50:200). */
  lookahead?: { major: number; minor: number };
}

export type WalletKeys = ReturnType<typeof walletFromSeed>;

export interface Wallet {
  /** File path, or null for an in-memory wallet (create_wallet with an empty filename). */
  path: string | null;
  key: WalletKey;
  keysFile: KeysFile;
  keys: WalletKeys;
  state: WalletState;
  /**
   * Opened from its files (wallet2::load), not created in this process: load adds generate_subaddress_map's window to
   * what the wallet detects (subaddresses.ts).
   */
  loaded?: boolean;
  /**
   * The wallet's refresh has asked the daemon for its pool before (wallet2's m_pool_info_query_time): later refreshes
   * only learn what was added since, so a tx once seen there and gone stays `pending_in_pool` (pool.ts's scanPool).
   */
  poolQueried?: boolean;
  /**
   * The pool transactions this process has looked at for payments (wallet2's m_scanned_pool_txs): a later look at the
   * pool fetches only those it has not (pool.ts lookAtPool).
   */
  poolScanned?: Set<string>;
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

const ZERO_KEY = '0'.repeat(64);

/**
 * The keys of a wallet file. A wallet generated from keys has, as on v1.1.3c (recorded: test/sim/wallet-modes.test.ts),
 * from a CN address: the CN keys and address it was given and a Carrot address of zero keys (it sees no Carrot-era
 * payment); from a Carrot address: CN keys of zero, and Carrot keys with the view key taken as the view-balance secret
 * s_vb (k_vi, k_gi and s_ga derived from it, K_s the address's): given the wallet's own s_vb (query_key
 * s_view_balance) its Carrot address is the one it was given, and it sees what the wallet receives and, its key images
 * known, what it spends.
 */
export function keysOf(k: KeysFile): WalletKeys {
  if (!k.fromKeys) return walletFromSeed(new Uint8Array(Buffer.from(k.seed, 'hex')), 'testnet');
  const zero = new Uint8Array(32);
  const given = decodeAddress(k.fromKeys.address);
  const d = given?.family === 'carrot' ? undefined : given;
  const cn = {
    spendSecret: k.fromKeys.spendSecret || ZERO_KEY,
    viewSecret: given?.family === 'carrot' ? ZERO_KEY : k.fromKeys.viewSecret,
    spendPublic: d ? toHex(d.spendPublicKey) : ZERO_KEY,
    viewPublic: d ? toHex(d.viewPublicKey) : ZERO_KEY,
    address: d
      ? k.fromKeys.address
      : encodeAddress({
          network: 'testnet',
          family: 'cn',
          type: 'standard',
          spendPublicKey: zero,
          viewPublicKey: zero,
        }),
  };
  const carrot =
    given?.family === 'carrot' ? viewBalanceKeys(given.spendPublicKey, k.fromKeys.viewSecret) : zeroCarrotKeys();
  return { seed: '', network: 'testnet', cn, carrot, viewKeyHex: cn.viewSecret };
}

/** A Carrot account of zero keys (generate_from_keys of a CN address). */
function zeroCarrotKeys(): WalletKeys['carrot'] {
  const zero = new Uint8Array(32);
  return {
    spendSecret: ZERO_KEY,
    viewSecret: ZERO_KEY,
    spendPublic: ZERO_KEY,
    viewPublic: ZERO_KEY,
    address: encodeAddress({
      network: 'testnet',
      family: 'carrot',
      type: 'standard',
      spendPublicKey: zero,
      viewPublicKey: zero,
    }),
    viewBalance: ZERO_KEY,
    generateImage: ZERO_KEY,
    generateAddress: ZERO_KEY,
  };
}

/** The Carrot keys of a wallet generated from a Carrot address's spend key K_s and a view-balance secret s_vb. */
function viewBalanceKeys(spendPublic: Uint8Array, viewBalanceHex: string): WalletKeys['carrot'] {
  const sVb = fromHex(viewBalanceHex);
  const viewIncoming = deriveScalar(sVb, transcript('Carrot incoming view key'));
  const viewPublic = scalarMultBase(viewIncoming);
  return {
    spendSecret: ZERO_KEY,
    viewSecret: toHex(numberToBytesLE(viewIncoming)),
    spendPublic: toHex(spendPublic),
    viewPublic: toHex(viewPublic),
    address: encodeAddress({
      network: 'testnet',
      family: 'carrot',
      type: 'standard',
      spendPublicKey: spendPublic,
      viewPublicKey: viewPublic,
    }),
    viewBalance: toHex(sVb),
    generateImage: toHex(numberToBytesLE(deriveScalar(sVb, transcript('Carrot generate-image key')))),
    generateAddress: toHex(deriveBytes32(sVb, transcript('Carrot generate-address secret'))),
  };
}

/** A wallet without its spend key (generate_from_keys without one). */
export const isWatchOnly = (w: Wallet): boolean =>
  w.keysFile.fromKeys !== undefined && !w.keysFile.fromKeys.spendSecret;

export function newWallet(
  path: string | null,
  password: string,
  opts: {
    seed?: Uint8Array;
    language?: string;
    refreshFrom?: number;
    fromKeys?: KeysFile['fromKeys'];
    lookahead?: KeysFile['lookahead'];
  } = {},
): Wallet {
  const seed = opts.fromKeys ? undefined : (opts.seed ?? new Uint8Array(randomBytes(32)));
  const keysFile: KeysFile = {
    network: 'testnet',
    seed: seed ? Buffer.from(seed).toString('hex') : '',
    language: opts.language ?? 'English',
    refreshFrom: opts.refreshFrom ?? 0,
    ...(opts.fromKeys ? { fromKeys: opts.fromKeys } : {}),
    ...(opts.lookahead ? { lookahead: opts.lookahead } : {}),
  };
  return {
    path,
    key: deriveKey(password),
    keysFile,
    keys: keysOf(keysFile),
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
  // A sent tx's destinations keep their keys but not their Carrot flag (account_public_address serializes its two
  // keys only): once loaded, they show under the CN prefix.
  for (const r of state.outs) for (const d of r.destinations) d.address = inFamily(d.address, 'cn');
  return {
    path,
    key,
    keysFile,
    keys: keysOf(keysFile),
    state,
    loaded: true,
  };
}

/** The wallet's primary address as shown for its synced height: CN below HF10, Carrot from it. */
export function primaryAddress(w: Wallet): string {
  return hardForkAt(w.state.height) >= HF_CARROT ? w.keys.carrot.address : w.keys.cn.address;
}

export function ownsAddress(w: Wallet, address: string): boolean {
  return address === w.keys.cn.address || address === w.keys.carrot.address;
}
