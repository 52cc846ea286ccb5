// What the metrics read of a running testnet's chain: each node's height and pool, n0's new blocks (the transactions
// they hold, for the transactions per second), the transactions that leave n0's pool for a block (how long each took,
// in seconds and blocks), and each wallet's height against its node's (its scan lag). Through clients of its own:
// short deadlines, no crash recovery (a program restarting is a gap in its series, not a scrape that hangs), and
// unobserved (their requests are not the testnet's RPC latency).
import { scaled } from '../common/timeouts.js';
import { createDaemonClient, type DaemonClient } from '../rpc/daemon.js';
import type { Credentials } from '../rpc/http.js';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';
import type { Testnet } from '../testnet/types.js';
import { TPS_WINDOW_S, type TestnetMetrics } from './registry.js';

/** A request of the sampler that takes longer is given up (its series is left out until it answers again). */
const REQUEST_MS = 3000;
/** Blocks read back on the first sample, so that the transactions per second cover the window at once. */
const BACKFILL = 100;
/** The most new blocks one sample reads (a longer burst of mining is counted from its last ones). */
const MAX_RANGE = 1000;

interface BlockTxs {
  height: number;
  /** The block's timestamp, in seconds. */
  timestamp: number;
  txs: number;
}

/** A transaction in n0's pool: when the sampler first saw it there (ms), and the chain's height then. */
interface Seen {
  at: number;
  height: number;
}

interface Header {
  height: number;
  timestamp: number;
  num_txes: number;
}

interface PoolTx {
  tx_hash: string;
  in_pool?: boolean;
  block_height?: number;
}

const settled = async <T>(p: Promise<T>): Promise<T | undefined> => p.catch(() => undefined);

export class ChainSampler {
  private readonly daemons = new Map<string, DaemonClient>();
  private readonly walletClients = new Map<string, WalletClient>();
  private top: number | undefined;
  private recent: BlockTxs[] = [];
  private readonly pending = new Map<string, Seen>();

  constructor(
    private readonly t: Testnet,
    private readonly m: TestnetMetrics,
  ) {}

  /** Read the testnet once and set the metrics; a program that does not answer leaves its series out. */
  async sample(): Promise<void> {
    const now = Date.now();
    const nodes = await Promise.all(
      this.t.nodes.map(async (n) => {
        const c = this.daemon(n.url);
        const [height, pool] = await Promise.all([settled(c.height()), settled(c.poolHashes())]);
        return { name: n.name, height, pool };
      }),
    );
    const n0 = nodes[0];
    const n0Client = this.t.nodes[0] && this.daemon(this.t.nodes[0].url);
    if (n0?.height !== undefined && n0Client) {
      await settled(this.blocks(n0Client, n0.height));
      if (n0.pool) await settled(this.confirmations(n0Client, n0.pool, n0.height, now));
    }
    const heightOf = new Map(nodes.map((n) => [n.name, n.height]));
    const wallets = await Promise.all(
      [...this.t.wallets().values()].map(async (w) => ({
        name: w.name,
        node: heightOf.get(w.node),
        own: await settled(this.wallet(w.url, w.credentials).height()),
      })),
    );
    // Set at once, so that a scrape never reads half a sample.
    this.m.height.reset();
    this.m.pool.reset();
    this.m.scanLag.reset();
    for (const n of nodes) {
      if (n.height !== undefined) this.m.height.set({ node: n.name }, n.height);
      if (n.pool) this.m.pool.set({ node: n.name }, n.pool.length);
    }
    for (const w of wallets)
      if (w.node !== undefined && w.own !== undefined)
        this.m.scanLag.set({ wallet: w.name }, Math.max(0, w.node - w.own));
    const since = now / 1000 - TPS_WINDOW_S;
    this.recent = this.recent.filter((b) => b.timestamp > since);
    this.m.tps.set(this.recent.reduce((sum, b) => sum + b.txs, 0) / TPS_WINDOW_S);
  }

  /** The blocks n0 added since the last sample (the last BACKFILL on the first): their transactions. */
  private async blocks(c: DaemonClient, height: number): Promise<void> {
    const first = this.top === undefined;
    // Blocks popped (a revert) are forgotten; their transactions stay counted.
    if (this.top !== undefined && height < this.top) this.recent = this.recent.filter((b) => b.height < height);
    const from = this.top === undefined ? Math.max(0, height - BACKFILL) : Math.max(this.top, height - MAX_RANGE);
    if (from < height) {
      const { headers } = await c.call<{ headers: Header[] }>('get_block_headers_range', {
        start_height: from,
        end_height: height - 1,
      });
      let txs = 0;
      for (const b of headers) {
        this.recent.push({ height: b.height, timestamp: b.timestamp, txs: b.num_txes });
        txs += b.num_txes;
      }
      if (!first) this.m.mined.inc(txs);
    }
    this.top = height;
  }

  /**
   * Note the transactions new in n0's pool; of those gone from it since, the ones now in a block are confirmed: the
   * time from first seeing it to seeing it gone (to within a sample's interval), and the blocks to its own.
   */
  private async confirmations(c: DaemonClient, pool: string[], height: number, now: number): Promise<void> {
    const inPool = new Set(pool);
    for (const hash of pool) if (!this.pending.has(hash)) this.pending.set(hash, { at: now, height });
    const gone = [...this.pending.keys()].filter((h) => !inPool.has(h));
    if (gone.length === 0) return;
    const answer = await c.post<{ txs?: PoolTx[] }>('/get_transactions', { txs_hashes: gone });
    for (const tx of answer.txs ?? []) {
      const seen = this.pending.get(tx.tx_hash);
      if (!seen || tx.in_pool || typeof tx.block_height !== 'number') continue;
      this.m.confirmationSeconds.observe((now - seen.at) / 1000);
      this.m.confirmationBlocks.observe(Math.max(1, tx.block_height - seen.height + 1));
    }
    // Confirmed, or dropped from the pool: either way no longer waited for.
    for (const hash of gone) this.pending.delete(hash);
  }

  private daemon(url: string): DaemonClient {
    let c = this.daemons.get(url);
    if (!c) this.daemons.set(url, (c = createDaemonClient(url, { timeoutMs: scaled(REQUEST_MS), unobserved: true })));
    return c;
  }

  private wallet(url: string, auth: Credentials | undefined): WalletClient {
    let c = this.walletClients.get(url);
    if (!c)
      this.walletClients.set(
        url,
        (c = createWalletClient(url, { timeoutMs: scaled(REQUEST_MS), unobserved: true, ...(auth ? { auth } : {}) })),
      );
    return c;
  }

  /** Close its clients, failing what they still wait for. */
  async close(): Promise<void> {
    await Promise.all([...this.daemons.values(), ...this.walletClients.values()].map((c) => c.endpoint.destroy()));
  }
}
