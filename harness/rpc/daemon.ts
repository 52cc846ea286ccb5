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
      (await post<{ status: string }>('/start_mining', { miner_address: address, threads_count: threads, do_background_mining: false, ignore_battery: true })).status,
    stopMining: async () => (await post<{ status: string }>('/stop_mining')).status,
    miningStatus: () => post<MiningStatus>('/mining_status'),
    stopDaemon: async () => {
      await post('/stop_daemon');
    },
    close: () => endpoint.close(),
  };
}
