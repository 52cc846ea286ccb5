// One picture of the testnet for the explorer (state.ts says what is in it): the daemon first, then
// every wallet at once (the testnet's and those apps registered), then the tokens from both. A
// picture is built at most once per second, however many pages ask. A wallet RPC answers one request
// at a time (a transfer being built holds it): each wallet is asked with a short deadline, and one
// that does not answer in time is shown with what it answered last, marked busy.
import type { WalletClient } from '../rpc/wallet.js';
import { toBigInt } from '../rpc/json.js';
import type { AppRegistry } from './apps.js';
import type { Chain } from './chain.js';
import {
  BLOCKS_SHOWN,
  tailOf,
  tickerOf,
  type TokenView,
  type TransferView,
  type TxView,
  type UiSource,
  type UiState,
  type WalletView,
} from './state.js';

type Json = Record<string, unknown>;

/** How many transfers of each wallet the main page shows (a wallet's page shows all it keeps). */
const TRANSFERS_SHOWN = 12;
/** How many transfers of a wallet the explorer keeps, newest first. */
const TRANSFERS_KEPT = 2000;
/** A wallet that has not answered by then is shown as it was, marked busy. */
const WALLET_DEADLINE_MS = 4000;

const text = (v: unknown): string => toBigInt(v ?? 0).toString();

/** Newest first; entries without a height yet (pool, pending) before all. */
const newestFirst = (a: { height: number }, b: { height: number }): number =>
  (b.height || Number.MAX_SAFE_INTEGER) - (a.height || Number.MAX_SAFE_INTEGER);

/**
 * The wallet's balances in every asset. Salvium's get_balance names one asset (SAL1 unless told) even with
 * all_assets, and a wallet that never held it answers "Source asset … not found": one it has transfers in is named
 * then, and a wallet with none has no balances. (Monero's answer is flat: one balance, shown as XMR.)
 */
async function balancesOf(client: WalletClient, assets: string[]): Promise<WalletView['balances']> {
  const asset = assets.length === 0 || assets.includes('SAL1') ? undefined : assets[0];
  const res = await client.raw('get_balance', { ...(asset ? { asset_type: asset } : {}), all_assets: true });
  if (res.error) {
    if (res.error.code === -1 && /not found in wallet/.test(res.error.message)) return [];
    throw new Error(`get_balance: ${res.error.code} ${res.error.message}`);
  }
  const bal = (res.result ?? {}) as Json;
  const list = Array.isArray(bal.balances) ? (bal.balances as Json[]) : [{ ...bal, asset_type: 'XMR' }];
  return list.map((b) => ({
    asset: String(b.asset_type),
    balance: text(b.balance),
    unlocked: text(b.unlocked_balance),
    blocksToUnlock: Number(b.blocks_to_unlock ?? 0),
  }));
}

async function walletView(name: string, address: string, client: WalletClient): Promise<WalletView> {
  const tr = await client.call<Record<string, Json[] | undefined>>('get_transfers', {
    in: true,
    out: true,
    pending: true,
    pool: true,
    failed: true,
  });
  const transfers: TransferView[] = Object.values(tr)
    .flatMap((v) => v ?? [])
    .map((e) => ({
      type: String(e.type ?? ''),
      txid: String(e.txid ?? ''),
      height: Number(e.height ?? 0),
      amount: text(e.amount),
      asset: String(e.asset_type ?? ''),
      ...(typeof e.confirmations === 'number' ? { confirmations: e.confirmations } : {}),
    }))
    .sort(newestFirst)
    .slice(0, TRANSFERS_KEPT);
  const assets = [...new Set(transfers.map((t) => t.asset).filter(Boolean))];
  return { name, address, balances: await balancesOf(client, assets), transfers };
}

/** Each transfer with what the chain says of its transaction: its type, burn and fee, the token it creates. */
export function withTxTypes(transfers: TransferView[], views: Map<string, TxView>): TransferView[] {
  return transfers.map((t) => {
    const v = views.get(t.txid);
    if (!v) return t;
    return {
      ...t,
      txType: v.type,
      ...(t.asset ? {} : v.asset ? { asset: v.asset } : {}),
      ...(v.burnt && t.type !== 'block' ? { burnt: v.burnt } : {}),
      ...(v.fee ? { fee: v.fee } : {}),
      ...(v.token ? { token: `sal${v.token.ticker}` } : {}),
    };
  });
}

/** What the wallets saw each transaction move: what one sent (its change left out), else what they received. */
export function movedBy(wallets: WalletView[]): Map<string, { amount: string; asset: string }> {
  const sent = new Map<string, { amount: string; asset: string }>();
  const received = new Map<string, { amount: bigint; asset: string }>();
  for (const w of wallets)
    for (const t of w.transfers) {
      if (!t.txid || t.amount === '0' || t.type === 'block') continue;
      if (t.type === 'out' || t.type === 'pending') sent.set(t.txid, { amount: t.amount, asset: t.asset });
      else if (t.type === 'in' || t.type === 'pool') {
        const r = received.get(t.txid);
        received.set(t.txid, { amount: (r?.amount ?? 0n) + BigInt(t.amount), asset: t.asset || r?.asset || '' });
      }
    }
  for (const [id, r] of received) if (!sent.has(id)) sent.set(id, { amount: r.amount.toString(), asset: r.asset });
  return sent;
}

