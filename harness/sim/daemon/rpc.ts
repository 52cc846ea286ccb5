// The simulated daemon's HTTP surface (reference §2): URI endpoints and /json_rpc methods.
import { statfsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { decodeAddress } from '../crypto/address.js';
import { CORE_RPC_VERSION, VERSION_FULL } from '../common/version.js';
import { DIFFICULTY_TARGET, HF_CARROT, TESTNET_HARD_FORKS, nextHardFork } from '../chain/constants.js';
import { baseReward, splitReward } from '../chain/emission.js';
import { addToPool, currentFees, height, matchTokens, popBlock, topBlock, type Ledger } from '../chain/ledger.js';
import { decode, encode, fromHex, toHex } from '../chain/codec.js';
import type { Block, Tx } from '../chain/types.js';
import { RpcError, type Handler } from '../http/server.js';
import { bool, list, params, str, u32, u64, u8 } from '../http/params.js';
import { BLOCKS_FILE } from '../chain/store.js';
import type { Miner } from './miner.js';
import type { Logger } from '../common/log.js';

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
  /** Called after the pool changed (to persist it). */
  poolChanged: () => void;
  /** Called after blocks were popped (to persist the shorter chain and the pool). */
  chainRewritten: () => void;
  /** Blocks popped since the daemon started (hard_fork_info's window remembers them). */
  popped: number;
  shutdown: () => void;
}

const STATUS = { status: 'OK', untrusted: false } as const;
const wide = (n: bigint): string => `0x${n.toString(16)}`;
const now = (): number => Math.floor(Date.now() / 1000);

function blockHeader(l: Ledger, b: Block, fillPowHash: boolean): Record<string, unknown> {
  return {
    block_size: b.weight,
    block_weight: b.weight,
    cumulative_difficulty: b.cumulativeDifficulty,
    cumulative_difficulty_top64: 0,
    depth: height(l) - 1 - b.index,
    difficulty: b.difficulty,
    difficulty_top64: 0,
    hash: b.hash,
    height: b.index,
    long_term_weight: b.weight,
    major_version: b.majorVersion,
    miner_tx_hash: b.minerTx.txid,
    minor_version: b.minorVersion,
    nonce: b.nonce,
    num_txes: b.txs.length,
    orphan_status: false,
    pow_hash: fillPowHash ? b.hash.split('').reverse().join('') : '',
    prev_hash: b.prevHash,
    pricing_record: { height: 0, pr_version: 0, signature: '', supply: { SAL: 0, VSD: 0 }, timestamp: 0, assets: [] },
    protocol_tx_hash: b.protocolTx.txid,
    reward: b.reward,
    timestamp: b.timestamp,
    wide_cumulative_difficulty: wide(b.cumulativeDifficulty),
    wide_difficulty: wide(b.difficulty),
  };
}

