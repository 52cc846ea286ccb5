// The simulated daemon's /json_rpc methods (core_rpc_server.h's /json_rpc map, v1.1.3c), one module
// per area in methods/: blocks, mining, coins and outputs, the pool, the node. Every method the real
// daemon serves is here, modelled or refused on purpose (docs/sim-coverage.md).
import type { Handler } from '../http/server.js';
import { blockMethods } from './methods/blocks.js';
import { miningMethods } from './methods/mining.js';
import { nodeMethods } from './methods/node.js';
import { poolMethods } from './methods/pool.js';
import { supplyMethods } from './methods/supply.js';
import { methods } from './methods/table.js';
import type { DaemonContext } from './views.js';

export function daemonJsonRpcMethods(ctx: DaemonContext): Map<string, Handler> {
  const map = new Map<string, Handler>();
  const m = methods(ctx, map);
  blockMethods(m);
  miningMethods(m);
  supplyMethods(m);
  poolMethods(m);
  nodeMethods(m);
  return map;
}
