// One HTTP endpoint (a daemon or wallet RPC server): POST JSON bodies over a single keep-alive
// connection, with HTTP Digest login when credentials are given. epee keeps one Digest nonce per
// connection and expects the nonce count to grow on it, so requests go one at a time.
import { randomBytes } from 'node:crypto';
import { channel } from 'node:diagnostics_channel';
import { Client } from 'undici';
import { digestAuthorizationHeader } from '../digest/digest.js';
import { ConnectionError, HttpStatusError } from './errors.js';
import { parseJson, stringifyJson } from './json.js';

export interface Credentials {
  username: string;
  password: string;
}

/** A request that could not be completed because the connection failed. */
export interface ConnectionProblem {
  path: string;
  request: unknown;
  /** False when the server cannot have seen the request (the connection was refused). */
  sent: boolean;
  error: ConnectionError;
}

export interface EndpointOptions {
  /** Per-request timeout in ms (default 60 s). */
  timeoutMs?: number;
  auth?: Credentials;
  /** Observe every exchange (the scenario runner records transcripts). */
  onExchange?: (e: { path: string; request: unknown; status: number; response: unknown; ms: number }) => void;
  /**
   * Called when a request fails on the connection (the program behind the endpoint may have
   * crashed): resolve true to send it again (e.g. once the program was restarted). At most 3 times.
   */
  recover?: Recovery;
  /** Its requests are not published on RPC_CHANNEL (a metrics sampler's own polling, which would swamp it). */
  unobserved?: boolean;
}

/**
 * Every request of an endpoint, once answered or failed, is published on this node:diagnostics_channel (nothing is
 * done while no one subscribes): an RpcObservation. The metrics of a testnet read their RPC latency from it.
 */
export const RPC_CHANNEL = 'saltnet:rpc';

export interface RpcObservation {
  /** The endpoint's base URL (`http://127.0.0.1:port`). */
  url: string;
  /** The JSON-RPC method for /json_rpc, else the URI endpoint without its slash (`get_height`). */
  method: string;
  /** From the request's turn on its connection to its answer (or failure), recoveries included. */
  seconds: number;
}

const rpcChannel = channel(RPC_CHANNEL);