function info(ctx: DaemonContext): Record<string, unknown> {
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
    alt_blocks_count: 0,
    block_size_limit: 600000,
    block_size_median: 300000,
    block_weight_limit: 600000,
    block_weight_median: 300000,
    bootstrap_daemon_address: '',
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
    incoming_connections_count: 0,
    mainnet: false,
    nettype: 'testnet',
    offline: ctx.offline,
    outgoing_connections_count: 0,
    restricted: ctx.restricted,
    rpc_connections_count: 1,
    stagenet: false,
    start_time: ctx.startTime,
    status: 'OK',
    synchronized: ctx.offline,
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

const startMiningParams = params({ miner_address: str(), threads_count: u64(), do_background_mining: bool(), ignore_battery: bool() });
const heightParams = params({ height: u64(), fill_pow_hash: bool() });
const hashParams = params({ hash: str(), fill_pow_hash: bool() });
const powParams = params({ fill_pow_hash: bool() });
const hfParams = params({ version: u8() });
const genParams = params({ amount_of_blocks: u64(), wallet_address: str(), prev_block: str(), starting_nonce: u32() });
const tokensParams = params({ filter: str() });
const tokenInfoParams = params({ asset_type: str() });
const feeParams = params({ grace_blocks: u64() });
const blocksParams = params({ start_height: u64(), count: u64(1000n) });
const popParams = params({ nblocks: u64() });
const rawTxParams = params({ tx_as_hex: str(), do_not_relay: bool() });
const keyImagesParams = params({ key_images: list(str()) });

/** Answers of `/start_mining`, in the real order of checks (§4.1). */
function startMining(ctx: DaemonContext, p: ReturnType<typeof startMiningParams.parse>): string {
  if (!ctx.offline) return 'BUSY';
  const addr = decodeAddress(p.miner_address);
  if (!addr || addr.coin !== 'salvium' || addr.network !== 'testnet') return 'Failed, wrong address';
  if (addr.type === 'subaddress') return "Mining to subaddress isn't supported yet";
  const hf = nextHardFork(height(ctx.ledger));
  if (addr.family === 'carrot' && hf < HF_CARROT) return "Mining to Carrot wallet address, but Carrot isn't supported yet";
  if (addr.family === 'cn' && hf >= HF_CARROT) return 'Mining to CryptoNote wallet address, but Carrot wallet address is required';
  if (p.threads_count > BigInt(4 * availableParallelism())) return 'Failed, too many threads relative to CPU cores.';
  if (ctx.miner.active) return 'Already mining';
  if (ctx.miner.stopping) return 'Failed, mining not started';
  ctx.miner.start(p.miner_address, Number(p.threads_count === 0n ? 1n : p.threads_count));
  return 'OK';
}

function sendRawTransaction(ctx: DaemonContext, hex: string): Record<string, unknown> {
  const base = {
    credits: 0, double_spend: false, fee_too_low: false, invalid_input: false, invalid_output: false, low_mixin: false,
    nonzero_unlock_time: false, not_relayed: false, overspend: false, reason: '', sanity_check_failed: false,
    too_big: false, too_few_outputs: false, top_hash: '', tx_extra_too_big: false, untrusted: false,
  };
  let tx: Tx;
  try {
    tx = decode<Tx>(fromHex(hex));
    if (!tx || typeof tx.txid !== 'string' || !Array.isArray(tx.inputs) || !Array.isArray(tx.outputs)) throw new Error('shape');
  } catch {
    ctx.log.log('W', 'Failed to parse tx from hexbuff');
    return { ...base, status: 'Failed', reason: 'Failed to parse tx', sanity_check_failed: true };
  }
  const reason = addToPool(ctx.ledger, tx, now());
  if (reason) {
    ctx.log.log('E', `Transaction verification failed: ${reason}`, { quiet: true });
    return {
      ...base,
      status: 'Failed',
      reason,
      double_spend: reason === 'double spend',
      invalid_input: reason === 'invalid input' || reason === 'input is locked',
      overspend: reason.startsWith('overspend'),
      too_big: reason === 'tx too big',
    };
  }
  ctx.poolChanged();
  ctx.log.log('E', 'Unable to send transaction(s) via Dandelion++ stem');
  ctx.log.log('W', 'Unable to send transaction(s), no available connections');
  return { ...base, status: 'OK' };
}

/**
 * `popped`: blocks popped since the daemon started. HardFork::on_block_popped slides its vote window
 * back (pops a vote, pushes the popped height's major version at the front) instead of shrinking
 * it, so until a restart the window holds one entry more, and one vote less, per popped block.
 */
function hardForkInfo(l: Ledger, popped: number): Record<string, unknown> {
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

function miningStatus(ctx: DaemonContext): Record<string, unknown> {
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

export function daemonUriEndpoints(ctx: DaemonContext): Map<string, Handler> {
  const l = ctx.ledger;
  const m = new Map<string, Handler>();
  const getHeight: Handler = () => ({ hash: topBlock(l).hash, height: height(l), ...STATUS });
  const getInfo: Handler = () => info(ctx);
  m.set('/get_height', getHeight).set('/getheight', getHeight);
  m.set('/get_info', getInfo).set('/getinfo', getInfo);
  if (!ctx.restricted) {
    m.set('/start_mining', (raw) => ({ status: startMining(ctx, startMiningParams.parse(raw)), untrusted: false }));
    m.set('/stop_mining', () => {
      if (!ctx.miner.active) return { status: 'Mining never started', untrusted: false };
      ctx.miner.stop();
      return STATUS;
    });
    m.set('/mining_status', () => miningStatus(ctx));
    m.set('/stop_daemon', () => {
      setImmediate(ctx.shutdown);
      return STATUS;
    });
    m.set('/save_bc', () => STATUS);
    // As Blockchain::pop_blocks: never the genesis block; the popped blocks' txs go back to the pool.
    m.set('/pop_blocks', (raw) => {
      const n = Math.min(Number(popParams.parse(raw).nblocks), height(l) - 1);
      for (let i = 0; i < n; i++) popBlock(l, now());
      ctx.popped += Math.max(n, 0);
      if (n > 0) ctx.chainRewritten();
      return { height: height(l), ...STATUS };
    });
  }
  // Wallet-facing endpoints. The real daemon speaks epee binary on /getblocks.bin; the simulated
  // wallet and daemon exchange the simulator's JSON there instead (never used by the supervisor).
  m.set('/getblocks.bin', (raw) => {
    const p = blocksParams.parse(raw);
    const start = Number(p.start_height);
    const count = Math.min(Number(p.count), 5000);
    const blocks = l.blocks.slice(start, start + count).map((b) => ({ ...b, firstOutputIndex: l.firstOutput[b.index] }));
    return { blocks_json: encode(blocks), current_height: height(l), ...STATUS };
  });
  const pool: Handler = () => ({
    credits: 0,
    top_hash: '',
    transactions: [...l.pool.values()].map((tx) => ({
      blob_size: tx.weight,
      do_not_relay: false,
      double_spend_seen: false,
      fee: tx.fee,
      id_hash: tx.txid,
      kept_by_block: false,
      last_failed_height: 0,
      last_failed_id_hash: '0'.repeat(64),
      last_relayed_time: l.poolArrival.get(tx.txid) ?? 0,
      max_used_block_height: height(l) - 1,
      max_used_block_id_hash: topBlock(l).hash,
      receive_time: l.poolArrival.get(tx.txid) ?? 0,
      relayed: true,
      tx_blob: toHex(encode(tx)),
      tx_json: encode(tx),
      weight: tx.weight,
    })),
    ...STATUS,
  });
  m.set('/get_transaction_pool', pool);
  const send: Handler = (raw) => sendRawTransaction(ctx, rawTxParams.parse(raw).tx_as_hex);
  m.set('/send_raw_transaction', send).set('/sendrawtransaction', send);
  m.set('/is_key_image_spent', (raw) => {
    const p = keyImagesParams.parse(raw);
    const pooled = new Set<string>();
    for (const tx of l.pool.values()) for (const i of tx.inputs) pooled.add(i.keyImage);
    return { spent_status: p.key_images.map((k) => (l.spentKeyImages.has(k) ? 1 : pooled.has(k) ? 2 : 0)), ...STATUS };
  });
  return m;
}

export function daemonJsonRpcMethods(ctx: DaemonContext): Map<string, Handler> {
  const l = ctx.ledger;
  const m = new Map<string, Handler>();
  const alias = (names: string[], h: Handler): void => names.forEach((n) => m.set(n, h));
  alias(['get_block_count', 'getblockcount'], () => ({ count: height(l), ...STATUS }));
  alias(['get_info'], () => info(ctx));
  alias(['get_last_block_header', 'getlastblockheader'], (raw) => {
    const p = powParams.parse(raw);
    if (!ctx.offline) return { status: 'BUSY', untrusted: false };
    return { block_header: blockHeader(l, topBlock(l), p.fill_pow_hash), credits: 0, top_hash: '', ...STATUS };
  });
  alias(['get_block_header_by_height', 'getblockheaderbyheight'], (raw) => {
    const p = heightParams.parse(raw);
    const top = height(l) - 1;
    if (p.height > BigInt(top)) throw new RpcError(-2, `Requested block height: ${p.height} greater than current top block height: ${top}`);
    return { block_header: blockHeader(l, l.blocks[Number(p.height)] as Block, p.fill_pow_hash), credits: 0, top_hash: '', ...STATUS };
  });
  alias(['get_block_header_by_hash', 'getblockheaderbyhash'], (raw) => {
    const p = hashParams.parse(raw);
    const b = l.blocks.find((x) => x.hash === p.hash);
    if (!b) throw new RpcError(-5, `Internal error: can't get block by hash. Hash = ${p.hash}.`);
    return { block_header: blockHeader(l, b, p.fill_pow_hash), credits: 0, top_hash: '', ...STATUS };
  });
  alias(['hard_fork_info'], (raw) => {
    hfParams.parse(raw);
    return hardForkInfo(l, ctx.popped);
  });
  alias(['get_version'], () => ({
    current_height: height(l),
    hard_forks: TESTNET_HARD_FORKS.map((f) => ({ height: f.height, hf_version: f.version })),
    release: false,
    status: 'OK',
    target_height: 0,
    untrusted: false,
    version: CORE_RPC_VERSION,
  }));
  alias(['generateblocks'], (raw) => {
    genParams.parse(raw);
    if (!ctx.offline) return { status: 'BUSY', untrusted: false };
    throw new RpcError(-13, 'Regtest required when generating blocks');
  });
  alias(['get_tokens'], (raw) => ({ status: 'OK', tokens: matchTokens(l, tokensParams.parse(raw).filter) }));
  alias(['get_token_info'], (raw) => {
    const t = l.tokens.get(tokenInfoParams.parse(raw).asset_type);
    if (!t) {
      return { sal_token: { name: '', size: 0, supply: 0, url: '' }, status: 'Token not found', 'token.asset_type': '', 'token.version': 0, token_type: 0 };
    }
    return { sal_token: { name: t.name, size: t.size, supply: t.supply, url: t.url }, status: 'OK', 'token.asset_type': t.ticker, 'token.version': 1, token_type: 2 };
  });
  alias(['get_fee_estimate'], (raw) => {
    feeParams.parse(raw);
    const fees = currentFees(l);
    return { credits: 0, fee: fees[0], fees, quantization_mask: 1, status: 'OK', top_hash: '', untrusted: false };
  });
  return m;
}
