// The explorer's server (`saltnet up --ui`, `saltnet ui`): a plain page (page/: HTML, CSS and a
// script, no framework, no build step) and one JSON answer, the testnet's picture (collect.ts),
// which the page asks for every second. node:http on 127.0.0.1 only; every path is under a random
// token (`/t/<token>/…`), as Jupyter's, so another user of the machine cannot read the page. It is
// read-only: only GET and HEAD are answered, and nothing it asks the programs changes anything.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTaken, portHolder } from '../process/port-holder.js';
import { collector } from './collect.js';
import type { UiSource } from './state.js';

/** The page's folder (harness/ui/page: the compiled server in dist/ reads it from the sources). */
export const PAGE_DIR = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../../harness/ui/page/' : './page/', import.meta.url),
);

/** The page's files by the path after the token (a Map: `constructor` or `__proto__` names no file). */
const FILES = new Map([
  ['', { file: 'index.html', type: 'text/html; charset=utf-8' }],
  ['index.html', { file: 'index.html', type: 'text/html; charset=utf-8' }],
  ['app.js', { file: 'app.js', type: 'text/javascript; charset=utf-8' }],
  ['style.css', { file: 'style.css', type: 'text/css; charset=utf-8' }],
]);

export interface UiServer {
  /** The page's address, token included. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface UiServerOptions {
  /** Listen on this port (default: a free one). */
  port?: number;
  log?: (line: string) => void;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, head: boolean): void {
  res.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    // The page loads only its own script and style, and talks only to this server.
    'content-security-policy': "default-src 'self'; img-src 'self' data:",
  });
  res.end(head ? undefined : body);
}

export async function startUiServer(src: UiSource, o: UiServerOptions = {}): Promise<UiServer> {
  const token = randomBytes(16).toString('hex');
  const prefix = `/t/${token}/`;
  const pictures = collector(src);
  const server: Server = createServer((req, res) => {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) return send(res, 405, 'text/plain', 'the explorer is read-only\n', false);
    const path = (req.url ?? '').split('?')[0]!;
    if (!path.startsWith(prefix))
      return send(res, 404, 'text/plain', 'not found (the address needs its token)\n', head);
    const rest = path.slice(prefix.length);
    if (rest === 'api/state') {
      pictures.state().then(
        (s) => send(res, 200, 'application/json', JSON.stringify(s), head),
        (err: unknown) =>
          send(
            res,
            503,
            'application/json',
            JSON.stringify({ error: err instanceof Error ? err.message : String(err) }),
            head,
          ),
      );
      return;
    }
    const page = FILES.get(rest);
    if (!page) return send(res, 404, 'text/plain', 'not found\n', head);
    const { file, type } = page;
    try {
      send(res, 200, type, readFileSync(join(PAGE_DIR, file)), head);
    } catch (err) {
      send(res, 500, 'text/plain', `the page's file ${file} is missing: ${(err as Error).message}\n`, head);
    }
  });
  try {
    await new Promise<void>((ok, fail) => server.once('error', fail).listen(o.port ?? 0, '127.0.0.1', ok));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !o.port) throw err;
    throw new Error(
      `${describeTaken({ port: o.port, what: 'the explorer' }, portHolder(o.port))}; choose another --ui-port`,
      {
        cause: err,
      },
    );
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}${prefix}`;
  o.log?.(`saltnet: explorer at ${url}`);
  return {
    url,
    port,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
