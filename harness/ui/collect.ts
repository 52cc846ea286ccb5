// One picture of the testnet for the explorer (state.ts says what is in it): the daemon first, then
// every wallet at once, then the tokens from both. A picture is built at most once per second,
// however many pages ask.
import type { DaemonClient } from '../rpc/daemon.js';
import { toBigInt } from '../rpc/json.js';
import type { WalletClient } from '../rpc/wallet.js';
import {
  lastBlocks,
  poolView,
  tailOf,
  type BlockView,
  type TokenView,
  type UiSource,
  type UiState,
  type WalletView,
} from './state.js';

type Json = Record<string, unknown>;

const TRANSFERS_SHOWN = 12;
/** A wallet that has not answered by then is shown as it was, marked busy. */
const WALLET_DEADLINE_MS = 4000;

const text = (v: unknown): string => toBigInt(v ?? 0).toString();

/** Newest first; entries without a height yet (pool, pending) before all. */
const newestFirst = (a: { height: number }, b: { height: number }): number =>
  (b.height || Number.MAX_SAFE_INTEGER) - (a.height || Number.MAX_SAFE_INTEGER);

async function walletView(name: string, address: string, client: WalletClient): Promise<WalletView> {
  const [bal, tr] = await Promise.all([
    client.call<Json>('get_balance', { all_assets: true }),
    client.call<Record<string, Json[] | undefined>>('get_transfers', {
      in: true,
      out: true,
      pending: true,
      pool: true,
      failed: true,
    }),
  ]);
  const list = Array.isArray(bal.balances) ? (bal.balances as Json[]) : [{ ...bal, asset_type: 'XMR' }];
  const transfers = Object.values(tr)
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
    .slice(0, TRANSFERS_SHOWN);
  return {
    name,
    address,
    balances: list.map((b) => ({
      asset: String(b.asset_type),
      balance: text(b.balance),
      unlocked: text(b.unlocked_balance),
      blocksToUnlock: Number(b.blocks_to_unlock ?? 0),
    })),
    transfers,
  };
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

/** Tokens the daemon knows, with their creators and holders among the wallets. */
async function tokensView(daemon: DaemonClient, wallets: WalletView[], blocks: BlockView[]): Promise<TokenView[]> {
  const r = await daemon.call<{ tokens?: string[] }>('get_tokens').catch(() => ({ tokens: [] as string[] }));
  const out: TokenView[] = [];
  for (const assetType of r.tokens ?? []) {
    const info = await daemon.call<{ sal_token?: Json }>('get_token_info', { asset_type: assetType });
    const sal = info.sal_token ?? {};
    // The supply is minted to its creator in the block of the creation: a `block` entry in that asset.
    const minted = wallets
      .map((w) => ({ w, t: w.transfers.find((t) => t.type === 'block' && t.asset === assetType) }))
      .find((x) => x.t);
    const createdIn = blocks.find((b) => b.txs.some((t) => t.token && `sal${t.token.ticker}` === assetType));
    const createdAt = minted?.t?.height ?? createdIn?.height;
    out.push({
      assetType,
      name: String(sal.name ?? ''),
      supply: Number(sal.supply ?? 0),
      url: String(sal.url ?? ''),
      size: Number(sal.size ?? 0),
      ...(minted ? { creator: minted.w.name } : {}),
      ...(createdAt !== undefined ? { createdAt } : {}),
      holders: wallets.flatMap((w) =>
        w.balances
          .filter((b) => b.asset === assetType && b.balance !== '0')
          .map((b) => ({ wallet: w.name, balance: b.balance, unlocked: b.unlocked })),
      ),
    });
  }
  return out;
}

export interface Collector {
  state(): Promise<UiState>;
}

export function collector(src: UiSource): Collector {
  const blockCache = new Map<string, BlockView>();
  const lastWallets = new Map<string, WalletView>();
  let current: { at: number; state: Promise<UiState> } | undefined;
  const build = async (): Promise<UiState> => {
    const problems: string[] = [];
    const height = await src.daemon.height();
    const [blocks, pool] = await Promise.all([lastBlocks(src.daemon, height, blockCache), poolView(src.daemon)]);
    const wallets = await Promise.all(
      src.wallets().map(async (w) => {
        try {
          const v = await deadline(walletView(w.name, w.address, w.client), WALLET_DEADLINE_MS);
          lastWallets.set(w.name, v);
          return v;
        } catch (err) {
          problems.push(`wallet ${w.name}: ${err instanceof Error ? err.message : String(err)}`);
          return {
            ...(lastWallets.get(w.name) ?? { name: w.name, address: w.address, balances: [], transfers: [] }),
            busy: true,
          };
        }
      }),
    );
    return {
      at: new Date().toISOString(),
      runId: src.runId,
      backend: src.backend,
      decimals: src.decimals,
      height,
      automine: src.automine(),
      blocks,
      pool,
      tokens: await tokensView(src.daemon, wallets, blocks),
      wallets,
      programs: src.programs().map((p) => ({ ...p, tail: tailOf(p.log) })),
      problems,
    };
  };
  return {
    state() {
      if (!current || Date.now() - current.at > 1000) {
        current = { at: Date.now(), state: build() };
        // A failed picture is not kept: the next page asks again.
        current.state.catch(() => (current = undefined));
      }
      return current.state;
    },
  };
}
