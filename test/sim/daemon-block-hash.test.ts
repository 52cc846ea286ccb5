// on_get_block_hash (alias on_getblockhash), against what real salviumd v1.1.3c answered on a fresh
// testnet chain (recorded 2026-11-24 with curl on /json_rpc; see the method in sim/daemon/json-rpc.ts).
// GENESIS stands for the chain's top hash, as /get_height gives it: on the real daemon both were
// d4b8defd…a997; the simulator's block hashes are its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, post, startDaemon, stopAll, tempDir, type SimDaemon } from '../helpers/sim.js';

/** Real v1.1.3c, fresh testnet chain (height 1): request params → the answer's result or error. */
const GENESIS = 'GENESIS';
const REAL: { params?: unknown; method?: string; result?: string; error?: { code: number; message: string } }[] = [
  { params: [0], result: GENESIS },
  { params: ['0'], result: GENESIS },
  { params: [5], result: '0'.repeat(64) },
  { params: [], error: { code: -1, message: 'Wrong parameters, expected height' } },
  { error: { code: -1, message: 'Wrong parameters, expected height' } },
  {
    method: 'on_getblockhash',
    params: { height: 0 },
    error: { code: -1, message: 'Wrong parameters, expected height' },
  },
  { params: [0, 1], error: { code: -1, message: 'Wrong parameters, expected height' } },
  { params: ['abc'], error: { code: -32602, message: 'Invalid params' } },
  { params: [-1], error: { code: -32602, message: 'Invalid params' } },
  { params: [1.5], error: { code: -32602, message: 'Invalid params' } },
  { params: [true], error: { code: -32602, message: 'Invalid params' } },
];

let dir: string;
let daemon: SimDaemon;
let genesis: string;
beforeAll(async () => {
  dir = tempDir('saltnet-block-hash-');
  daemon = await startDaemon(dir);
  genesis = ((await post(daemon.port, '/get_height', {})).json as { hash: string }).hash;
});
afterAll(async () => {
  await stopAll();
  cleanup(dir);
});

describe('on_get_block_hash', () => {
  it.each(REAL.map((r) => [JSON.stringify(r.params ?? null), r] as const))(
    'params %s answers as the real daemon',
    async (_, r) => {
      const body = {
        jsonrpc: '2.0',
        id: '0',
        method: r.method ?? 'on_get_block_hash',
        ...(r.params === undefined ? {} : { params: r.params }),
      };
      const json = (await post(daemon.port, '/json_rpc', body)).json as { result?: unknown; error?: unknown };
      if (r.error) expect(json.error).toEqual(r.error);
      else expect(json.result).toBe(r.result === GENESIS ? genesis : r.result);
      if (r.result === GENESIS) expect(genesis).toMatch(/^[0-9a-f]{64}$/);
    },
  );
});
