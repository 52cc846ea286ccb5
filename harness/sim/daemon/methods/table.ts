// How a module of daemon methods registers its handlers: each name of a method (its aliases), and
// whether a daemon started with --restricted-rpc leaves it out, as the real method table does
// (MAP_JON_RPC_WE_IF / MAP_URI_AUTO_JON2_IF with !m_restricted: then -32601 Method not found, or a 404).
import type { Handler } from '../../http/server.js';
import type { DaemonContext } from '../views.js';

export interface Methods {
  readonly ctx: DaemonContext;
  /** Serve `h` under every name; `notRestricted`: not served by a daemon run with --restricted-rpc. */
  add(names: readonly string[], h: Handler, notRestricted?: boolean): void;
}

/** A table that fills `into`. */
export function methods(ctx: DaemonContext, into: Map<string, Handler>): Methods {
  return {
    ctx,
    add(names, h, notRestricted = false) {
      if (notRestricted && ctx.restricted) return;
      for (const n of names) into.set(n, h);
    },
  };
}

/** The fields of rpc_access_response_base every paid-for answer carries (nothing is paid for here). */
export const ACCESS = { credits: 0, top_hash: '' } as const;
