// Refresh: scan new blocks and the pool for this wallet's outputs and spends, following the real
// wallet's bookkeeping (Monero wallet2): spends mark outputs spent; a tx that spends our outputs
// is an outgoing transfer whose own-account outputs count as change (no incoming entry); other
// received outputs are incoming payments (`block` for miner/protocol txs).
import { randomBytes } from 'node:crypto';
import { formatMoney as fmt } from '../common/format.js';
import { keyImage } from '../crypto/keys.js';
import { DEFAULT_TX_SPENDABLE_AGE, MINED_MONEY_UNLOCK_WINDOW, TxType } from '../chain/constants.js';
import type { Block, Tx } from '../chain/types.js';
import type { DaemonClient } from './daemon-client.js';
import { emptyState, type OwnedOutput, type Wallet } from './state.js';
import { indexOfAddress } from './subaddresses.js';
import { groupPayments, subOf, ZERO_PAYMENT_ID } from './payments.js';
import { lookAtPool } from './pool.js';

export interface RefreshResult {
  blocksFetched: number;
  receivedMoney: boolean;
  /** Lines the real wallet logs while refreshing (`Received money: …`, `Spent money: …`). */
  events: string[];
}

export interface ScanOptions {
  /** Whether outputs a protocol tx mints for our own create_token are seen (not established on real Salvium). */
  tokenMintVisible: boolean;
  /** wallet2's tx_propagation_timeout in seconds (default: pool.ts's 500; a test knob sets it). */
  txPropagationTimeoutS?: number | undefined;
}

function addAsset(w: Wallet, asset: string): void {
  if (!w.state.assetsSeen.includes(asset)) w.state.assetsSeen.push(asset);
}

/** Lookups a scan needs, built once per scan rather than once per transaction. */
interface ScanIndex {
  byKeyImage: Map<string, OwnedOutput>;
  ids: Set<string>;
}

function indexOf(w: Wallet): ScanIndex {
  return {
    byKeyImage: new Map(w.state.outputs.map((o) => [o.keyImage, o])),
    ids: new Set(w.state.outputs.map((o) => o.id)),
  };
}

function recordIncoming(w: Wallet, tx: Tx, block: Block, got: OwnedOutput[], paymentId: string): void {
  for (const g of groupPayments(got)) {
    // wallet2's m_payments is an unordered_multimap keyed by payment id, all zero here: libstdc++
    // puts a new entry in front of its equal keys, so the newest is listed first (until a reload).
    w.state.ins.unshift({
      txid: tx.txid,
      height: block.index,
      timestamp: block.timestamp,
      amount: g.outs.reduce((s, o) => s + o.amount, 0n),
      amounts: g.all,
      asset: g.asset,
      coinbase: g.outs[0]!.coinbase,
      unlockHeight: g.outs[0]!.unlockHeight,
      unlockTime: tx.unlockTime,
      paymentId,
      address: g.outs[0]!.address,
      fee: tx.fee,
      subaddr: g.sub,
    });
  }
}

/** Our outputs the tx spends (already marked spent by our own pending tx, or not yet). */
function spendsOf(tx: Tx, index: ScanIndex): OwnedOutput[] {
  const spent: OwnedOutput[] = [];
  for (const input of tx.inputs) {
    const mine = index.byKeyImage.get(input.keyImage);
    if (!mine || (mine.spent && mine.spentBy !== tx.txid)) continue;
    mine.spent = true;
    mine.spentBy = tx.txid;
    spent.push(mine);
  }
  return spent;
}

/**
 * Our new outputs in the tx: at any subaddress of the lookahead window. A zero-amount change output is
 * the wallet's too (every Carrot tx has one when nothing is left over): listed by incoming_transfers.
 */
