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
  /** How many transactions (besides the miner's) the block at this height holds. */
  txCount(height: number): Promise<number>;
  stopDaemon(): Promise<void>;
  close(): Promise<void>;
}

export function createDaemonClient(url: string, opts: EndpointOptions = {}): DaemonClient {
  const endpoint = createEndpoint(url, opts);
  const post = async <T>(path: string, body: unknown = {}): Promise<T> => (await endpoint.post(path, body)) as T;
  const { call } = jsonRpc(endpoint);
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
    poolHashes: async () => (await post<{ tx_hashes?: string[] }>('/get_transaction_pool_hashes')).tx_hashes ?? [],
    txCount: async (height) =>
      (await call<{ block_header: { num_txes: number } }>('get_block_header_by_height', { height })).block_header
        .num_txes,
    stopDaemon: async () => {
      await post('/stop_daemon');
    },
    close: () => endpoint.close(),
  };
}
