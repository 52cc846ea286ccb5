// A client of the wallet RPC server (salvium-wallet-rpc or monero-wallet-rpc).
import { createEndpoint, type Endpoint, type EndpointOptions } from './http.js';
import { jsonRpc, type JsonRpcAnswer, type RequestOptions } from './jsonrpc.js';
import { RpcError } from './errors.js';
import { toBigInt } from './json.js';

export interface WalletClient {
  readonly url: string;
  readonly endpoint: Endpoint;
  /** Any wallet method; throws RpcError on an error answer. */
  call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T>;
  /** The full answer, error included (for scenarios that expect errors). */
  raw(method: string, params?: unknown, opts?: RequestOptions): Promise<JsonRpcAnswer>;
  version(): Promise<number>;
  height(): Promise<number>;
  refresh(): Promise<{ blocks_fetched: number; received_money: boolean }>;
  /**
   * Balance and unlocked balance of an asset in atomic units, for both answer shapes: Salvium's
   * `balances[]` records (asset "SAL1" by default; a wallet that never received it has 0) and
   * Monero's flat `{balance, unlocked_balance}` (asset ignored).
   */
  balance(asset?: string): Promise<{ balance: bigint; unlocked: bigint; blocksToUnlock: number }>;
  stopWallet(): Promise<void>;
  close(): Promise<void>;
}

export function createWalletClient(url: string, opts: EndpointOptions = {}): WalletClient {
  const endpoint = createEndpoint(url, opts);
  const { raw, call } = jsonRpc(endpoint);
  return {
    url: endpoint.url,
    endpoint,
    call,
    raw,
    version: async () => (await call<{ version: number }>('get_version')).version,
    height: async () => (await call<{ height: number }>('get_height')).height,
    refresh: () => call('refresh'),
    async balance(asset = 'SAL1') {
      const res = await raw('get_balance', { asset_type: asset });
      if (res.error) {
        // Salvium: a wallet that never received the asset answers -1 "Source asset ... not found".
        if (res.error.code === -1 && /not found in wallet/.test(res.error.message))
          return { balance: 0n, unlocked: 0n, blocksToUnlock: 0 };
        throw new RpcError(res.error.code, res.error.message, 'get_balance', endpoint.url);
      }
      const r = res.result ?? {};
      if (Array.isArray(r.balances)) {
        const rec = (r.balances as Record<string, unknown>[]).find((b) => b.asset_type === asset);
        if (!rec) return { balance: 0n, unlocked: 0n, blocksToUnlock: 0 };
        return {
          balance: toBigInt(rec.balance),
          unlocked: toBigInt(rec.unlocked_balance),
          blocksToUnlock: Number(rec.blocks_to_unlock ?? 0),
        };
      }
      if ('balance' in r)
        return {
          balance: toBigInt(r.balance),
          unlocked: toBigInt(r.unlocked_balance),
          blocksToUnlock: Number(r.blocks_to_unlock ?? 0),
        };
      return { balance: 0n, unlocked: 0n, blocksToUnlock: 0 }; // `{}`: zero balances are dropped
    },
    stopWallet: async () => {
      await call('stop_wallet');
    },
    close: () => endpoint.close(),
  };
}