function receivedIn(
  w: Wallet,
  tx: Tx,
  block: Block,
  opts: ScanOptions,
  index: ScanIndex,
  first?: number,
): OwnedOutput[] {
  const coinbase = tx.type === TxType.MINER || tx.type === TxType.PROTOCOL;
  const got: OwnedOutput[] = [];
  for (const [position, o] of tx.outputs.entries()) {
    if (index.ids.has(o.id)) continue;
    if (tx.type === TxType.PROTOCOL && o.asset.startsWith('sal') && o.asset.length === 7 && !opts.tokenMintVisible)
      continue;
    const subaddr = indexOfAddress(w, o.address);
    if (!subaddr) continue;
    const owned: OwnedOutput = {
      id: o.id,
      txid: tx.txid,
      amount: o.amount,
      asset: o.asset,
      blockIndex: block.index,
      coinbase,
      keyImage: keyImage(w.keys.carrot.generateImage, o.id),
      unlockHeight: block.index + (coinbase ? MINED_MONEY_UNLOCK_WINDOW : DEFAULT_TX_SPENDABLE_AGE),
      unlockTime: tx.unlockTime,
      address: o.address,
      spent: false,
      ...(first !== undefined ? { globalIndex: first + position } : {}),
      subaddr,
    };
    w.state.outputs.push(owned);
    index.byKeyImage.set(owned.keyImage, owned);
    index.ids.add(owned.id);
    got.push(owned);
    addAsset(w, o.asset);
  }
  return got;
}

/** Confirm our record of a tx we sent (or reconstruct one for a tx sent by another copy of this wallet). */
function confirmOutgoing(w: Wallet, tx: Tx, block: Block, spent: OwnedOutput[], selfReceived: bigint): void {
  const st = w.state;
  const spentIn = spent.reduce((s, o) => s + o.amount, 0n);
  let rec = st.outs.find((r) => r.txid === tx.txid);
  if (!rec) {
    rec = {
      txid: tx.txid,
      state: 'confirmed',
      height: block.index,
      timestamp: block.timestamp,
      amountIn: spentIn,
      change: selfReceived,
      fee: tx.fee + tx.burnt,
      asset: tx.sourceAsset,
      destinations: [],
      paymentId: tx.paymentId,
      inputs: spent.map((o) => o.id),
      account: subOf(spent[0]!).major,
      subaddrIndices: [...new Set(spent.map((o) => subOf(o).minor))].sort((a, b) => a - b),
    };
    st.outs.push(rec);
  }
  rec.state = 'confirmed';
  rec.height = block.index;
  rec.timestamp = block.timestamp;
  rec.amountIn = spentIn;
  // Sending to ourselves only (wallet2::process_new_transaction): the whole received amount is change, so the entry's
  // amount shows 0. A tx that also pays others keeps the change it was built with: a payment to the sender's own
  // address in it counts in the amount.
  if (spentIn === selfReceived + rec.fee) rec.change = selfReceived;
}

function scanTx(
  w: Wallet,
  tx: Tx,
  block: Block,
  opts: ScanOptions,
  events: string[],
  index: ScanIndex,
  first?: number,
): boolean {
  const spent = spendsOf(tx, index);
  const got = receivedIn(w, tx, block, opts, index, first);
  for (const g of got) events.push(`Received money: ${fmt(g.amount)}, with tx: <${tx.txid}>`);
  for (const s of spent) events.push(`Spent money: ${fmt(s.amount)}, with tx: <${tx.txid}>`);
  if (spent.length > 0) {
    // Outputs to the spending account are change; those to another account are payments to it.
    const account = subOf(spent[0]!).major;
    const change = got.filter((o) => subOf(o).major === account);
    const selfReceived = change.filter((o) => o.asset === tx.sourceAsset).reduce((s, o) => s + o.amount, 0n);
    confirmOutgoing(w, tx, block, spent, selfReceived);
    const payments = got.filter((o) => subOf(o).major !== account || o.asset !== tx.sourceAsset);
    if (payments.length > 0) recordIncoming(w, tx, block, payments, tx.paymentId);
  } else if (got.length > 0) {
    // A return_payment's receiver records uninitialised memory as its payment id (v1.1.3c): 32 random bytes.
    recordIncoming(w, tx, block, got, tx.returned ? randomBytes(32).toString('hex') : ZERO_PAYMENT_ID);
  }
  if (got.length > 0) w.state.pool = w.state.pool.filter((p) => p.txid !== tx.txid);
  return got.length > 0;
}

/**
 * scan_tx: one transaction of the chain (or pool) processed as if met in its block, for a tx the
 * wallet's scan skipped (below its restore height). Outputs and spends it already knows are not
 * counted twice.
 */
export function scanOneTx(w: Wallet, tx: Tx, height: number, timestamp: number, opts: ScanOptions): string[] {
  const events: string[] = [];
  const block = { index: height, timestamp } as Block;
  scanTx(w, tx, block, opts, events, indexOf(w));
  return events;
}

