// The JSON-RPC 2.0 envelope over an endpoint's /json_rpc, shared by the daemon and wallet clients.
import { RpcError } from './errors.js';
import type { Endpoint } from './http.js';

export interface JsonRpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** Per request: HTTP headers besides the usual ones (the simulator's replayed draws). */
export interface RequestOptions {
  headers?: Record<string, string>;
}

export interface JsonRpc {
  /** The whole answer, error included. */
  raw(method: string, params?: unknown, opts?: RequestOptions): Promise<JsonRpcAnswer>;
  /** The result; an error answer throws RpcError. */
  call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T>;
}

export function jsonRpc(endpoint: Endpoint): JsonRpc {
  let id = 0;
  const raw = async (method: string, params?: unknown, opts: RequestOptions = {}): Promise<JsonRpcAnswer> =>
    (await endpoint.post(
      '/json_rpc',
      { jsonrpc: '2.0', id: String(++id), method, ...(params === undefined ? {} : { params }) },
      opts.headers ? { headers: opts.headers } : {},
    )) as JsonRpcAnswer;
  return {
    raw,
    async call<T>(method: string, params?: unknown): Promise<T> {
      const res = await raw(method, params);
      if (res.error) throw new RpcError(res.error.code, res.error.message, method, endpoint.url);
      return res.result as T;
    },
  };
}
