// The explorer's server (`saltnet up --ui`, `saltnet ui`): a plain page (page/: HTML, CSS and
// scripts, no framework, no build step) and its JSON answers under api/: the testnet's picture
// (collect.ts), which the page asks for every second, the pages one can drill into (pages.ts), and the testnet's
// metrics over time (metrics.ts).
// node:http on 127.0.0.1 only; every path is under a random token (`/t/<token>/…`), as Jupyter's, so
// another user of the machine cannot read the page. It only reads the testnet: GET and HEAD are
// answered, and POST and DELETE on api/wallets only, which register an app's wallet with the
// explorer and remove it (apps.ts; one registered by address and view key is opened view-only by a wallet RPC the
// explorer runs, view-wallets.ts).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeTaken, portHolder } from '../process/port-holder.js';
import { appRegistry, UiRequestError, type AppRegistry } from './apps.js';
import { chainReader } from './chain.js';
import { collector, type Collector } from './collect.js';
import { metricsSeries, type MetricsReader, type MetricsSeries } from './metrics.js';
import { pages, type Pages } from './pages.js';
import type { UiSource } from './state.js';

/** The page's folder (harness/ui/page: the compiled server in dist/ reads it from the sources). */
export const PAGE_DIR = fileURLToPath(
  new URL(import.meta.url.includes('/dist/') ? '../../../harness/ui/page/' : './page/', import.meta.url),
);

const HTML = 'text/html; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';
/** The page's files by the path after the token (a Map: `constructor` or `__proto__` names no file). */
const FILES = new Map([
  ['', { file: 'index.html', type: HTML }],
  ['index.html', { file: 'index.html', type: HTML }],
  ['app.js', { file: 'app.js', type: JS }],
  ['dom.js', { file: 'dom.js', type: JS }],
  ['home.js', { file: 'home.js', type: JS }],
  ['metrics.js', { file: 'metrics.js', type: JS }],
  ['views.js', { file: 'views.js', type: JS }],
  ['style.css', { file: 'style.css', type: 'text/css; charset=utf-8' }],
]);

/** The largest body a request to register a wallet may have. */
const MAX_BODY = 4096;

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
  /** The testnet's metrics (its registry as JSON), for the metrics view (api/metrics); none: that view says so. */
  metrics?: MetricsReader;
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

/** A request's JSON body (at most MAX_BODY bytes), or why it is refused. */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim();
  if (type !== 'application/json')
    throw new UiRequestError(415, `the body must be JSON (content-type application/json), got ${type || 'none'}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req as AsyncIterable<Buffer>) {
    size += c.length;
    if (size > MAX_BODY) throw new UiRequestError(413, `the body is larger than ${MAX_BODY} bytes`);
    chunks.push(c);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (err) {
    throw new UiRequestError(400, `the body is not JSON: ${(err as Error).message}`);
  }
}

/** A path's segment as text, or a 400 when its %-escapes are broken. */
function segment(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new UiRequestError(400, `the path's part ${JSON.stringify(text.slice(0, 80))} is not a valid URL escape`);
  }
}

interface Api {
  pictures: Collector;
  pages: Pages;
  apps: AppRegistry;
  source: UiSource;
  metrics: MetricsSeries | undefined;
}

/** The answer to an api/ request (its path after api/), or undefined when there is no such route. */
function answer(api: Api, req: IncomingMessage, rest: string, query: URLSearchParams): Promise<unknown> | undefined {
  const [route, ...more] = rest.split('/');
  const arg = segment(more.join('/'));
  if (req.method === 'POST' || req.method === 'DELETE') {
    if (route !== 'wallets') return undefined;
    if (req.method === 'POST' && !arg)
      return jsonBody(req).then(async (body) => {
        const taken = api.source.wallets().map((w) => w.name);
        const { name, url, address, viewOnly } = await api.apps.add(body, taken);
        api.pictures.forget();
        return { name, url, address, ...(viewOnly ? { viewOnly: true } : {}) };
      });
    if (req.method === 'DELETE' && arg)
      return api.apps.remove(arg).then(() => {
        api.pictures.forget();
        return { removed: arg };
      });
    return undefined;
  }
  if (route === 'state' && !arg) return api.pictures.state();
  if (route === 'blocks' && !arg) return api.pages.blocks(query.get('top') ?? undefined, query.get('n') ?? undefined);
  if (route === 'block' && arg) return api.pages.block(arg);
  if (route === 'tx' && arg) return api.pages.tx(arg);
  if (route === 'token' && arg) return api.pages.token(arg);
  if (route === 'wallet' && arg) return api.pages.wallet(arg);
  if (route === 'search' && !arg) return api.pages.search(query.get('q') ?? '');
  if (route === 'metrics' && !arg)
    return api.metrics
      ? api.metrics.view()
      : Promise.reject(new UiRequestError(404, 'this explorer shows no metrics (it was started without them)'));
  return undefined;
}

const WRITES = 'the explorer only reads the testnet (GET and HEAD); POST and DELETE go to api/wallets only';

export async function startUiServer(src: UiSource, o: UiServerOptions = {}): Promise<UiServer> {
  const token = randomBytes(16).toString('hex');
  const prefix = `/t/${token}/`;
  const chain = chainReader(src.daemon);
  const apps = appRegistry(src.viewWallets);
  const pictures = collector(src, chain, apps);
  const metrics = o.metrics ? metricsSeries(o.metrics) : undefined;
  const api: Api = { pictures, pages: pages(chain, pictures), apps, source: src, metrics };
  const server: Server = createServer((req, res) => {
    const head = req.method === 'HEAD';
    const json = (status: number, body: unknown): void =>
      send(res, status, 'application/json', JSON.stringify(body), head);
    const [path, search] = (req.url ?? '').split('?') as [string, string | undefined];
    const write = req.method === 'POST' || req.method === 'DELETE';
    if (req.method !== 'GET' && !head && !write) return send(res, 405, 'text/plain', `${WRITES}\n`, false);
    if (!path.startsWith(prefix))
      return send(res, 404, 'text/plain', 'not found (the address needs its token)\n', head);
    const rest = path.slice(prefix.length);
    if (rest.startsWith('api/')) {
      let p: Promise<unknown> | undefined;
      try {
        p = answer(api, req, rest.slice(4), new URLSearchParams(search ?? ''));
      } catch (err) {
        p = Promise.reject(err);
      }
      if (!p)
        return write
          ? send(res, 405, 'text/plain', `${WRITES}\n`, false)
          : json(404, { error: `no such request: ${rest.slice(0, 200)}` });
      p.then(
        (body) => json(write && req.method === 'POST' ? 201 : 200, body),
        (err: unknown) =>
          err instanceof UiRequestError
            ? json(err.status, { error: err.message })
            : json(503, { error: err instanceof Error ? err.message : String(err) }),
      );
      return;
    }
    if (write) return send(res, 405, 'text/plain', `${WRITES}\n`, false);
    const page = FILES.get(rest);
    if (!page) return send(res, 404, 'text/plain', 'not found\n', head);
    const { file, type } = page;
    try {
      send(res, 200, type, readFileSync(join(PAGE_DIR, file)), head);
    } catch (err) {
      send(res, 500, 'text/plain', `the page's file ${file} is missing: ${(err as Error).message}\n`, head);
    }
  });
  server.requestTimeout = 10_000;
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
    close: async () => {
      await new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      });
      await apps.close();
    },
  };
}
