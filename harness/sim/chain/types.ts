// The simulated chain's data model, shared by the simulated daemon and wallet.
import type { TxType } from './constants.js';

export interface TxOutput {
  /** `<txid>:<index>` — the simulator's global output id. */
  id: string;
  /** Destination address text (CN or Carrot, standard or subaddress). */
  address: string;
  amount: bigint;
  asset: string;
}

export interface TxInput {
  outputId: string;
  keyImage: string;
  amount: bigint;
  asset: string;
}

export interface TokenCreation {
  ticker: string;
  supply: bigint;
  name: string;
  url: string;
  hash: string;
  size: bigint;
  metadataHex: string;
  /** Address the protocol tx mints the supply to. */
  creator: string;
}

export interface Tx {
  txid: string;
  type: TxType;
  inputs: TxInput[];
  outputs: TxOutput[];
  fee: bigint;
  /** `amount_burnt`: the token creation price, or the stakers' share of a miner tx. */
  burnt: bigint;
  sourceAsset: string;
  destAsset: string;
  /** 16 hex chars (encrypted dummy payment id), or zeros. */
  paymentId: string;
  weight: number;
  /** Unix seconds at which the wallet built it (or the block time for coinbase). */
  timestamp: number;
  /** Height-based unlock time (pre-Carrot coinbase only), 0 otherwise. */
  unlockTime: number;
  token?: TokenCreation;
  /**
   * A ROLLUP's paid transactions: the ids of the token transfers whose (nominal) fees it burns. A
   * daemon mines a token transfer only once the ROLLUP naming it is on chain.
   */
  rollup?: string[];
  /** Built by return_payment (its receiver records a payment id of uninitialised memory, as v1.1.3c does). */
  returned?: boolean;
}

export interface Block {
  index: number;
  hash: string;
  prevHash: string;
  timestamp: number;
  nonce: number;
  majorVersion: number;
  minorVersion: number;
  difficulty: bigint;
  cumulativeDifficulty: bigint;
  /** Coins generated up to and including this block (premine included). */
  alreadyGenerated: bigint;
  minerTx: Tx;
  protocolTx: Tx;
  txs: Tx[];
  /**
   * What get_block_header reports: the miner tx's outputs (the miner's and, from HF11, the treasury's share and mints).
   */
  reward: bigint;
  weight: number;
  /** Sent to wallets with the block (not stored): the global index of its first output. */
  firstOutputIndex?: number;
}

/** A token on the chain: what its creation carried, under its asset type, from the block that mined it. */
export interface TokenRecord extends Omit<TokenCreation, 'metadataHex'> {
  assetType: string;
  height: number;
}

/** A spendable output as the daemon indexes it. */
export interface IndexedOutput {
  output: TxOutput;
  blockIndex: number;
  coinbase: boolean;
}
