// One HTTP endpoint (a daemon or wallet RPC server): POST JSON bodies over a single keep-alive
// connection, with HTTP Digest login when credentials are given. epee keeps one Digest nonce per
// connection and expects the nonce count to grow on it, so requests go one at a time.
import { randomBytes } from 'node:crypto';
import { Client } from 'undici';
import { digestAuthorizationHeader } from './digest.js';
import { ConnectionError, HttpStatusError } from './errors.js';
import { parseJson, stringifyJson } from './json.js';

export interface Credentials {
  username: string;
  password: string;
}

export interface EndpointOptions {
  /** Per-request timeout in ms (default 60 s). */
  timeoutMs?: number;
  auth?: Credentials;
  /** Observe every exchange (the scenario runner records transcripts). */
  onExchange?: (e: { path: string; request: unknown; status: number; response: unknown; ms: number }) => void;
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

  const once = async (path: string, body: string, timeoutMs: number): Promise<{ status: number; text: string; wwwAuth?: string[] }> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (opts.auth && challenge) {
      nc += 1;
      headers.authorization = digestAuthorizationHeader({ ...opts.auth, method: 'POST', uri: path, wwwAuthenticate: challenge, nc, cnonce: randomBytes(8).toString('hex') });
    }
    try {
      const res = await client.request({ path, method: 'POST', body, headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
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

  const exchange = async (path: string, request: unknown, timeoutMs: number): Promise<unknown> => {
    const body = stringifyJson(request);
    const t0 = Date.now();
    let r = await once(path, body, timeoutMs);
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
