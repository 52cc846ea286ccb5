// The daemon's block lookups over /json_rpc (core_rpc_server.cpp, v1.1.3c): the block count, a
// height's hash, headers by height, hash or range, whole blocks, hard-fork info, version, get_info.
import { CORE_RPC_VERSION } from '../../common/version.js';
import { TESTNET_HARD_FORKS } from '../../chain/constants.js';
import { height, topBlock } from '../../chain/ledger.js';
import type { Block } from '../../chain/types.js';
import { RpcError } from '../../http/server.js';
import { bool, list, params, str, u64, u8 } from '../../http/params.js';
import { blockJson } from '../block-json.js';
import { blockBlob } from '../template.js';
import { STATUS, blockHeader, hardForkInfo, info, type DaemonContext, synced } from '../views.js';
import { ACCESS, type Methods } from './table.js';

const heightParams = params({ height: u64(), fill_pow_hash: bool() });
const hashParams = params({ hash: str(), hashes: list(str()), fill_pow_hash: bool() });
const rangeParams = params({ start_height: u64(), end_height: u64(), fill_pow_hash: bool() });
const blockParams = params({ hash: str(), height: u64(), fill_pow_hash: bool() });
const powParams = params({ fill_pow_hash: bool() });
const hfParams = params({ version: u8() });

/** The header of a request that named only `hashes`: every field at its default (weights left out, as epee does). */
const EMPTY_HEADER = {
  block_size: 0,
  cumulative_difficulty: 0,
  cumulative_difficulty_top64: 0,
  depth: 0,
  difficulty: 0,
  difficulty_top64: 0,
  hash: '',
  height: 0,
  major_version: 0,
  miner_tx_hash: '',
  minor_version: 0,
  nonce: 0,
  num_txes: 0,
  orphan_status: false,
  pow_hash: '',
  prev_hash: '',
  pricing_record: { height: 0, pr_version: 0, signature: '', supply: { SAL: 0, VSD: 0 }, timestamp: 0 },
  protocol_tx_hash: '',
  reward: 0,
  timestamp: 0,
  wide_cumulative_difficulty: '',
  wide_difficulty: '',
};

const isHash = (s: string): boolean => /^[0-9a-fA-F]{64}$/.test(s);

/** A block by its id, in the chain or among the alternative blocks (orphan). */
export function findBlock(ctx: DaemonContext, hash: string): { block: Block; orphan: boolean } | undefined {
  const h = hash.toLowerCase();
  const main = ctx.ledger.blocks.find((b) => b.hash === h);
  if (main) return { block: main, orphan: false };
  const alt = ctx.state.alt.get(h);
  return alt ? { block: alt, orphan: true } : undefined;
}

/** parse_hash256, then the block: the real errors for a bad or unknown hash. */
function blockByHash(ctx: DaemonContext, hash: string): { block: Block; orphan: boolean } {
  if (!isHash(hash)) throw new RpcError(-1, `Failed to parse hex representation of block hash. Hex = ${hash}.`);
  const found = findBlock(ctx, hash);
  if (!found) throw new RpcError(-5, `Internal error: can't get block by hash. Hash = ${hash}.`);
  return found;
}

/** The block at a height, or -2 as on_get_block_header_by_height / on_get_block answer. */
function blockAt(ctx: DaemonContext, h: bigint): Block {
  const top = height(ctx.ledger) - 1;
  if (h > BigInt(top))
    throw new RpcError(-2, `Requested block height: ${h} greater than current top block height: ${top}`);
  return ctx.ledger.blocks[Number(h)]!;
}

function headerMethods(m: Methods): void {
  const { ctx } = m;
  const l = ctx.ledger;
  m.add(['get_last_block_header', 'getlastblockheader'], (raw) => {
    const p = powParams.parse(raw);
    if (!synced(ctx)) return { status: 'BUSY', untrusted: false };
    return { block_header: blockHeader(l, topBlock(l), p.fill_pow_hash), ...ACCESS, ...STATUS };
  });
  m.add(['get_block_header_by_height', 'getblockheaderbyheight'], (raw) => {
    const p = heightParams.parse(raw);
    return { block_header: blockHeader(l, blockAt(ctx, p.height), p.fill_pow_hash), ...ACCESS, ...STATUS };
  });
  m.add(['get_block_header_by_hash', 'getblockheaderbyhash'], (raw) => {
    const p = hashParams.parse(raw);
    const header = (hash: string): Record<string, unknown> => {
      const { block, orphan } = blockByHash(ctx, hash);
      return blockHeader(l, block, p.fill_pow_hash, orphan);
    };
    const single = p.hash ? header(p.hash) : EMPTY_HEADER;
    return { block_header: single, block_headers: p.hashes.map(header), ...ACCESS, ...STATUS };
  });
  m.add(['get_block_headers_range', 'getblockheadersrange'], (raw) => {
    const p = rangeParams.parse(raw);
    const n = BigInt(height(l));
    if (p.start_height >= n || p.end_height >= n || p.start_height > p.end_height)
      throw new RpcError(-2, 'Invalid start/end heights.');
    const headers = l.blocks
      .slice(Number(p.start_height), Number(p.end_height) + 1)
      .map((b) => blockHeader(l, b, p.fill_pow_hash));
    return { headers, ...ACCESS, ...STATUS };
  });
}

/** get_block: by hash when one is given, else by height. */
function getBlock(ctx: DaemonContext, raw: Parameters<typeof blockParams.parse>[0]): Record<string, unknown> {
  const p = blockParams.parse(raw);
  const { block, orphan } = p.hash ? blockByHash(ctx, p.hash) : { block: blockAt(ctx, p.height), orphan: false };
  return {
    blob: blockBlob(block),
    block_header: blockHeader(ctx.ledger, block, p.fill_pow_hash, orphan),
    ...ACCESS,
    json: blockJson(block),
    miner_tx_hash: block.minerTx.txid,
    protocol_tx_hash: block.protocolTx.txid,
    ...STATUS,
    tx_hashes: block.txs.map((t) => t.txid),
  };
}

export function blockMethods(m: Methods): void {
  const { ctx } = m;
  const l = ctx.ledger;
  m.add(['get_block_count', 'getblockcount'], () => ({ count: height(l), ...STATUS }));
  m.add(['get_info'], () => info(ctx));
  // A list of one height (an object, or another count: -1); a height past the top answers the null
  // hash, as v1.1.3c does (on_getblockhash sets the error but returns true, so it is not sent).
  m.add(['on_get_block_hash', 'on_getblockhash'], (raw) => {
    const heights = Array.isArray(raw) ? list(u64()).read(raw, 'params') : [];
    if (heights.length !== 1) throw new RpcError(-1, 'Wrong parameters, expected height');
    const h = heights[0]!;
    return h < BigInt(height(l)) ? l.blocks[Number(h)]!.hash : '0'.repeat(64);
  });
  headerMethods(m);
  m.add(['get_block', 'getblock'], (raw) => getBlock(ctx, raw));
  m.add(['hard_fork_info'], (raw) => {
    hfParams.parse(raw);
    return hardForkInfo(l, ctx.popped);
  });
  m.add(['get_version'], () => ({
    current_height: height(l),
    hard_forks: TESTNET_HARD_FORKS.map((f) => ({ height: f.height, hf_version: f.version })),
    release: false,
    status: 'OK',
    // target_height 0 (synchronized) is left out, as KV_SERIALIZE_OPT stores its default.
    untrusted: false,
    version: CORE_RPC_VERSION,
  }));
}
