// What the explorer shows, gathered from the programs' own RPCs (nothing new in any backend): the
// chain's blocks with their transactions and types, the pool, the tokens with their holders among the
// testnet's wallets and the wallets apps register, each wallet's balances and transfers, and the
// programs with their logs' tails. It only reads the testnet: only `get_*` requests, never a refresh
// or a transfer. Amounts are atomic units as decimal strings (they may exceed 2^53).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { DaemonClient } from '../rpc/daemon.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { AutomineMode } from '../testnet/mining/automine.js';
import type { ViewWallets } from './apps.js';

/** What a coinbase output pays, and to whom: the miner, the treasury (its share or its mint), a token's supply. */
export interface Payment {
  asset: string;
  amount: string;
  to: 'miner' | 'treasury' | 'treasury mint' | 'minted supply' | 'protocol';
}

export interface TxView {
  hash: string;
  type: string;
  /** The asset the transaction spends (a token transfer's token; SAL1 otherwise). */
  asset?: string;
  fee?: string;
  burnt?: string;
  /** A miner or protocol tx: what its outputs pay. */
  pays?: Payment[];
  /** A create-token tx: its ticker and metadata. */
  token?: { ticker: string; supply: number; name: string; url: string };
  /** What the explorer's wallets saw it move (sent, else received): the chain hides amounts. */
  moved?: { amount: string; asset: string };
}

export interface BlockView {
  height: number;
  hash: string;
  timestamp: number;
  txs: TxView[];
}

export interface TransferView {
  /** The wallet RPC's kind: in, out, block (a coinbase's output), pool, pending, failed. */
  type: string;
  txid: string;
  height: number;
  amount: string;
  asset: string;
  confirmations?: number;
  /** The transaction's type on the chain (create-token, rollup, transfer, miner, protocol, …), once it is known. */
  txType?: string;
  /** From the chain: what the transaction burnt and its fee (the wallet's `fee` counts the burn in). */
  burnt?: string;
  fee?: string;
  /** A create-token's asset type. */
  token?: string;
}

export interface WalletView {
  name: string;
  address: string;
  /** A wallet an app registered with the explorer (its wallet RPC's URL), not one of the testnet's. */
  app?: boolean;
  url?: string;
  /** Registered by address and view key: a view-only wallet the explorer runs (what it shows: apps.ts). */
  viewOnly?: boolean;
  busy?: boolean;
  balances: { asset: string; balance: string; unlocked: string; blocksToUnlock: number }[];
  /** Newest first (the state's list: the last few; a wallet's page: all it keeps). */
  transfers: TransferView[];
}

export interface TokenView {
  assetType: string;
  ticker: string;
  name: string;
  /** In whole tokens, as the daemon reports it. */
  supply: number;
  url: string;
  size: number;
  /** The wallet the supply was minted to, if the explorer knows it. */
  creator?: string;
  createdAt?: number;
  creationTx?: string;
  holders: { wallet: string; balance: string; unlocked: string; app?: boolean }[];
  /** What the holders shown hold together (atomic units). */
  held: string;
}

/** A token with every transaction of its life, oldest first. */
export interface TokenPage extends TokenView {
  history: (TxView & { height: number })[];
}

export interface TxPage {
  tx: TxView;
  inPool: boolean;
  height?: number;
  blockHash?: string;
  timestamp?: number;
  confirmations?: number;
  /** Each of the explorer's wallets' entries for it. */
  wallets: { wallet: string; type: string; amount: string; asset: string }[];
}

export interface BlockPage {
  /** The chain's height (blocks 0 … height − 1). */
  height: number;
  block: BlockView;
}

export interface BlocksPage {
  /** The chain's height (blocks 0 … height − 1). */
  height: number;
  blocks: BlockView[];
}

export interface ProgramView {
  name: string;
  pid: number;
  state: string;
  restarts: number;
  log: string;
  tail: string[];
}

export interface UiState {
  at: string;
  runId: string;
  backend: string;
  /** Decimals of the chain's amounts (atomic units on the wire; SAL1 and tokens: 8). */
  decimals: number;
  height: number;
  automine: AutomineMode;
  blocks: BlockView[];
  pool: TxView[];
  tokens: TokenView[];
  wallets: WalletView[];
  programs: ProgramView[];
  /** What could not be read this time (a program restarting), for the page's banner. */
  problems: string[];
}

export interface UiSource {
  runId: string;
  backend: string;
  decimals: number;
  daemon: DaemonClient;
  /** The testnet's wallets now (main first), each with a client of the explorer's own. */
  wallets(): { name: string; address: string; client: WalletClient }[];
  programs(): Omit<ProgramView, 'tail'>[];
  automine(): AutomineMode;
  /** How to open the view-only wallets apps register by address and view key (none: they are refused). */
  viewWallets?: ViewWallets;
}

/** How many of the last blocks the main page shows (the chain's pages go back to genesis). */
export const BLOCKS_SHOWN = 15;
const TAIL_LINES = 12;

/** A token's ticker from its asset type: salLIFE → LIFE. */
export const tickerOf = (assetType: string): string => (assetType.startsWith('sal') ? assetType.slice(3) : assetType);

/** The last `lines` lines of a log file (its last 16 KiB read), empty when it cannot be read. */
export function tailOf(file: string, lines = TAIL_LINES): string[] {
  try {
    const size = statSync(file).size;
    const len = Math.min(size, 16 * 1024);
    const buf = Buffer.alloc(len);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buf, 0, len, size - len);
    } finally {
      closeSync(fd);
    }
    return buf.toString('utf8').split('\n').filter(Boolean).slice(-lines);
  } catch {
    return [];
  }
}
