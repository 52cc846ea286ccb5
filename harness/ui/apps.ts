// Wallets an app registers with the explorer (the page's form, or a POST to api/wallets), shown beside the testnet's
// wallets and counted among a token's holders, in one of two forms:
// - {name, url}: the app's own wallet RPC. The explorer only reads it, as it reads the testnet's. A URL must be the
//   machine's own (http://127.0.0.1 or http://localhost), carry no login, and answer get_address before it is kept.
// - {name, address, viewKey}: a wallet the explorer opens view-only (view-wallets.ts: a wallet RPC of its own,
//   generate_from_keys with the address and view key alone). The address must be a main address of this testnet's
//   chain and the key its view key (checked here: generate_from_keys would take any key and show nothing). On
//   Salvium v1.1.3c a Carrot address (get_address after height 1100) pairs with the wallet's view-balance secret
//   (query_key s_view_balance): that wallet sees what the wallet receives and spends. A CN address
//   (addresses[0].address_cn) pairs with query_key view_key: that wallet sees only what the CN address received
//   (nothing after Carrot: payments then go to Carrot addresses), and none of its spends (no key images), so its
//   balance is what it received. The view key is never repeated in a message.
// The list lives as long as the explorer.
import { z } from 'zod';
import { carrotViewIncoming, decodeAddress, pairsWith, secretKeyScalar } from '../coin/addresses.js';
import type { CoinSpec } from '../coin/coins.js';
import { clip } from '../common/describe.js';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';
import type { ViewWallet, ViewWalletOpener } from './view-wallets.js';

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
  /** The wallet RPC's address: the app's own, or the one the explorer runs for a view-only wallet. */
  url: string;
  address: string;
  client: WalletClient;
  /** A wallet registered by address and view key: the view-only wallet the explorer runs. */
  viewOnly?: ViewWallet;
}

/** How the explorer opens view-only wallets: the chain's coin (its addresses) and the opener. */
export interface ViewWallets {
  coin: CoinSpec;
  opener: ViewWalletOpener;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
/** At most this many registered wallets (each is asked every second). */
export const MAX_APP_WALLETS = 16;
/** At most this many of them view-only (each is a wallet RPC the explorer runs). */
export const MAX_VIEW_WALLETS = 4;
const PROBE_MS = 4000;

const byUrl = z.strictObject({ name: z.string(), url: z.string() });
const byKeys = z.strictObject({ name: z.string(), address: z.string(), viewKey: z.string() });
const BODY =
  'the body must be a JSON object {"name": "…", "url": "http://127.0.0.1:PORT"} (the name and the wallet RPC of an app) ' +
  'or {"name": "…", "address": "…", "viewKey": "…"} (a wallet the explorer opens view-only)';

/**
 * Why `viewKey` cannot open a view-only wallet of `address` on `coin`'s testnet (a 400 naming the field), or nothing:
 * the address a main address of the testnet, the key 64 hex digits that pair with it.
 */
export function checkViewKey(coin: CoinSpec, address: string, viewKey: string): void {
  // An address as its start and end, a line's worth.
  const shown = address.length > 40 ? JSON.stringify(`${address.slice(0, 12)}…${address.slice(-6)}`) : clip(address);
  // Typed, so that a refusal narrows what follows it.
  const bad: (message: string) => never = (message) => {
    throw new UiRequestError(400, message);
  };
  const a = decodeAddress(coin, address);
  const families = new Set(coin.addressPrefixes.map((p) => (p.family === 'cn' ? 'CN' : 'Carrot')));
  const kinds = [...families].join(' or ');
  if (!a) bad(`address ${shown} is not an address of this testnet (a ${coin.chain} testnet ${kinds} address)`);
  if (a.network !== 'testnet')
    bad(`address ${shown} is a ${coin.chain} ${a.network} address; this testnet's addresses are testnet ones`);
  if (a.type !== 'standard')
    bad(
      `address ${shown} is ${a.type === 'integrated' ? 'an integrated address' : 'a subaddress'}; ` +
        "give the wallet's main address (get_address's address)",
    );
  if (!/^[0-9a-fA-F]{64}$/.test(viewKey))
    bad(`viewKey must be 64 hex digits (a secret key), got ${viewKey.length} characters that are not`);
  if (a.family === 'cn') {
    const k = secretKeyScalar(viewKey);
    if (k === undefined) bad('viewKey is not a secret key (a scalar below the group order of ed25519)');
    if (!pairsWith(k, a.viewPublicKey))
      bad(`viewKey does not match address ${shown}: a CN address pairs with its wallet's query_key view_key`);
    return;
  }
  if (pairsWith(carrotViewIncoming(Buffer.from(viewKey, 'hex')), a.viewPublicKey)) return;
  const k = secretKeyScalar(viewKey);
  if (k !== undefined && pairsWith(k, a.viewPublicKey))
    bad(
      `viewKey is the incoming view key (k_view_incoming) of address ${shown}; generate_from_keys takes a ` +
        "Carrot address's view-balance secret: give the wallet's query_key s_view_balance",
    );
  bad(
    `viewKey does not match address ${shown}: a Carrot address pairs with its wallet's view-balance secret ` +
      "(query_key s_view_balance); query_key view_key pairs with the CN address (get_address's addresses[0].address_cn)",
  );
}

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
  /** Check a request's body and the wallet it names, then keep it. `taken`: the names already shown. */
  add(raw: unknown, taken: string[]): Promise<AppWallet>;
  remove(name: string): Promise<void>;
  close(): Promise<void>;
}

