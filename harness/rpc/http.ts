// One HTTP endpoint (a daemon or wallet RPC server): POST JSON bodies over a single keep-alive
// connection, with HTTP Digest login when credentials are given. epee keeps one Digest nonce per
// connection and expects the nonce count to grow on it, so requests go one at a time.
import { randomBytes } from 'node:crypto';
import { Client } from 'undici';
import { digestAuthorizationHeader } from '../common/digest.js';
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
  recover?: (p: ConnectionProblem) => Promise<boolean>;
}

const REFUSED = new Set(['ECONNREFUSED', 'ENOENT']);

function neverSent(err: ConnectionError): boolean {
  const cause = err.cause as { code?: string; cause?: { code?: string } } | undefined;
  return REFUSED.has(cause?.code ?? '') || REFUSED.has(cause?.cause?.code ?? '');
}

export interface Endpoint {
  readonly url: string;
  post(path: string, body: unknown, opts?: { timeoutMs?: number }): Promise<unknown>;
  close(): Promise<void>;
}

export function createEndpoint(url: string, opts: EndpointOptions = {}): Endpoint {
  const base = url.replace(/\/$/, '');
  let client = new Client(base, { pipelining: 1 });
  let challenge: string[] | undefined;
  let nc = 0;
  let queue: Promise<unknown> = Promise.resolve();

  const once = async (
    path: string,
    body: string,
    timeoutMs: number,
  ): Promise<{ status: number; text: string; wwwAuth?: string[] }> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.auth && challenge) {
      nc += 1;
      headers.authorization = digestAuthorizationHeader({
        ...opts.auth,
        method: 'POST',
        uri: path,
        wwwAuthenticate: challenge,
        nc,
        cnonce: randomBytes(8).toString('hex'),
      });
    }
    try {
      const res = await client.request({
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
      challenge = undefined;
      nc = 0;
      await client.destroy().catch(() => undefined);
      client = new Client(base, { pipelining: 1 });
      throw new ConnectionError(`${base}${path}`, err);
    }
  };

  const onceRecovering = async (
    path: string,
    request: unknown,
    body: string,
    timeoutMs: number,
  ): ReturnType<typeof once> => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(path, body, timeoutMs);
      } catch (err) {
        if (!(err instanceof ConnectionError) || !opts.recover || attempt >= 3) throw err;
        if (!(await opts.recover({ path, request, sent: !neverSent(err), error: err }))) throw err;
      }
    }
  };

  const exchange = async (path: string, request: unknown, timeoutMs: number): Promise<unknown> => {
    const body = stringifyJson(request);
    const t0 = Date.now();
    let r = await onceRecovering(path, request, body, timeoutMs);
    if (r.status === 401 && opts.auth && r.wwwAuth) {
      challenge = r.wwwAuth;
      nc = 0;
      r = await once(path, body, timeoutMs);
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
      const run = queue.then(() => exchange(path, body, o.timeoutMs ?? opts.timeoutMs ?? 60_000));
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      await queue;
      await client.close().catch(() => undefined);
    },
  };
}
