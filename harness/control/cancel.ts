// Cancelling control requests. Every request underway has an AbortSignal for its work, aborted when
// its client goes away before the answer, or when the client asks `/cancel` with the id it sent in
// the x-saltnet-request header. A request past its point of no return (RouteEnv.commit: the
// faucet's payment once it is being sent) is no longer aborted: it finishes, and `/cancel` answers
// what it is finishing.
import { z } from 'zod';
import { HttpError, parseBody } from '../operations/body.js';
import type { ControlRoute } from '../operations/operation.js';

/** The header a client names its request with, so that it can cancel it (`/cancel`). */
export const REQUEST_HEADER = 'x-saltnet-request';

const REQUEST_ID = /^[\w-]{1,64}$/;

const CANCEL_BODY = z.strictObject({
  request: z.string().describe(`the id the request was sent with (its ${REQUEST_HEADER} header)`),
});

/** What `/cancel` answers. */
export interface CancelAnswer {
  /**
   * `cancelled`: it will do nothing more (what it did before stays: blocks mined); `finishing`: it is past its point of
   * no return and goes on to its end (`detail`: what it is finishing); `failed`: its point of no return failed
   * (`error`); `unknown`: no request of that id is underway (not arrived, or answered already).
   */
  state: 'cancelled' | 'finishing' | 'failed' | 'unknown';
  detail?: unknown;
  error?: string;
}

/** A request underway: its work's signal, its cancellation, and what it finishes once past its point of no return. */
export class Underway {
  private readonly controller = new AbortController();
  private finishing: Promise<unknown> | undefined;

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Abort its work, unless it is past its point of no return. */
  cancel(reason: HttpError): void {
    if (!this.finishing) this.controller.abort(reason);
  }

  /** From now on it is not aborted; `what` settles to what `/cancel` answers. */
  commit(what: Promise<unknown>): void {
    this.finishing = what;
    what.catch(() => undefined);
  }

  /** What `/cancel` makes of it now. */
  async cancelled(): Promise<CancelAnswer> {
    if (!this.finishing) {
      this.cancel(new HttpError(409, 'cancelled by its client before it was done'));
      return { state: 'cancelled' };
    }
    try {
      return { state: 'finishing', detail: await this.finishing };
    } catch (err) {
      return { state: 'failed', error: err instanceof Error ? err.message : String(err) };
    }
  }
}

/** The requests underway by the id their clients gave them, and the `/cancel` route over them. */
export class UnderwayRequests {
  private readonly byId = new Map<string, Underway>();

  /** A request begins: named `id` (the REQUEST_HEADER's value, if sent); an HttpError for a bad id or one in use. */
  start(id: string | string[] | undefined): { underway: Underway; end(): void } {
    if (id !== undefined && (typeof id !== 'string' || !REQUEST_ID.test(id) || this.byId.has(id)))
      throw new HttpError(
        400,
        `${REQUEST_HEADER} must name the request once, in 1 to 64 letters, digits, - and _ (one not in use)`,
      );
    const underway = new Underway();
    if (id !== undefined) this.byId.set(id, underway);
    return {
      underway,
      end: () => {
        if (id !== undefined && this.byId.get(id) === underway) this.byId.delete(id);
      },
    };
  }

  readonly route: ControlRoute = {
    concurrent: true,
    run: (_t, body): Promise<CancelAnswer> => {
      const { request } = parseBody(CANCEL_BODY, body);
      return this.byId.get(request)?.cancelled() ?? Promise.resolve({ state: 'unknown' });
    },
  };
}
