// The simulated wallet's connection to its daemon (plain HTTP on the daemon's RPC port).
import { request } from 'undici';
import { RpcError } from '../http/server.js';
import { decode, encode, fromHex, toHex } from '../chain/codec.js';
import type { Block, Tx } from '../chain/types.js';

export interface DaemonClient {
  readonly address: string;
  post(path: string, body: unknown): Promise<Record<string, unknown>>;
  jsonRpc(method: string, params?: unknown): Promise<Record<string, unknown>>;
  height(): Promise<number>;
  blocks(start: number): Promise<{ blocks: Block[]; currentHeight: number }>;
  pool(): Promise<Tx[]>;
  send(tx: Tx): Promise<{ ok: boolean; reason: string }>;
  nextHardFork(): Promise<number>;
  fees(): Promise<bigint[]>;
}

export const NO_DAEMON = (): RpcError => new RpcError(-38, 'no connection to daemon');

export function createDaemonClient(address: string): DaemonClient {
  const base = /^https?:\/\//.test(address) ? address : `http://${address}`;
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    let text: string;
    try {
      const res = await request(`${base}${path}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
        headersTimeout: 30_000,
        bodyTimeout: 60_000,
      });
      text = await res.body.text();
      if (res.statusCode !== 200) throw NO_DAEMON();
    } catch (err) {
      if (err instanceof RpcError) throw err;
      throw NO_DAEMON();
    }
    return JSON.parse(text) as Record<string, unknown>;
  };
  const jsonRpc = async (method: string, params?: unknown): Promise<Record<string, unknown>> => {
    const res = await post('/json_rpc', { jsonrpc: '2.0', id: '0', method, params: params ?? {} });
    if (res.error) {
      const e = res.error as { code: number; message: string };
      throw new RpcError(e.code, e.message);
    }
    return res.result as Record<string, unknown>;
  };
  return {
    address,
    post,
    jsonRpc,
    async height() {
      return Number((await post('/get_height', {})).height);
    },
    async blocks(start) {
      const res = await post('/getblocks.bin', { start_height: start });
      return { blocks: decode<Block[]>(String(res.blocks_json)), currentHeight: Number(res.current_height) };
    },
    async pool() {
      const res = await post('/get_transaction_pool', {});
      // tx_json is the real daemon's decoded form; tx_blob holds the simulator's own encoding.
      const txs = (res.transactions as { tx_blob: string }[] | undefined) ?? [];
      return txs.map((t) => decode<Tx>(fromHex(t.tx_blob)));
    },
    async send(tx) {
      const res = await post('/send_raw_transaction', { tx_as_hex: toHex(encode(tx)), do_not_relay: false });
      return { ok: res.status === 'OK', reason: String(res.reason ?? '') };
    },
    async nextHardFork() {
      return Number((await jsonRpc('hard_fork_info')).version);
    },
    async fees() {
      const res = await jsonRpc('get_fee_estimate');
      return (res.fees as number[]).map((f) => BigInt(f));
    },
  };
}
