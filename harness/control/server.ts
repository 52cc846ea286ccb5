// The control endpoint of a running `saltnet up`: other saltnet commands ask the process that owns
// the testnet to do what only it can do safely — save the state with its processes stopped
// (`saltnet snapshot save`), mine and then sync every wallet it owns (`saltnet mine`). Bound to
// 127.0.0.1 on a free port, with a bearer token kept in a 0600 file of the workdir; the run record
// says where. An operation with a text face is also served at GET /<name> (Prometheus scrapes GET
// /metrics). Operations run one at a time, in the order they came (a later one waits); a request
// whose body never arrives in full (a client that stops sending, or disconnects) is dropped without
// holding anything, and one over MAX_BODY is answered 413.
// A request is cancelled when its client goes away or asks for it (cancel.ts). A client that asks for progress
// (PROGRESS_TYPE) hears of each block mined meanwhile.
import { clip } from '../common/describe.js';
import { writeSecretFile } from '../common/secret-file.js';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Testnet } from '../testnet/types.js';
import { HttpError } from '../operations/body.js';
import { REQUEST_HEADER, UnderwayRequests, type Underway } from './cancel.js';
import type { ControlRoute } from '../operations/operation.js';
import { operationRoutes } from '../operations/index.js';

export interface ControlInfo {
  url: string;
  tokenFile: string;
}

export const TOKEN_HEADER = 'x-saltnet-token';
/**
 * The answer type a client asks for (Accept) to hear an operation's progress: `{"progress": …}` lines while it runs
 * (Testnet.onProgress), then `{"answer": …}`, or `{"error": …, "status": …}`.
 */
export const PROGRESS_TYPE = 'application/x-ndjson';
/** A request body larger than this is refused (every request is a small JSON object). */
export const MAX_BODY = 64 * 1024;
/** Past this, the rest of an oversized body is not read: the connection is closed after the 413. */
const MAX_DISCARD = 8 * 2 ** 20;
/** A client that has not sent its whole body by then is dropped. */
const BODY_TIMEOUT_MS = 10_000;

/** The request's JSON body, read in full (bounded in size and time), or an HttpError. */
function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((ok, fail) => {
    let size = 0;
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      fail(new HttpError(408, 'the request body did not arrive in time'));
      req.destroy();
    }, BODY_TIMEOUT_MS);
    const done = (f: () => void): void => {
      clearTimeout(timer);
      f();
    };
    const tooBig = (): HttpError =>
      new HttpError(
        413,
        `the request body is ${size > MAX_DISCARD ? `over ${MAX_DISCARD}` : size} bytes, over the ${MAX_BODY} a control request may have (each is a small JSON object)`,
      );
    req.on('data', (c: Buffer) => {
      size += c.length;
      // Read to its end (and dropped) so that the client, still sending, gets the answer rather than a reset.
      if (size <= MAX_BODY) chunks.push(c);
      else if (size > MAX_DISCARD) {
        req.pause();
        done(() => fail(tooBig()));
      }
    });
    req.on('end', () =>
      done(() => {
        if (size > MAX_BODY) return fail(tooBig());
        try {
          ok(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        } catch {
          fail(new HttpError(400, 'the request body is not JSON'));
        }
      }),
    );
    req.on('error', (e) => done(() => fail(e)));
    req.on('close', () => done(() => fail(new HttpError(400, 'the client went away'))));
  });
}

/**
 * The request carries the token: in the x-saltnet-token header, or as `Authorization: Bearer <token>` (what
 * Prometheus sends from a scrape config's `authorization.credentials_file`).
 */
function tokenGiven(req: IncomingMessage, token: string): boolean {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const given = Buffer.from(String(req.headers[TOKEN_HEADER] ?? bearer ?? ''));
  return given.length === token.length && timingSafeEqual(given, Buffer.from(token));
}

/** `work`, or a 503 as soon as a program of the testnet stops answering (the work would only wait on it). */
function untilSilent<T>(t: Testnet, work: Promise<T>): Promise<T> {
  return new Promise<T>((ok, fail) => {
    const off = t.onEvent((e) => {
      if (e.event !== 'unresponsive') return;
      off();
      fail(
        new HttpError(503, `the testnet does not answer: ${e.program} (pid ${e.pid}) is not answering: ${e.reason}`),
      );
    });
    work.then(
      (v) => {
        off();
        ok(v);
      },
      (err: unknown) => {
        off();
        fail(err);
      },
    );
  });
}

/**
 * How the requests to `t` are served: the body read, then the route run — at once for a concurrent one; the others
 * one at a time, in the order they came: a later one waits for the work before it, including work whose answer already
 * went out because a program stopped answering (it goes on until it has really ended). A request cancelled while it
 * waits its turn never runs.
 */
