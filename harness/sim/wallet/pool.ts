// The wallet's view of the daemon's pool (wallet2::update_pool_state): incoming payments still in the pool, and
// the state of the wallet's own pending sends.
import type { Tx } from '../chain/types.js';
import type { DaemonClient } from './daemon-client.js';
import { groupPayments, type Paid, ZERO_PAYMENT_ID } from './payments.js';
import type { Wallet } from './state.js';
import { indexOfAddress } from './subaddresses.js';

/** How long wallet2 waits after a send before it judges a tx missing from the pool failed (tx_propagation_timeout). */
const TX_PROPAGATION_TIMEOUT_S = 500;

/**
 * How the pool was looked at (wallet2::update_pool_state): by a refresh after its blocks (`refreshed`), and then
 * `incremental` once an earlier refresh has asked (only the txs added since are seen); or by a client's request
 * (get_transfers with pool, get_transfer_by_txid: neither).
 */
export interface PoolCheck {
  refreshed: boolean;
  incremental: boolean;
  /** Seconds after a send before it may be judged failed (default TX_PROPAGATION_TIMEOUT_S; a test knob sets it). */
  timeoutS?: number | undefined;
}

/**
 * wallet2::process_unconfirmed_transfer for each pending send: seen in the pool, it is `pending_in_pool`; gone from
 * a full look at the pool, `pending` again; and only a refresh more than 500 s after the send that still finds it
 * neither in a block (the blocks come first) nor in the pool marks it failed and frees its inputs. So a send mined
 * before the wallet refreshes stays pending until that refresh confirms it.
 */
function checkPending(w: Wallet, inPool: ReadonlySet<string>, check: PoolCheck): void {
  // wallet2 compares the clock's time, not its second, with the send's second.
  const now = Date.now() / 1000;
  for (const rec of w.state.outs) {
    if (rec.state !== 'pending') continue;
    if (inPool.has(rec.txid)) {
      rec.seenInPool = true;
      continue;
    }
    if (!check.incremental) delete rec.seenInPool;
    if (rec.seenInPool || !check.refreshed || now <= rec.timestamp + (check.timeoutS ?? TX_PROPAGATION_TIMEOUT_S))
      continue;
    rec.state = 'failed';
    delete rec.seenInPool;
    for (const o of w.state.outputs)
      if (o.spentBy === rec.txid) {
        o.spent = false;
        delete o.spentBy;
      }
  }
}

/**
 * A look at the daemon's pool, as wallet2::update_pool_state takes it: the pool's transaction ids, then only the
 * transactions this wallet has not looked at yet (neither its own sends, nor payments to it already listed, nor others
 * it found nothing in), then scanPool.
 */
export async function lookAtPool(w: Wallet, daemon: DaemonClient, check: PoolCheck): Promise<void> {
  const ids = await daemon.poolHashes();
  const mine = new Set(w.state.outs.map((r) => r.txid));
  const known = new Set(w.state.pool.map((p) => p.txid));
  const scanned = w.poolScanned ?? new Set<string>();
  const unseen = ids.filter((id) => !mine.has(id) && !known.has(id) && !scanned.has(id));
  const txs = unseen.length > 0 ? await daemon.transactions(unseen) : [];
  scanPool(w, ids, txs, check);
}

/**
 * Pool: incoming unconfirmed payments, and the state of pending sends (checkPending). A payment the daemon's pool no
 * longer holds is forgotten only by a refresh (wallet2::remove_obsolete_pool_txs runs when `refreshed`), after the
 * refresh's blocks have turned a mined one into an incoming transfer: until then get_transfers and get_transfer_by_txid
 * still list it in `pool`. `ids` are the pool's, `txs` those of its transactions not looked at yet (lookAtPool).
 */
function scanPool(w: Wallet, ids: readonly string[], txs: readonly Tx[], check: PoolCheck): void {
  const st = w.state;
  const inPool = new Set(ids);
  checkPending(w, inPool, check);
  st.pool = st.pool.filter((p) => inPool.has(p.txid) || !check.refreshed);
  // What the pool no longer holds is forgotten: the set stays the size of the pool.
  const scanned = new Set([...(w.poolScanned ?? [])].filter((id) => inPool.has(id)));
  w.poolScanned = scanned;
  for (const tx of txs) {
    scanned.add(tx.txid);
    const outs: Paid[] = [];
    for (const o of tx.outputs) {
      const subaddr = indexOfAddress(w, o.address);
      if (subaddr) outs.push({ ...o, subaddr });
    }
    for (const g of groupPayments(outs))
      st.pool.push({
        txid: tx.txid,
        timestamp: tx.timestamp,
        amount: g.outs.reduce((s, o) => s + o.amount, 0n),
        amounts: g.all,
        // A pool payment of nothing but zero-amount outputs shows no asset type (seen on v1.1.3c).
        asset: g.outs.some((o) => o.amount > 0n) ? g.asset : '',
        paymentId: ZERO_PAYMENT_ID,
        address: g.outs[0]!.address,
        fee: tx.fee,
        subaddr: g.sub,
      });
  }
}
