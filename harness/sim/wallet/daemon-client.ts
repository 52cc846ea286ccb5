// The simulated wallet's connection to its daemon (plain HTTP on the daemon's RPC port), with node:http: a client
// library would be most of what a simulated wallet RPC loads at each start (undici also loads Node's own copy).
import { Agent, type ClientRequest, request } from 'node:http';
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
  /** The ids of the pool's transactions (/get_transaction_pool_hashes), in the pool's order. */
  poolHashes(): Promise<string[]>;
  /** The transactions of these ids still in the pool or the chain (/get_transactions; the others left out). */
  transactions(ids: readonly string[]): Promise<Tx[]>;
  send(tx: Tx): Promise<{ ok: boolean; reason: string }>;
  nextHardFork(): Promise<number>;
  fees(): Promise<bigint[]>;
}

/** Transactions asked for in one /get_transactions request. */
const TXS_PER_REQUEST = 200;

export const NO_DAEMON = (): RpcError => new RpcError(-38, 'no connection to daemon');

/** node:http's request, or null where it throws (a URL it cannot parse or a protocol it does not speak). */
function requestOrNull(...args: Parameters<typeof request>): ClientRequest | null {
  try {
    return request(...args);
  } catch {
    return null;
  }
}

export function createDaemonClient(address: string): DaemonClient {
  // An https:// daemon is one the simulator cannot reach (it speaks plain HTTP): request() throws, NO_DAEMON.
  const base = /^https?:\/\//.test(address) ? address : `http://${address}`;
  const agent = new Agent({ keepAlive: true });
  // One try; a second when a kept-alive connection turns out closed by the daemon as the request went (Node's advice).
  const send = (path: string, body: string, again: boolean): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const req = requestOrNull(
        `${base}${path}`,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' }, timeout: 60_000 },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', () => reject(NO_DAEMON()));
          res.on('end', () =>
            res.statusCode === 200 ? resolve(Buffer.concat(chunks).toString('utf8')) : reject(NO_DAEMON()),
          );
        },
      );
      if (!req) return reject(NO_DAEMON());
      // A daemon that stops answering for a minute is as good as gone.
      req.on('timeout', () => req.destroy());
      req.on('error', (err: NodeJS.ErrnoException) =>
        again && req.reusedSocket && err.code === 'ECONNRESET' ? resolve(send(path, body, false)) : reject(NO_DAEMON()),
      );
      req.end(body);
    });
  const post = async (path: string, body: unknown): Promise<Record<string, unknown>> =>
    JSON.parse(await send(path, JSON.stringify(body), true)) as Record<string, unknown>;
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
    async poolHashes() {
      return ((await post('/get_transaction_pool_hashes', {})).tx_hashes as string[] | undefined) ?? [];
    },
    async transactions(ids) {
      const txs: Tx[] = [];
      // The daemon answers at most 1000 a request (MAX_GET_TRANSACTIONS_COUNT).
      for (let i = 0; i < ids.length; i += TXS_PER_REQUEST) {
        const res = await post('/get_transactions', { txs_hashes: ids.slice(i, i + TXS_PER_REQUEST) });
        for (const t of (res.txs as { as_hex: string; pruned_as_hex: string }[] | undefined) ?? [])
          txs.push(decode<Tx>(fromHex(t.as_hex || t.pruned_as_hex)));
      }
      return txs;
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