/** Its wallet RPC's address, or why it is refused. */
async function probe(url: string): Promise<{ address: string; client: WalletClient }> {
  const client = createWalletClient(url, { timeoutMs: PROBE_MS });
  try {
    const address = String((await client.call<{ address?: unknown }>('get_address')).address ?? '');
    if (!address) throw new Error('its answer has no address');
    return { address, client };
  } catch (err) {
    await client.close();
    throw new UiRequestError(
      400,
      `the wallet RPC at ${url} did not answer get_address: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

export function appRegistry(views?: ViewWallets): AppRegistry {
  const apps = new Map<string, AppWallet>();
  /** Names being registered (a view-only wallet's start takes seconds): not given twice. */
  const pending = new Set<string>();
  const drop = async (a: AppWallet): Promise<void> => {
    await a.client.close();
    await a.viewOnly?.close();
  };
  return {
    list: () => [...apps.values()],
    async add(raw, taken) {
      const r = byUrl.safeParse(raw);
      const k = r.success ? undefined : byKeys.safeParse(raw);
      if (!r.success && !k?.success) throw new UiRequestError(400, BODY);
      const name = r.success ? r.data.name : k!.data!.name;
      if (!NAME.test(name))
        throw new UiRequestError(
          400,
          `name ${clip(name)} must be 1 to 32 letters, digits, '.', '_' or '-' (starting with a letter or digit)`,
        );
      const nameTaken = (): boolean => taken.includes(name) || apps.has(name) || pending.has(name);
      if (nameTaken())
        throw new UiRequestError(409, `name ${clip(name)} is taken: a wallet of that name is already shown`);
      if (apps.size + pending.size >= MAX_APP_WALLETS)
        throw new UiRequestError(409, `the explorer shows at most ${MAX_APP_WALLETS} registered wallets`);
      let app: AppWallet;
      if (r.success) {
        const url = walletUrl(r.data.url);
        const same = [...apps.values()].find((a) => a.url === url && !a.viewOnly);
        if (same) throw new UiRequestError(409, `the wallet RPC at ${url} is already shown as ${clip(same.name)}`);
        pending.add(name);
        try {
          app = { name, url, ...(await probe(url)) };
        } finally {
          pending.delete(name);
        }
      } else {
        const { address, viewKey } = k!.data!;
        if (!views)
          throw new UiRequestError(400, 'this explorer opens no view-only wallets (it shows no testnet of its own)');
        checkViewKey(views.coin, address, viewKey);
        const same = [...apps.values()].find((a) => a.address === address);
        if (same) throw new UiRequestError(409, `that address is already shown as ${clip(same.name)}`);
        if ([...apps.values()].filter((a) => a.viewOnly).length >= MAX_VIEW_WALLETS)
          throw new UiRequestError(409, `the explorer opens at most ${MAX_VIEW_WALLETS} view-only wallets`);
        pending.add(name);
        try {
          const w = await views.opener.open(name, address, viewKey).catch((err: unknown) => {
            throw new UiRequestError(
              503,
              `the view-only wallet ${clip(name)} could not be opened: ${err instanceof Error ? err.message : String(err)}`,
            );
          });
          app = { name, url: w.url, address, client: w.client, viewOnly: w };
        } finally {
          pending.delete(name);
        }
      }
      // Taken meanwhile by a request that raced this one.
      if (apps.has(name)) {
        await drop(app);
        throw new UiRequestError(409, `name ${clip(name)} is taken: a wallet of that name is already shown`);
      }
      apps.set(name, app);
      return app;
    },
    async remove(name) {
      const app = apps.get(name);
      if (!app) throw new UiRequestError(404, `no registered wallet is named ${clip(name)}`);
      apps.delete(name);
      await drop(app);
    },
    async close() {
      for (const a of apps.values()) await a.client.close();
      apps.clear();
      await views?.opener.close();
    },
  };
}
