// A method the real program serves but the simulator does not model on purpose (multisig, the
// pay-for-RPC methods, …). It answers an error that names the method and says where it works,
// never -32601 "Method not found", which would claim the real program lacks it.
import { RpcError, type Handler } from './router.js';

/** The JSON-RPC error code of a method the simulator refuses on purpose. */
export const NOT_MODELLED_CODE = -32099;

/** The message of that error: the method and what to run instead. */
export function notModelledMessage(method: string, why: string): string {
  return `saltnet simulator: ${method} is not modelled (${why}); run it on real Salvium (--backend salvium)`;
}

/** A handler that refuses `method` on purpose, saying why. */
export function notModelled(method: string, why: string): Handler {
  return () => {
    throw new RpcError(NOT_MODELLED_CODE, notModelledMessage(method, why));
  };
}