/** A tx with what the wallets saw it move (coinbases pay in the open: they need none). */
export function withMoved(tx: TxView, moved: Map<string, { amount: string; asset: string }>): TxView {
  const m = moved.get(tx.hash);
  return m && !tx.pays ? { ...tx, moved: m } : tx;
}

/** Tokens the daemon knows, with their creators and holders among the wallets. */
async function tokensView(src: UiSource, wallets: WalletView[]): Promise<TokenView[]> {
  const r = await src.daemon.call<{ tokens?: string[] }>('get_tokens').catch(() => ({ tokens: [] as string[] }));
  const out: TokenView[] = [];
  for (const assetType of r.tokens ?? []) {
    const info = await src.daemon.call<{ sal_token?: Json }>('get_token_info', { asset_type: assetType });
    const sal = info.sal_token ?? {};
    // The supply is minted to its creator in the block of the creation: a `block` entry in that asset; the creator's
    // wallet also has the create-token (an `out` that burns 1000 SAL1).
    const minted = wallets
      .map((w) => ({ w, t: w.transfers.find((t) => t.type === 'block' && t.asset === assetType) }))
      .find((x) => x.t);
    const creation = wallets.flatMap((w) => w.transfers).find((t) => t.token === assetType && t.type === 'out');
    const createdAt = minted?.t?.height ?? creation?.height;
    const holders = wallets.flatMap((w) =>
      w.balances
        .filter((b) => b.asset === assetType && b.balance !== '0')
        .map((b) => ({ wallet: w.name, balance: b.balance, unlocked: b.unlocked, ...(w.app ? { app: true } : {}) })),
    );
    out.push({
      assetType,
      ticker: tickerOf(assetType),
      name: String(sal.name ?? ''),
      supply: Number(sal.supply ?? 0),
      url: String(sal.url ?? ''),
      size: Number(sal.size ?? 0),
      ...(minted ? { creator: minted.w.name } : {}),
      ...(createdAt ? { createdAt } : {}),
      ...(creation ? { creationTx: creation.txid } : {}),
      holders,
      held: holders.reduce((s, h) => s + BigInt(h.balance), 0n).toString(),
    });
  }
  return out;
}

function deadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, fail) => {
      timer = setTimeout(() => fail(new Error(`no answer in ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface Collector {
  /** The picture: every wallet's transfers that the explorer keeps. */
  picture(): Promise<UiState>;
  /** The picture as the main page gets it: each wallet's last few transfers. */
  state(): Promise<UiState>;
  /** Build the next picture anew (a wallet was registered or removed). */
  forget(): void;
}

export function collector(src: UiSource, chain: Chain, apps: AppRegistry): Collector {
  const lastWallets = new Map<string, WalletView>();
  let current: { at: number; state: Promise<UiState> } | undefined;
  const build = async (): Promise<UiState> => {
    const problems: string[] = [];
    const height = await src.daemon.height();
    const [blocks, pool] = await Promise.all([chain.blocks(height - 1, BLOCKS_SHOWN), chain.pool()]);
    const everyWallet = [...src.wallets(), ...apps.list().map((a) => ({ ...a, app: true as const }))] as {
      name: string;
      address: string;
      client: WalletClient;
      app?: true;
      url?: string;
      viewOnly?: unknown;
    }[];
    const wallets = await Promise.all(
      everyWallet.map(async (w) => {
        const own = { ...(w.app ? { app: true, url: w.url } : {}), ...(w.viewOnly ? { viewOnly: true } : {}) };
        try {
          const v = { ...(await deadline(walletView(w.name, w.address, w.client), WALLET_DEADLINE_MS)), ...own };
          lastWallets.set(w.name, v);
          return v;
        } catch (err) {
          problems.push(`wallet ${w.name}: ${err instanceof Error ? err.message : String(err)}`);
          const last = lastWallets.get(w.name) ?? { name: w.name, address: w.address, balances: [], transfers: [] };
          return { ...last, ...own, busy: true };
        }
      }),
    );
    const views = await chain.views([...new Set(wallets.flatMap((w) => w.transfers.map((t) => t.txid)))]);
    const typed = wallets.map((w) => ({ ...w, transfers: withTxTypes(w.transfers, views) }));
    const moved = movedBy(typed);
    return {
      at: new Date().toISOString(),
      runId: src.runId,
      backend: src.backend,
      decimals: src.decimals,
      height,
      automine: src.automine(),
      blocks: blocks.map((b) => ({ ...b, txs: b.txs.map((t) => withMoved(t, moved)) })),
      pool: pool.map((t) => withMoved(t, moved)),
      tokens: await tokensView(src, typed),
      wallets: typed,
      programs: src.programs().map((p) => ({ ...p, tail: tailOf(p.log) })),
      problems,
    };
  };
  const picture = (): Promise<UiState> => {
    if (!current || Date.now() - current.at > 1000) {
      current = { at: Date.now(), state: build() };
      // A failed picture is not kept: the next page asks again.
      current.state.catch(() => (current = undefined));
    }
    return current.state;
  };
  return {
    picture,
    forget: () => (current = undefined),
    async state() {
      const s = await picture();
      return { ...s, wallets: s.wallets.map((w) => ({ ...w, transfers: w.transfers.slice(0, TRANSFERS_SHOWN) })) };
    },
  };
}
