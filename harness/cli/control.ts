// The control endpoint of a running `saltnet up`: other saltnet commands ask the process that owns
// the testnet to do what only it can do safely — stop its processes, save the state, start them
// again (`saltnet snapshot save`). Bound to 127.0.0.1 on a free port, with a bearer token kept in
// a 0600 file of the workdir; the run record says where.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { request } from 'undici';
import { summarize, type SnapshotSummary } from '../snapshot/manifest.js';
import type { Testnet } from '../testnet/testnet.js';

export interface ControlInfo {
  url: string;
  tokenFile: string;
}

export interface SaveAnswer {
  key: string;
  cacheDir: string;
  summary: SnapshotSummary;
}

const TOKEN_HEADER = 'x-saltnet-token';

export async function startControlServer(
  t: Testnet,
  cacheDir: string,
): Promise<{ info: ControlInfo; close(): Promise<void> }> {
  const token = randomBytes(24).toString('hex');
  const tokenFile = join(t.workdir, '.control-token');
  writeFileSync(tokenFile, token, { mode: 0o600 });
  let busy = false;
  const server: Server = createServer((req, res) => {
    const answer = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const given = Buffer.from(String(req.headers[TOKEN_HEADER] ?? ''));
    if (given.length !== token.length || !timingSafeEqual(given, Buffer.from(token)))
      return answer(403, { error: 'wrong or missing token' });
    if (req.method !== 'POST' || req.url !== '/snapshot') return answer(404, { error: 'unknown request' });
    if (busy) return answer(409, { error: 'a snapshot is being saved already' });
    busy = true;
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        try {
          const { key } = JSON.parse(body || '{}') as { key?: string };
          if (!key) return answer(400, { error: 'no key' });
          const m = await t.saveSnapshot(key);
          answer(200, { key, cacheDir, summary: summarize(m) } satisfies SaveAnswer);
        } catch (err) {
          answer(500, { error: err instanceof Error ? err.message : String(err) });
        } finally {
          busy = false;
        }
      })();
    });
  });
  await new Promise<void>((ok, fail) => server.once('error', fail).listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { info: { url, tokenFile }, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** Ask a running `saltnet up` to save its state as snapshot `key` in its cache. */
export async function requestSave(control: ControlInfo, key: string): Promise<SaveAnswer> {
  const token = readFileSync(control.tokenFile, 'utf8');
  const res = await request(`${control.url}/snapshot`, {
    method: 'POST',
    headers: { [TOKEN_HEADER]: token, 'content-type': 'application/json' },
    body: JSON.stringify({ key }),
    headersTimeout: 3_600_000,
    bodyTimeout: 3_600_000,
  });
  const body = (await res.body.json()) as SaveAnswer & { error?: string };
  if (res.statusCode !== 200)
    throw new Error(`the testnet could not save its state: ${body.error ?? `HTTP ${res.statusCode}`}`);
  return body;
}