const methodOf = (path: string, request: unknown): string => {
  const m = (request as { method?: unknown } | null)?.method;
  return path === '/json_rpc' && typeof m === 'string' ? m : path.replace(/^\//, '');
};

/** EndpointOptions.recover, and what a request waits for before it is sent. */
export interface Recovery {
  (p: ConnectionProblem): Promise<boolean>;
  /**
   * While the program behind the endpoint is being started again, a promise of its being ready (else undefined): each
   * request waits for it first. The new process listens before it is whole — a wallet RPC serving a folder answers
   * `No wallet file` until its wallet is opened again — and a request must not reach it in between.
   */
  restarting?: () => Promise<unknown> | undefined;
}

const REFUSED = new Set(['ECONNREFUSED', 'ENOENT']);

function neverSent(err: ConnectionError): boolean {
  const cause = err.cause as { code?: string; cause?: { code?: string } } | undefined;
  return REFUSED.has(cause?.code ?? '') || REFUSED.has(cause?.cause?.code ?? '');
}

export interface Endpoint {
  readonly url: string;
  /** `headers`: sent with this request besides the JSON and login ones. */
  post(path: string, body: unknown, opts?: { timeoutMs?: number; headers?: Record<string, string> }): Promise<unknown>;
  /** Close once the requests sent have their answers. */
  close(): Promise<void>;
  /** Close now, failing the requests still waiting (their program does not answer). */
  destroy(): Promise<void>;
}

interface Answer {
  status: number;
  text: string;
  wwwAuth?: string[];
}

/**
 * One keep-alive connection to the server and epee's Digest session on it: one nonce per connection, a nonce count
 * that grows. A connection that breaks is replaced by a fresh one, and the session starts over.
 */
class Connection {
  private client: Client;
  private challenge: string[] | undefined;
  private nc = 0;

  constructor(
    private readonly base: string,
    private readonly auth: Credentials | undefined,
  ) {
    this.client = new Client(base, { pipelining: 1 });
  }

  /** The server asked for a login: the requests from now on answer this challenge. */
  challenged(wwwAuth: string[]): void {
    this.challenge = wwwAuth;
    this.nc = 0;
  }

  async send(path: string, body: string, timeoutMs: number, extra: Record<string, string> = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...extra, 'content-type': 'application/json' };
    if (this.auth && this.challenge) {
      this.nc += 1;
      headers.authorization = digestAuthorizationHeader({
        ...this.auth,
        method: 'POST',
        uri: path,
        wwwAuthenticate: this.challenge,
        nc: this.nc,
        cnonce: randomBytes(8).toString('hex'),
      });
    }
    try {
      const res = await this.client.request({
        path,
        method: 'POST',
        body,
        headers,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await res.body.text();
      const h = res.headers['www-authenticate'];
      return { status: res.statusCode, text, ...(h ? { wwwAuth: Array.isArray(h) ? h : [h] } : {}) };
    } catch (err) {
      // A broken connection loses epee's per-connection nonce: start over on a fresh one.
      this.challenge = undefined;
      this.nc = 0;
      await this.client.destroy().catch(() => undefined);
      this.client = new Client(this.base, { pipelining: 1 });
      throw new ConnectionError(`${this.base}${path}`, err);
    }
  }

  close(): Promise<void> {
    return this.client.close().catch(() => undefined);
  }

  /** Close now: a request still waiting for its answer fails. */
  destroy(): Promise<void> {
    return this.client.destroy().catch(() => undefined);
  }
}

export function createEndpoint(url: string, opts: EndpointOptions = {}): Endpoint {
  const base = url.replace(/\/$/, '');
  const conn = new Connection(base, opts.auth);
  let queue: Promise<unknown> = Promise.resolve();

  const sendRecovering = async (
    path: string,
    request: unknown,
    body: string,
    timeoutMs: number,
    headers?: Record<string, string>,
  ): Promise<Answer> => {
    for (let attempt = 0; ; attempt++) {
      await opts.recover?.restarting?.()?.catch(() => undefined);
      try {
        return await conn.send(path, body, timeoutMs, headers);
      } catch (err) {
        if (!(err instanceof ConnectionError) || !opts.recover || attempt >= 3) throw err;
        if (!(await opts.recover({ path, request, sent: !neverSent(err), error: err }))) throw err;
      }
    }
  };

  const exchange = async (
    path: string,
    request: unknown,
    timeoutMs: number,
    headers?: Record<string, string>,
  ): Promise<unknown> => {
    const body = stringifyJson(request);
    const t0 = Date.now();
    const observed = !opts.unobserved && rpcChannel.hasSubscribers ? performance.now() : undefined;
    let r: Answer;
    try {
      r = await sendRecovering(path, request, body, timeoutMs, headers);
      if (r.status === 401 && opts.auth && r.wwwAuth) {
        conn.challenged(r.wwwAuth);
        r = await conn.send(path, body, timeoutMs, headers);
      }
    } finally {
      if (observed !== undefined) {
        const o: RpcObservation = {
          url: base,
          method: methodOf(path, request),
          seconds: (performance.now() - observed) / 1000,
        };
        rpcChannel.publish(o);
      }
    }
    let response: unknown = r.text;
    if (r.status === 200 && r.text) {
      try {
        response = parseJson(r.text);
      } catch {
        /* not JSON: keep the text */
      }
    }
    opts.onExchange?.({ path, request, status: r.status, response, ms: Date.now() - t0 });
    if (r.status !== 200) throw new HttpStatusError(r.status, `${base}${path}`, r.text);
    return response;
  };

  return {
    url: base,
    post(path, body, o = {}) {
      const run = queue.then(() => exchange(path, body, o.timeoutMs ?? opts.timeoutMs ?? 60_000, o.headers));
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      await queue;
      await conn.close();
    },
    destroy: () => conn.destroy(),
  };
}
