// The simulated daemon's URI endpoints (reference §2.1): /get_info, /start_mining, /send_raw_transaction, …
import { availableParallelism } from 'node:os';
import { decodeAddress } from '../crypto/address.js';
import { HF_CARROT, nextHardFork } from '../chain/constants.js';
import { addToPool, height, popBlock, topBlock } from '../chain/ledger.js';
import { decode, encode, fromHex } from '../chain/codec.js';
import { nodeEndpoints } from './methods/node.js';
import { poolEndpoints } from './methods/pool.js';
import { methods } from './methods/table.js';
import { transactionEndpoints } from './methods/transactions.js';
import type { Block, Tx } from '../chain/types.js';
import type { Handler } from '../http/server.js';
import { Escaped, escapeString } from '../http/json-print.js';
import { bool, list, params, str, u64 } from '../http/params.js';
import { STATUS, info, miningStatus, now, type DaemonContext, synced } from './views.js';

export type { DaemonContext } from './views.js';

const startMiningParams = params({
  miner_address: str(),
  threads_count: u64(),
  do_background_mining: bool(),
  ignore_battery: bool(),
});
const blocksParams = params({ start_height: u64(), count: u64(1000n) });
const popParams = params({ nblocks: u64() });
const rawTxParams = params({ tx_as_hex: str(), do_not_relay: bool() });
const keyImagesParams = params({ key_images: list(str()) });

/** More than this many key images in one request are refused (core_rpc_server.cpp). */
const MAX_SPENT_KEY_IMAGES_COUNT = 50000;

/**
 * /is_key_image_spent as core_rpc_server::on_is_key_image_spent answers: the access-response base
 * (credits, top_hash) with every answer, each key image parsed as hex then checked for 32 bytes (the
 * first bad one ends the request with its status, without spent_status), then 0 unspent, 1 in a
 * block, 2 in the pool.
 */
function isKeyImageSpent(l: DaemonContext['ledger'], keyImages: string[]): Record<string, unknown> {
  const base = { credits: 0, top_hash: '', untrusted: false };
  if (keyImages.length > MAX_SPENT_KEY_IMAGES_COUNT) return { ...base, status: 'Too many key images queried' };
  for (const k of keyImages) {
    if (k.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(k))
      return { ...base, status: 'Failed to parse hex representation of key image' };
    if (k.length !== 64) return { ...base, status: 'Failed, size of data mismatch' };
  }
  const pooled = new Set<string>();
  for (const tx of l.pool.values()) for (const i of tx.inputs) pooled.add(i.keyImage);
  const status = keyImages
    .map((k) => k.toLowerCase())
    .map((k) => (l.spentKeyImages.has(k) ? 1 : pooled.has(k) ? 2 : 0));
  return { ...base, ...(status.length ? { spent_status: status } : {}), status: 'OK' };
}

function startMining(ctx: DaemonContext, p: ReturnType<typeof startMiningParams.parse>): string {
  if (!synced(ctx)) return 'BUSY';
  const addr = decodeAddress(p.miner_address);
  if (!addr || addr.coin !== 'salvium' || addr.network !== 'testnet') return 'Failed, wrong address';
  if (addr.type === 'subaddress') return "Mining to subaddress isn't supported yet";
  const hf = nextHardFork(height(ctx.ledger));
  if (addr.family === 'carrot' && hf < HF_CARROT)
    return "Mining to Carrot wallet address, but Carrot isn't supported yet";
  if (addr.family === 'cn' && hf >= HF_CARROT)
    return 'Mining to CryptoNote wallet address, but Carrot wallet address is required';
  if (p.threads_count > BigInt(4 * availableParallelism())) return 'Failed, too many threads relative to CPU cores.';
  if (ctx.miner.active) return 'Already mining';
  if (ctx.miner.stopping) return 'Failed, mining not started';
  ctx.miner.start(p.miner_address, Number(p.threads_count === 0n ? 1n : p.threads_count));
  return 'OK';
}

function sendRawTransaction(ctx: DaemonContext, hex: string): Record<string, unknown> {
  const base = {
    credits: 0,
    double_spend: false,
    fee_too_low: false,
    invalid_input: false,
    invalid_output: false,
    low_mixin: false,
    not_relayed: false,
    overspend: false,
    reason: '',
    sanity_check_failed: false,
    too_big: false,
    too_few_outputs: false,
    top_hash: '',
    tx_extra_too_big: false,
    untrusted: false,
  };
  let tx: Tx;
  try {
    tx = decode<Tx>(fromHex(hex));
    if (!tx || typeof tx.txid !== 'string' || !Array.isArray(tx.inputs) || !Array.isArray(tx.outputs))
      throw new Error('shape');
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
  ctx.poolTook([tx]);
  // With peers it goes to them at once; offline (or cut off) the real daemon says it could not send it.
  if (ctx.p2p && ctx.p2p.peers().length > 0) ctx.p2p.relayTxs([tx]);
  else {
    ctx.log.log('E', 'Unable to send transaction(s) via Dandelion++ stem');
    ctx.log.log('W', 'Unable to send transaction(s), no available connections');
  }
  return { ...base, status: 'OK' };
}

/**
 * `popped`: blocks popped since the daemon started. HardFork::on_block_popped slides its vote window
 * back (pops a vote, pushes the popped height's major version at the front) instead of shrinking
 * it, so until a restart the window holds one entry more, and one vote less, per popped block.
 */
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
  // Each block's wire form (with the index of its first output) is encoded and escaped once: every wallet of a
  // testnet asks for the same blocks. A block object holds one place in one chain, so its form never changes.
  const wire = new WeakMap<Block, string>();
  const wireOf = (b: Block): string => {
    let text = wire.get(b);
    if (text === undefined) {
      text = escapeString(encode({ ...b, firstOutputIndex: l.firstOutput[b.index] }));
      wire.set(b, text);
    }
    return text;
  };
  m.set('/getblocks.bin', (raw) => {
    const p = blocksParams.parse(raw);
    const start = Number(p.start_height);
    const count = Math.min(Number(p.count), 5000);
    const blocks = l.blocks.slice(start, start + count).map(wireOf);
    return { blocks_json: new Escaped(`[${blocks.join(',')}]`), current_height: height(l), ...STATUS };
  });
  const send: Handler = (raw) => sendRawTransaction(ctx, rawTxParams.parse(raw).tx_as_hex);
  m.set('/send_raw_transaction', send).set('/sendrawtransaction', send);
  m.set('/is_key_image_spent', (raw) => isKeyImageSpent(l, keyImagesParams.parse(raw).key_images));
  const table = methods(ctx, m);
  poolEndpoints(table);
  transactionEndpoints(table);
  nodeEndpoints(table);
  return m;
}