/** How many block hashes a wallet keeps to detach from (a real wallet keeps them all). */
const RECENT_HASHES = 200;

export function scanBlocks(w: Wallet, blocks: Block[], opts: ScanOptions, events: string[]): boolean {
  let received = false;
  const index = indexOf(w);
  for (const block of blocks) {
    if (block.index !== w.state.height) continue;
    if (block.index >= w.state.refreshFrom) {
      let next = block.firstOutputIndex;
      for (const tx of [block.minerTx, block.protocolTx, ...block.txs]) {
        if (scanTx(w, tx, block, opts, events, index, next)) received = true;
        if (next !== undefined) next += tx.outputs.length;
      }
    }
    w.state.height = block.index + 1;
    w.state.topHash = block.hash;
    const recent = (w.state.recentHashes ??= []);
    recent.push(block.hash);
    if (recent.length > RECENT_HASHES) recent.splice(0, recent.length - RECENT_HASHES);
    w.state.lastBlockReward = block.reward;
  }
  return received;
}

/** Bring the wallet up to the daemon's height. */
export async function refresh(w: Wallet, daemon: DaemonClient, opts: ScanOptions): Promise<RefreshResult> {
  const events: string[] = [];
  const before = w.state.height;
  let received = false;
  for (;;) {
    const { blocks, currentHeight } = await daemon.blocks(w.state.height);
    // The daemon's chain is shorter than what we scanned, or does not continue our top block:
    // blocks were popped or replaced. Detach from where the chains split (or rescan).
    if (
      w.state.height > currentHeight ||
      (blocks.length > 0 && w.state.topHash && blocks[0]!.prevHash !== w.state.topHash)
    ) {
      const split = await splitHeight(w, daemon);
      if (split === undefined) resetScan(w, currentHeight);
      else detach(w, split, events);
      continue;
    }
    if (scanBlocks(w, blocks, opts, events)) received = true;
    if (blocks.length === 0 || w.state.height >= currentHeight) break;
  }
  await lookAtPool(w, daemon, {
    refreshed: true,
    incremental: w.poolQueried === true,
    timeoutS: opts.txPropagationTimeoutS,
  });
  w.poolQueried = true;
  return { blocksFetched: Math.max(0, w.state.height - before), receivedMoney: received, events };
}

/** The height from which our scanned blocks differ from the daemon's chain, if within the recent hashes. */
async function splitHeight(w: Wallet, daemon: DaemonClient): Promise<number | undefined> {
  const recent = w.state.recentHashes ?? [];
  const base = w.state.height - recent.length;
  if (recent.length === 0 || base < 0) return undefined;
  const { blocks } = await daemon.blocks(base);
  let split: number | undefined;
  for (const b of blocks) {
    if (b.index - base >= recent.length || recent[b.index - base] !== b.hash) break;
    split = b.index + 1;
  }
  return split;
}

/**
 * Forget the blocks from `h` on, as wallet2::detach_blockchain: outputs received in them, incoming
 * entries, and spends. A send confirmed in a detached block is pending again (its tx is back in the
 * daemon's pool, as pop_blocks returns it there).
 */
export function detach(w: Wallet, h: number, events: string[]): void {
  const st = w.state;
  const blocksDetached = st.height - h;
  const gone = st.outputs.filter((o) => o.blockIndex >= h).length;
  st.outputs = st.outputs.filter((o) => o.blockIndex < h);
  st.ins = st.ins.filter((r) => r.height < h);
  for (const r of st.outs) if (r.state === 'confirmed' && r.height >= h) r.state = 'pending';
  const recent = st.recentHashes ?? [];
  recent.splice(recent.length - blocksDetached);
  st.height = h;
  st.topHash = recent[recent.length - 1] ?? '';
  events.push(`Detached blockchain on height ${h}, transfers detached ${gone}, blocks detached ${blocksDetached}`);
}

/**
 * Forget everything scanned (e.g. the daemon now serves a different chain) and scan again, from the refresh height or
 * from `below` when the daemon's chain is shorter than that (blocks popped under a wallet that had scanned none of its
 * own: it stands at the daemon's top, and scans from its refresh height on as the chain grows again).
 */
export function resetScan(w: Wallet, below?: number): void {
  const kept = w.state.meta;
  w.state = emptyState(w.state.refreshFrom);
  if (below !== undefined && w.state.height > below) w.state.height = below;
  if (kept) w.state.meta = kept;
}
