// Mining over /json_rpc (core_rpc_server.cpp, v1.1.3c): block templates and their submission, the
// miner data, generateblocks (regtest only); the proof-of-work helpers are refused on purpose.
import { HF_CARROT, nextHardFork } from '../../chain/constants.js';
import { coinbaseSplit, selectPoolTxs } from '../../chain/build.js';
import { height, topBlock } from '../../chain/ledger.js';
import { decodeAddress } from '../../crypto/address.js';
import { RpcError } from '../../http/server.js';
import { list, params, str, u32, u64 } from '../../http/params.js';
import { notModelled } from '../../http/not-modelled.js';
import { makeTemplate, seedHeights, submitBlock } from '../template.js';
import { STATUS, wide, type DaemonContext, synced } from '../views.js';
import type { Methods } from './table.js';

const templateParams = params({
  wallet_address: str(),
  reserve_size: u64(),
  extra_nonce: str(),
  prev_block: str(),
});
const genParams = params({ amount_of_blocks: u64(), wallet_address: str(), prev_block: str(), starting_nonce: u32() });

const busy = (): RpcError => new RpcError(-9, 'Core is busy');

/** The request's checks in the real order; the extra nonce's bytes when they pass. */
function checkTemplateRequest(ctx: DaemonContext, p: ReturnType<typeof templateParams.parse>): Buffer {
  if (!synced(ctx)) throw busy();
  if (p.reserve_size > 255n) throw new RpcError(-3, 'Too big reserved size, maximum 255');
  if (p.reserve_size > 0n && p.extra_nonce !== '')
    throw new RpcError(-1, 'Cannot specify both a reserve_size and an extra_nonce');
  if (p.extra_nonce.length > 510) throw new RpcError(-3, 'Too big extra_nonce size, maximum 510 hex chars');
  const a = decodeAddress(p.wallet_address);
  if (!a || a.coin !== 'salvium' || a.network !== 'testnet') throw new RpcError(-4, 'Failed to parse wallet address');
  if (a.type === 'subaddress') throw new RpcError(-12, 'Mining to subaddress is not supported yet');
  const hf = nextHardFork(height(ctx.ledger));
  if (a.family === 'carrot' && hf < HF_CARROT)
    throw new RpcError(-15, "Mining to Carrot wallet address, but Carrot isn't supported yet");
  if (a.family === 'cn' && hf >= HF_CARROT)
    throw new RpcError(-15, 'Mining to CryptoNote wallet address, but Carrot wallet address is required');
  if (p.extra_nonce !== '' && !/^([0-9a-fA-F]{2})+$/.test(p.extra_nonce))
    throw new RpcError(-1, 'Parameter extra_nonce should be a hex string');
  if (p.prev_block !== '') {
    if (!/^[0-9a-fA-F]{64}$/.test(p.prev_block)) throw new RpcError(-5, 'Invalid prev_block');
    // Templates on an older block (an alternative chain) are not modelled: only the top.
    if (p.prev_block.toLowerCase() !== topBlock(ctx.ledger).hash)
      throw new RpcError(-5, 'Internal error: failed to create block template');
  }
  return p.extra_nonce !== '' ? Buffer.from(p.extra_nonce, 'hex') : Buffer.alloc(Number(p.reserve_size));
}

function blockTemplate(ctx: DaemonContext, raw: Parameters<typeof templateParams.parse>[0]): Record<string, unknown> {
  const p = templateParams.parse(raw);
  const nonce = checkTemplateRequest(ctx, p);
  const l = ctx.ledger;
  const t = makeTemplate(ctx, p.wallet_address, nonce);
  const fees = t.block.txs.reduce((s, tx) => s + tx.fee, 0n);
  const seeds = seedHeights(t.block.index);
  const seedHash = l.blocks[seeds.seed]!.hash;
  const nextSeed = seeds.next !== seeds.seed ? l.blocks[seeds.next]?.hash : undefined;
  return {
    blockhashing_blob: t.hashingBlob,
    blocktemplate_blob: t.blob,
    difficulty: t.block.difficulty,
    difficulty_top64: 0,
    expected_reward: coinbaseSplit(l, fees).base + fees,
    height: t.block.index,
    next_seed_hash: nextSeed ?? '',
    prev_hash: t.block.prevHash,
    reserved_offset: t.reservedOffset,
    seed_hash: seedHash,
    seed_height: seeds.seed,
    ...STATUS,
    wide_difficulty: wide(t.block.difficulty),
  };
}

function minerData(ctx: DaemonContext): Record<string, unknown> {
  if (!synced(ctx)) throw busy();
  const l = ctx.ledger;
  const n = height(l);
  return {
    already_generated_coins: topBlock(l).alreadyGenerated,
    difficulty: wide(ctx.difficulty()),
    height: n,
    major_version: nextHardFork(n),
    median_weight: 300000,
    prev_id: topBlock(l).hash,
    seed_hash: l.blocks[seedHeights(n).seed]!.hash,
    ...STATUS,
    tx_backlog: selectPoolTxs(l).txs.map((tx) => ({ fee: tx.fee, id: tx.txid, weight: tx.weight })),
  };
}

export function miningMethods(m: Methods): void {
  const { ctx } = m;
  m.add(['get_block_template', 'getblocktemplate'], (raw) => blockTemplate(ctx, raw));
  m.add(['get_miner_data'], () => minerData(ctx));
  m.add(['submit_block', 'submitblock'], (raw) => {
    const blobs = Array.isArray(raw) ? list(str()).read(raw, 'params') : [];
    if (!synced(ctx)) throw busy();
    if (blobs.length !== 1) throw new RpcError(-1, 'Wrong param');
    return submitBlock(ctx, blobs[0]!);
  });
  m.add(
    ['generateblocks'],
    (raw) => {
      genParams.parse(raw);
      if (!synced(ctx)) return { status: 'BUSY', untrusted: false };
      throw new RpcError(-13, 'Regtest required when generating blocks');
    },
    true,
  );
  m.add(['calc_pow'], notModelled('calc_pow', 'the simulator computes no RandomX hashes'), true);
  m.add(['add_aux_pow'], notModelled('add_aux_pow', 'merge mining is not simulated'));
}
