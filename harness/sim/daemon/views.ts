// What the simulated daemon's answers are made of: block headers, get_info, hard_fork_info, mining_status.
import { statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { VERSION_FULL } from '../common/version.js';
import { DIFFICULTY_TARGET, TESTNET_HARD_FORKS, nextHardFork } from '../chain/constants.js';
import { baseReward, splitReward } from '../chain/emission.js';
import { height, topBlock, type Ledger } from '../chain/ledger.js';
import type { Block, Tx } from '../chain/types.js';
import type { AltBlocks } from '../chain/alt.js';
import { BLOCKS_FILE } from '../chain/store.js';
import type { Miner } from './miner.js';
import type { Logger } from '../common/log.js';
import type { P2p } from './p2p-types.js';

/** A block template handed out by get_block_template, until submit_block brings it back. */
export interface Template {
  /** The block as built (hash and nonce are set when it is submitted). */
  block: Block;
  /** The miner's address it pays. */
  address: string;
}

/** What the daemon keeps besides the chain (in memory, as the real one keeps most of it). */
export interface NodeState {
  /** Alternative blocks (a peer's, or submitted on a parent below the top), by hash: chain/alt.ts. */
  alt: AltBlocks;
  /** Templates by their id (bytes 43–75 of the template blob). */
  templates: Map<string, Template>;
  /** Banned hosts and subnets → unix seconds when the ban ends. */
  bans: Map<string, number>;
  limits: { down: number; up: number };
  /** Most outgoing and incoming peers (/out_peers, /in_peers): 12 and unlimited (2^32 - 1) by default. */
  outPeers: number;
  inPeers: number;
  /** Pruning seed once prune_blockchain ran (0: not pruned). */
  pruningSeed: number;
  bootstrapAddress: string;
}

export function newNodeState(): NodeState {
  return {
    alt: new Map(),
    templates: new Map(),
    bans: new Map(),
    limits: { down: DEFAULT_LIMIT_DOWN, up: DEFAULT_LIMIT_UP },
    outPeers: 12,
    inPeers: 4294967295,
    pruningSeed: 0,
    bootstrapAddress: '',
  };
}

/** The default rate limits in kB/s (nodetool::default_limit_down/up), as /get_limit answers them. */
export const DEFAULT_LIMIT_DOWN = 8192;
export const DEFAULT_LIMIT_UP = 2048;

export interface DaemonContext {
  ledger: Ledger;
  miner: Miner;
  log: Logger;
  dbDir: string;
  dataDir: string;
  offline: boolean;
  restricted: boolean;
  difficulty: () => bigint;
  startTime: number;
  /** Called after the pool lost transactions (to persist it whole). */
  poolChanged: () => void;
  /** Called after the pool took these transactions (to persist them: a journal line each). */
  poolTook: (txs: readonly Tx[]) => void;
  /** Called after blocks were popped (to persist the shorter chain and the pool). */
  chainRewritten: () => void;
  /** Blocks popped since the daemon started (hard_fork_info's window remembers them). */
  popped: number;
  shutdown: () => void;
  /** A block was added on top by submit_block or a peer (to persist it). */
  blockAdded: (block: Block) => void;
  state: NodeState;
  /** Its peers (a daemon without --offline). */
  p2p?: P2p;
}

/** Synchronized: offline, or once a peer agreed or was synced from (until then mining answers BUSY). */
export const synced = (ctx: DaemonContext): boolean => ctx.offline || ctx.p2p?.synchronized === true;

export const STATUS = { status: 'OK', untrusted: false } as const;
export const wide = (n: bigint): string => `0x${n.toString(16)}`;
export const now = (): number => Math.floor(Date.now() / 1000);

/**
 * A block's header as fill_block_header_response fills it; `orphan`: an alternative block, whose
 * difficulty, cumulative difficulty and weights are read by height from the main chain, as the real
 * daemon reads them.
 */
export function blockHeader(l: Ledger, b: Block, fillPowHash: boolean, orphan = false): Record<string, unknown> {
  const byHeight = orphan ? (l.blocks[b.index] ?? b) : b;
  return {
    block_size: byHeight.weight,
    block_weight: byHeight.weight,
    cumulative_difficulty: byHeight.cumulativeDifficulty,
    cumulative_difficulty_top64: 0,
    depth: height(l) - 1 - b.index,
    difficulty: byHeight.difficulty,
    difficulty_top64: 0,
    hash: b.hash,
    height: b.index,
    long_term_weight: byHeight.weight,
    major_version: b.majorVersion,
    miner_tx_hash: b.minerTx.txid,
    minor_version: b.minorVersion,
    nonce: b.nonce,
    num_txes: b.txs.length,
    orphan_status: orphan,
    pow_hash: fillPowHash ? b.hash.split('').reverse().join('') : '',
    prev_hash: b.prevHash,
    pricing_record: { height: 0, pr_version: 0, signature: '', supply: { SAL: 0, VSD: 0 }, timestamp: 0, assets: [] },
    protocol_tx_hash: b.protocolTx.txid,
    reward: b.reward,
    timestamp: b.timestamp,
    wide_cumulative_difficulty: wide(byHeight.cumulativeDifficulty),
    wide_difficulty: wide(byHeight.difficulty),
  };
}

export function info(ctx: DaemonContext): Record<string, unknown> {
  const l = ctx.ledger;
  const top = topBlock(l);
  let databaseSize = 0;
  let freeSpace = 0;
  try {
    databaseSize = statSync(join(ctx.dbDir, BLOCKS_FILE)).size;
  } catch {
    /* empty chain: no file yet */
  }
  try {
    const fs = statfsSync(ctx.dataDir);
    freeSpace = fs.bavail * fs.bsize;
  } catch {
    /* unknown */
  }
  const userTxs = l.blocks.reduce((s, b) => s + b.txs.length, 0);
  return {
    adjusted_time: now(),
    alt_blocks_count: ctx.state.alt.size,
    block_size_limit: 600000,
    block_size_median: 300000,
    block_weight_limit: 600000,
    block_weight_median: 300000,
    bootstrap_daemon_address: ctx.state.bootstrapAddress,
    busy_syncing: false,
    credits: 0,
    cumulative_difficulty: top.cumulativeDifficulty,
    cumulative_difficulty_top64: 0,
    database_size: databaseSize,
    difficulty: ctx.difficulty(),
    difficulty_top64: 0,
    free_space: freeSpace,
    grey_peerlist_size: 0,
    height: height(l),
    height_without_bootstrap: height(l),
    incoming_connections_count: ctx.p2p?.peers().filter((p) => p.incoming).length ?? 0,
    mainnet: false,
    nettype: 'testnet',
    offline: ctx.offline,
    outgoing_connections_count: ctx.p2p?.peers().filter((p) => !p.incoming).length ?? 0,
    restricted: ctx.restricted,
    rpc_connections_count: 1,
    stagenet: false,
    start_time: ctx.startTime,
    status: 'OK',
    synchronized: synced(ctx),
    target: DIFFICULTY_TARGET,
    target_height: 0,
    testnet: true,
    top_block_hash: top.hash,
    top_hash: '',
    tx_count: height(l) + userTxs,
    tx_pool_size: l.pool.size,
    untrusted: false,
    update_available: false,
    version: VERSION_FULL,
    was_bootstrap_ever_used: false,
    white_peerlist_size: 0,
    wide_cumulative_difficulty: wide(top.cumulativeDifficulty),
    wide_difficulty: wide(ctx.difficulty()),
  };
}

export function hardForkInfo(l: Ledger, popped: number): Record<string, unknown> {
  const count = height(l);
  const v = nextHardFork(count);
  const next = TESTNET_HARD_FORKS.find((f) => f.version > v) ?? TESTNET_HARD_FORKS[TESTNET_HARD_FORKS.length - 1]!;
  const window = Math.min(count + popped, 10080);
  return {
    credits: 0,
    earliest_height: next.height,
    enabled: next.version <= v,
    state: 2,
    status: 'OK',
    threshold: 0,
    top_hash: '',
    untrusted: false,
    version: v,
    votes: Math.max(window - 1 - popped, 0),
    // HardFork::get_voting_info: the newest version this build knows, whatever the height.
    voting: TESTNET_HARD_FORKS[TESTNET_HARD_FORKS.length - 1]!.version,
    window,
  };
}

export function miningStatus(ctx: DaemonContext): Record<string, unknown> {
  const l = ctx.ledger;
  const active = ctx.miner.active;
  const next = active ? splitReward(height(l), baseReward(topBlock(l).alreadyGenerated), 0n).miner : 0n;
  return {
    active,
    address: ctx.miner.address,
    bg_idle_threshold: 0,
    bg_ignore_battery: false,
    bg_min_idle_seconds: 0,
    bg_target: 0,
    block_reward: next,
    block_target: DIFFICULTY_TARGET,
    difficulty: ctx.difficulty(),
    difficulty_top64: 0,
    is_background_mining_enabled: false,
    pow_algorithm: 'RandomX',
    speed: ctx.miner.speed,
    status: 'OK',
    threads_count: ctx.miner.threads,
    untrusted: false,
    wide_difficulty: wide(ctx.difficulty()),
  };
}
