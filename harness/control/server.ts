// The control endpoint of a running `saltnet up`: other saltnet commands ask the process that owns
// the testnet to do what only it can do safely — save the state with its processes stopped
// (`saltnet snapshot save`), mine and then sync every wallet it owns (`saltnet mine`). Bound to
// 127.0.0.1 on a free port, with a bearer token kept in a 0600 file of the workdir; the run record
// says where. Operations run one at a time, in the order they came (a later one waits); a request
// whose body never arrives in full (a client that stops sending, or disconnects) is dropped without
// holding anything.
import { writeSecretFile } from '../common/secret-file.js';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Testnet } from '../testnet/types.js';
import { CONTROL_ROUTES, type ControlRoute } from './routes.js';

export interface ControlInfo {
  url: string;
  tokenFile: string;
}

export const TOKEN_HEADER = 'x-saltnet-token';
/** A request body larger than this is refused (every request is a small JSON object). */
const MAX_BODY = 64 * 1024;
/** A client that has not sent its whole body by then is dropped. */
const BODY_TIMEOUT_MS = 10_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        done(() => fail(new HttpError(413, `the request body is over ${MAX_BODY} bytes`)));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () =>
      done(() => {
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
  const routes = { ...CONTROL_ROUTES, ...extra };
  const token = randomBytes(24).toString('hex');
  const tokenFile = join(t.workdir, '.control-token');
  writeSecretFile(tokenFile, token);
  // Requests that change the testnet are served one at a time, in the order they came: a later one waits for the
  // work before it, including work whose answer already went out because a program stopped answering (it goes on
  // until it has really ended).
  let tail: Promise<void> = Promise.resolve();
  let answered: Promise<unknown> = Promise.resolve();
  const refuseIfSilent = (): void => {
    const silent = t.unresponsive();
    if (silent.length) throw new HttpError(503, `the testnet does not answer: ${silent.join('; ')}`);
  };
  const handle = async (route: ControlRoute, req: IncomingMessage): Promise<unknown> => {
    const body = await readBody(req);
    if (route.concurrent) return route.run(t, body, { cacheDir });
    refuseIfSilent();
    const before = tail;
    let done!: () => void;
    tail = new Promise<void>((ok) => (done = ok));
    const work = (async () => {
      await before;
      if (req.socket.destroyed) throw new HttpError(400, 'the client went away');
      refuseIfSilent();
      return route.run(t, body, { cacheDir });
    })().finally(() => done());
    return untilSilent(t, work);
  };
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown): void => {
      if (!res.headersSent && !res.destroyed)
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const given = Buffer.from(String(req.headers[TOKEN_HEADER] ?? ''));
    if (given.length !== token.length || !timingSafeEqual(given, Buffer.from(token)))
      return answer(403, { error: 'wrong or missing token' });
    const route = req.method === 'POST' ? routes[req.url ?? ''] : undefined;
    if (!route) return answer(404, { error: `unknown request ${req.method} ${req.url}` });
    answered = handle(route, req).then(
      (body) => answer(200, body),
      (err: unknown) =>
        answer(err instanceof HttpError ? err.status : 500, {
          error: err instanceof Error ? err.message : String(err),
        }),
    );
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
