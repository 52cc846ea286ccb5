// The simulated daemon answers as soon as it listens, whatever its chain's height, as a real daemon does on its
// memory-mapped database: its blocks load behind (chain/store.ts openChainLazily). Until they have, the requests a
// start makes are answered from the last block on file: the height and top hash, an empty list of blocks from the
// top (a synced wallet's refresh) and an empty pool when none was saved. Every other request waits for the chain,
// and starts its load if nothing has yet; a daemon left idle loads it a second after it started (SimConfig's
// chainLoadDelayMs): a testnet's start has finished by then.
import type { Handler } from '../http/server.js';
import type { LazyChain } from '../chain/store.js';
import { STATUS } from './views.js';

type Endpoints = Map<string, Handler>;

/** Answers from the tip alone, by path; undefined: this request needs the chain. */
function tipAnswers(chain: LazyChain, uri: Endpoints): Map<string, Handler> {
  const height: Handler = () => ({ hash: chain.tip().hash, height: chain.tip().height, ...STATUS });
  const tail = new Map<string, Handler>([
    ['/get_height', height],
    ['/getheight', height],
    [
      '/getblocks.bin',
      (raw) => {
        const start = Number((raw as { start_height?: unknown } | undefined)?.start_height);
        if (!(start >= chain.tip().height)) return undefined;
        return { blocks_json: '[]', current_height: chain.tip().height, ...STATUS };
      },
    ],
  ]);
  const pool = uri.get('/get_transaction_pool');
  if (pool && chain.poolEmpty) tail.set('/get_transaction_pool', pool);
  return tail;
}

/**
 * Every endpoint and /json_rpc method of `uri` and `rpc`, in place, made to wait for `chain` to load, but the few a
 * start makes, answered from its tip meanwhile. Starts the load after `delayMs` unless a request has already.
 */
export function servedWhileLoading(chain: LazyChain, uri: Endpoints, rpc: Endpoints, delayMs: number): void {
  if (chain.loaded()) return;
  const early = tipAnswers(chain, uri);
  const later =
    (h: Handler): Handler =>
    async (raw) => {
      if (!chain.loaded()) await chain.load();
      return h(raw);
    };
  for (const [path, h] of uri) {
    const tip = early.get(path);
    const wait = later(h);
    uri.set(path, (raw) => {
      if (chain.loaded()) return h(raw);
      const answer = tip?.(raw);
      return answer === undefined ? wait(raw) : answer;
    });
  }
  for (const [method, h] of rpc) rpc.set(method, later(h));
  setTimeout(() => void chain.load(), delayMs).unref();
}
