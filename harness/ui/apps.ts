// Wallets an app registers with the explorer (the page's form, or a POST to api/wallets): an app's
// own wallet RPC, by its URL, shown beside the testnet's wallets and counted among a token's holders.
// The explorer only reads them, as it reads the testnet's. A URL must be the machine's own
// (http://127.0.0.1 or http://localhost), carry no login, and answer get_address before it is kept;
// the list lives as long as the explorer.
import { z } from 'zod';
import { clip } from '../common/describe.js';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';

/** A request the explorer refuses, with the HTTP status it answers and a message naming the problem. */
export class UiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface AppWallet {
  name: string;
  url: string;
  address: string;
  client: WalletClient;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
/** At most this many registered wallets (each is asked every second). */
export const MAX_APP_WALLETS = 16;
const PROBE_MS = 4000;

const body = z.strictObject({ name: z.string(), url: z.string() });

/** The wallet RPC's address as the explorer keeps it (`http://127.0.0.1:PORT`), or why it is refused. */
export function walletUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UiRequestError(400, `url ${clip(text)} is not a URL; give the wallet RPC's, e.g. http://127.0.0.1:29088`);
  }
  // First, so that a login in the URL is never repeated in a message.
  if (u.username || u.password)
    throw new UiRequestError(
      400,
      `url ${clip(`${u.protocol}//${u.host}${u.pathname}`)} carries a login; the explorer keeps no secrets: register a wallet RPC started with --disable-rpc-login`,
    );
  if (u.protocol !== 'http:')
    throw new UiRequestError(400, `url ${clip(text)} must start with http:// (the wallet RPC on this machine)`);
  if (u.hostname !== '127.0.0.1' && u.hostname !== 'localhost')
    throw new UiRequestError(
      400,
      `url ${clip(text)} names the host ${clip(u.hostname)}; the explorer reads wallet RPCs on this machine only (http://127.0.0.1:PORT or http://localhost:PORT)`,
    );
  if ((u.pathname !== '/' && u.pathname !== '/json_rpc') || u.search || u.hash)
    throw new UiRequestError(400, `url ${clip(text)} must be the wallet RPC's address alone (http://127.0.0.1:PORT)`);
  return u.origin;
}

export interface AppRegistry {
  list(): AppWallet[];
  /** Check a request's body and the wallet RPC it names, then keep it. `taken`: the names already shown. */
  add(raw: unknown, taken: string[]): Promise<AppWallet>;
  remove(name: string): Promise<void>;
  close(): Promise<void>;
}

export function appRegistry(): AppRegistry {
  const apps = new Map<string, AppWallet>();
  return {
    list: () => [...apps.values()],
    async add(raw, taken) {
      const r = body.safeParse(raw);
      if (!r.success)
        throw new UiRequestError(
          400,
          'the body must be a JSON object {"name": "…", "url": "http://127.0.0.1:PORT"} (the name and the wallet RPC of an app)',
        );
      const { name } = r.data;
      if (!NAME.test(name))
        throw new UiRequestError(
          400,
          `name ${clip(name)} must be 1 to 32 letters, digits, '.', '_' or '-' (starting with a letter or digit)`,
        );
      if (taken.includes(name) || apps.has(name))
        throw new UiRequestError(409, `a wallet named ${clip(name)} is already shown; choose another name`);
      const url = walletUrl(r.data.url);
      const same = [...apps.values()].find((a) => a.url === url);
      if (same) throw new UiRequestError(409, `the wallet RPC at ${url} is already shown as ${clip(same.name)}`);
      if (apps.size >= MAX_APP_WALLETS)
        throw new UiRequestError(409, `the explorer shows at most ${MAX_APP_WALLETS} registered wallets`);
      const client = createWalletClient(url, { timeoutMs: PROBE_MS });
      let address: string;
      try {
        address = String((await client.call<{ address?: unknown }>('get_address')).address ?? '');
        if (!address) throw new Error('its answer has no address');
      } catch (err) {
        await client.close();
        throw new UiRequestError(
          400,
          `the wallet RPC at ${url} did not answer get_address: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      // Taken meanwhile by a request that raced this one.
      if (apps.has(name)) {
        await client.close();
        throw new UiRequestError(409, `a wallet named ${clip(name)} is already shown; choose another name`);
      }
      const app = { name, url, address, client };
      apps.set(name, app);
      return app;
    },
    async remove(name) {
      const app = apps.get(name);
      if (!app) throw new UiRequestError(404, `no registered wallet is named ${clip(name)}`);
      apps.delete(name);
      await app.client.close();
    },
    async close() {
      for (const a of apps.values()) await a.client.close();
      apps.clear();
    },
  };
}