function serving(
  t: Testnet,
  cacheDir: string,
): (route: ControlRoute, req: IncomingMessage, u: Underway) => Promise<unknown> {
  let tail: Promise<void> = Promise.resolve();
  const refuseIfSilent = (): void => {
    const silent = t.unresponsive();
    if (silent.length) throw new HttpError(503, `the testnet does not answer: ${silent.join('; ')}`);
  };
  return async (route, req, u) => {
    const body = await readBody(req);
    const env = { cacheDir, signal: u.signal, commit: (what: Promise<unknown>) => u.commit(what) };
    u.signal.throwIfAborted();
    if (route.concurrent) return route.run(t, body, env);
    refuseIfSilent();
    const before = tail;
    let done!: () => void;
    tail = new Promise<void>((ok) => (done = ok));
    const work = (async () => {
      await before;
      u.signal.throwIfAborted();
      refuseIfSilent();
      return route.run(t, body, env);
    })().finally(() => done());
    return untilSilent(t, work);
  };
}

export interface ControlServer {
  info: ControlInfo;
  /** Wait (at most `ms`) for the request under way to be answered: its caller learns why the testnet went down. */
  drain(ms: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Serve the control endpoint of `t`; `cacheDir` is where snapshots are saved; `extra`: routes of the caller's own (the
 * vitest global setup's testnet pool).
 */
export async function startControlServer(
  t: Testnet,
  cacheDir: string,
  extra: Record<string, ControlRoute> = {},
): Promise<ControlServer> {
  const routes = { ...operationRoutes(), ...extra };
  const token = randomBytes(24).toString('hex');
  const tokenFile = join(t.workdir, '.control-token');
  writeSecretFile(tokenFile, token);
  const serve = serving(t, cacheDir);
  const underway = new UnderwayRequests();
  const all: Record<string, ControlRoute> = { ...routes, '/cancel': underway.route };
  let answered: Promise<unknown> = Promise.resolve();
  const server: Server = createServer((req, res) => {
    let streaming = false;
    const answer = (status: number, body: unknown): void => {
      if (streaming) {
        if (res.writableEnded || res.destroyed) return;
        const last = status === 200 ? { answer: body } : { ...(body as object), status };
        return void res.end(`${JSON.stringify(last)}\n`);
      }
      if (res.headersSent || res.destroyed) return;
      // An oversized body may still be arriving: the connection ends with the answer.
      const close = status === 413 && !req.complete ? { connection: 'close' } : {};
      res.writeHead(status, { 'content-type': 'application/json', ...close }).end(JSON.stringify(body));
    };
    if (!tokenGiven(req, token)) return answer(403, { error: 'wrong or missing token' });
    const found = all[req.url ?? ''];
    const route = req.method === 'POST' || (req.method === 'GET' && found?.get) ? found : undefined;
    if (!route) {
      const gets = Object.keys(all).filter((k) => all[k]!.get);
      return answer(404, {
        error: `unknown request ${req.method} ${clip(req.url ?? '')}; the requests are POST ${Object.keys(all).join(', ')}${gets.length ? `; GET ${gets.join(', ')}` : ''}`,
      });
    }
    const text = req.method === 'GET' ? route.get : undefined;
    const failed = (err: unknown): void =>
      answer(err instanceof HttpError ? err.status : 500, { error: err instanceof Error ? err.message : String(err) });
    let request: ReturnType<UnderwayRequests['start']>;
    try {
      request = underway.start(req.headers[REQUEST_HEADER]);
    } catch (err) {
      return failed(err);
    }
    // The client went away before its answer: nothing waits for what the work would do.
    res.on('close', () => {
      if (!res.writableFinished) request.underway.cancel(new HttpError(400, 'the client went away'));
    });
    // A client that asks for progress gets it as it comes, one JSON line each, and the answer as the last line.
    if (!text && req.headers.accept === PROGRESS_TYPE) {
      streaming = true;
      res.writeHead(200, { 'content-type': PROGRESS_TYPE });
      const off = t.onProgress((p) => {
        if (!res.writableEnded && !res.destroyed) res.write(`${JSON.stringify({ progress: p })}\n`);
      });
      res.on('close', off);
    }
    answered = serve(route, req, request.underway)
      .then((body) => {
        if (!text) return answer(200, body);
        if (!res.headersSent && !res.destroyed)
          res.writeHead(200, { 'content-type': text.contentType }).end(text.text(body));
      }, failed)
      .finally(request.end);
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    info: { url, tokenFile },
    drain: async (ms) => {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([answered, new Promise((ok) => (timer = setTimeout(ok, ms)))]);
      clearTimeout(timer);
    },
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
