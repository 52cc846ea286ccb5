// An operation of a running testnet (mine, fund, partition, …), defined once: its name, its request's body (a zod
// schema whose fields say what they take), whether it may run beside others, and what it does to the testnet. The
// control endpoint serves it at POST /<name> (server.ts), the client asks it by name (client.ts); the table of them
// is operations/index.ts.
import { z } from 'zod';
import type { Testnet } from '../testnet/types.js';
import { parseBody, RequestError } from './body.js';

/** What a route gets besides its body. */
export interface RouteEnv {
  /** Where snapshots are saved. */
  cacheDir: string;
  /** Aborted when the request is cancelled: its client went away, or asked for it (`/cancel`). */
  signal: AbortSignal;
  /**
   * From here on the request is not cancelled: it finishes, client or not. `what` settles to what a `/cancel` then
   * answers (the faucet's: the transactions it sent).
   */
  commit(what: Promise<unknown>): void;
}

/** A request the control endpoint serves, its body not yet checked. */
export interface ControlRoute {
  /**
   * Answered at once even while another request runs (it neither stops programs nor mines itself). The others are
   * served one at a time, in the order they came (server.ts).
   */
  concurrent?: true;
  run(t: Testnet, body: unknown, env: RouteEnv): Promise<unknown>;
}

export interface Operation<B extends z.ZodObject = z.ZodObject, A = unknown> {
  /** Its name: served at POST /<name>, asked for by operate(control, name, …) (client.ts). */
  name: string;
  /** What it does, for a client's error: `cannot <what>: …`. */
  what: string;
  /** Its request's body: a z.strictObject whose every field has a description (what it takes). */
  body: B;
  /** It may run beside the others (see ControlRoute.concurrent). */
  concurrent?: true;
  run(t: Testnet, body: z.infer<B>, env: RouteEnv): Promise<A>;
}

/** An operation, its types kept (the client's request and answer types are read from it). */
export const defineOperation = <B extends z.ZodObject, A>(op: Operation<B, A>): Operation<B, A> => op;

/** The route of an operation: its body checked strictly (body.ts) before anything is done. */
export function routeOf(op: Operation): ControlRoute {
  return {
    ...(op.concurrent ? { concurrent: true as const } : {}),
    run: (t, body, env) => op.run(t, parseBody(op.body, body), env),
  };
}

/** An optional whole number in [min, max], described for the error a bad one gets. */
export const whole = (min: number, max: number, what = 'a whole number'): z.ZodOptional<z.ZodInt> =>
  z.int().min(min).max(max).optional().describe(`${what} from ${min} to ${max}`);

/** `f()`, its error a RequestError (a check of the request's values made elsewhere). */
export function asRequestError<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new RequestError(err instanceof Error ? err.message : String(err));
  }
}
