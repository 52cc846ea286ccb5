// A client of the daemon's RPC (salviumd or monerod): URI endpoints and /json_rpc.
import { createEndpoint, type Endpoint, type EndpointOptions } from './http.js';
import { jsonRpc } from './jsonrpc.js';

export interface MiningStatus {
  active: boolean;
  address: string;
  speed: number;
  threads_count: number;
  [key: string]: unknown;
}

export interface DaemonClient {
  readonly url: string;
  readonly endpoint: Endpoint;
  /** A URI endpoint such as `/get_info` (plain JSON in, plain JSON out). */
  post<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  /** A /json_rpc method; throws RpcError on an error answer. */
  call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T>;
  getInfo(): Promise<Record<string, unknown> & { status: string; height: number; synchronized?: boolean }>;
  height(): Promise<number>;
  /** `/start_mining`; returns the status string (`OK` or why not). */
  startMining(address: string, threads?: number): Promise<string>;
  stopMining(): Promise<string>;
  miningStatus(): Promise<MiningStatus>;
  /** `/pop_blocks`: take the top `n` blocks off the chain (their txs go back to the pool); returns the new height. */
  popBlocks(n: number): Promise<number>;
  /** `/get_transaction_pool_hashes`: the hashes of the transactions in the pool (none: an empty list). */
  poolHashes(): Promise<string[]>;
  /**
   * The pool's transactions the daemon has not handed to its relay yet, and so leaves out of its block templates (see
   * unrelayedTxs). Empty for a pool of settled transactions, or a daemon that does not say.
   */
  unrelayed(): Promise<string[]>;
  /** How many transactions (besides the miner's) the block at this height holds. */
  txCount(height: number): Promise<number>;
  /** `get_block_template` paying `address`: a block to find a nonce for. */
  blockTemplate(address: string): Promise<BlockTemplate>;
  /** `submit_block` of a block blob (hex); throws RpcError when the daemon refuses it. */
  submitBlock(blob: string): Promise<void>;
  stopDaemon(): Promise<void>;
  close(): Promise<void>;
}

/** The fields of a get_block_template answer a miner reads. */
export interface BlockTemplate {
  blocktemplate_blob: string;
  blockhashing_blob: string;
  difficulty: number;
  wide_difficulty?: string;
  height: number;
  prev_hash: string;
  /** RandomX's seed hash (the key of its cache and dataset). */
  seed_hash?: string;
  [key: string]: unknown;
}

export function createDaemonClient(url: string, opts: EndpointOptions = {}): DaemonClient {
  const endpoint = createEndpoint(url, opts);
  const post = async <T>(path: string, body: unknown = {}): Promise<T> => (await endpoint.post(path, body)) as T;
  const { call } = jsonRpc(endpoint);
  const poolHashes = async (): Promise<string[]> =>
    (await post<{ tx_hashes?: string[] }>('/get_transaction_pool_hashes')).tx_hashes ?? [];
  return {
    url: endpoint.url,
    endpoint,
    post,
    call,
    getInfo: () => post('/get_info'),
    height: async () => (await post<{ height: number }>('/get_height')).height,
    startMining: async (address, threads = 1) =>
      (
        await post<{ status: string }>('/start_mining', {
          miner_address: address,
          threads_count: threads,
          do_background_mining: false,
          ignore_battery: true,
        })
      ).status,
    stopMining: async () => (await post<{ status: string }>('/stop_mining')).status,
    miningStatus: () => post<MiningStatus>('/mining_status'),
    popBlocks: async (n) => (await post<{ height: number }>('/pop_blocks', { nblocks: n })).height,
    poolHashes,
    unrelayed: async () =>
      (await poolHashes()).length === 0
        ? []
        : unrelayedTxs(await post<{ transactions?: PoolTx[] }>('/get_transaction_pool')),
    txCount: async (height) =>
      (await call<{ block_header: { num_txes: number } }>('get_block_header_by_height', { height })).block_header
        .num_txes,
    blockTemplate: (address) => call<BlockTemplate>('get_block_template', { wallet_address: address, reserve_size: 8 }),
    submitBlock: async (blob) => {
      await call('submit_block', [blob]);
    },
    stopDaemon: async () => {
      await post('/stop_daemon');
    },
    close: () => endpoint.close(),
  };
}

interface PoolTx {
  id_hash: string;
  relayed?: boolean;
  last_relayed_time?: number;
  do_not_relay?: boolean;
  kept_by_block?: boolean;
}

/**
 * The txs of a /get_transaction_pool answer not yet relayed. Salvium (as Monero) relays a tx submitted over RPC on a
 * p2p strand of its own (Dandelion++, levin_notify.cpp dandelionpp_notify), after /send_raw_transaction has answered:
 * until then the tx is `local`, `relayed: false`, and left out of block templates; then it is a stem (`relayed`, its
 * `last_relayed_time` hidden as 0), and offline, with no peer to stem to, fluffed at once (minable). A tx held back
 * (`do_not_relay`) or back from a popped block (`kept_by_block`) is settled as it is.
 */
export function unrelayedTxs(answer: { transactions?: PoolTx[] }): string[] {
  return (answer.transactions ?? [])
    .filter((t) => !t.do_not_relay && !t.kept_by_block && !(t.relayed && (t.last_relayed_time ?? 0) > 0))
    .map((t) => t.id_hash);
}
