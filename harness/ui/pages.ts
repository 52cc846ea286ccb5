// What the explorer's pages ask for beyond the main picture: the chain's blocks back to genesis a
// page at a time, one block, one transaction, a token with its whole history, a wallet with all its
// transfers, and a search that says which page a height, hash, address, ticker or wallet name is on.
// Each answer that finds nothing says what was asked and what there is (an HTTP 404), each request
// that is malformed says why (a 400).
import { clip } from '../common/describe.js';
import { UiRequestError } from './apps.js';
import { isHash, type Chain } from './chain.js';
import { movedBy, withMoved, type Collector } from './collect.js';
import type { BlockPage, BlocksPage, TokenPage, TokenView, TxPage, TxView, UiState, WalletView } from './state.js';

/** Blocks on a page of the chain, by default and at most. */
export const BLOCKS_PER_PAGE = 20;
const MAX_BLOCKS_PER_PAGE = 100;
/** How many blocks a look for a token's creation reads at a time, newest first. */
const SCAN = 200;

export interface Pages {
  blocks(top?: string, n?: string): Promise<BlocksPage>;
  block(id: string): Promise<BlockPage>;
  tx(hash: string): Promise<TxPage>;
  token(ticker: string): Promise<TokenPage>;
  wallet(name: string): Promise<WalletView>;
  /** The page `q` is on, as the page's route (`#/block/12`). */
  search(q: string): Promise<{ route: string }>;
}

const notFound = (message: string): UiRequestError => new UiRequestError(404, message);
const heightsOf = (h: number): string => (h > 0 ? `blocks 0 to ${h - 1}` : 'no blocks');

/** A whole number from a query parameter, or why not. */
function whole(name: string, text: string | undefined, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new UiRequestError(400, `${name} must be a whole number from 0 to ${max}, got ${clip(text)}`);
  return Number(text);
}

function findToken(s: UiState, q: string): TokenView | undefined {
  const up = q.toUpperCase();
  return (
    s.tokens.find((t) => t.ticker === q || t.assetType === q) ??
    s.tokens.find((t) => t.ticker.toUpperCase() === up || t.assetType.toUpperCase() === up)
  );
}

const involves = (t: TxView, assetType: string): boolean =>
  (t.token !== undefined && `sal${t.token.ticker}` === assetType) ||
  t.asset === assetType ||
  (t.pays ?? []).some((p) => p.asset === assetType);

interface Ctx {
  chain: Chain;
  pictures: Collector;
  /** Where each token was created: height and tx (found once, by reading the chain back from its top). */
  creations: Map<string, { height: number; tx: string }>;
}

async function creationOf(c: Ctx, t: TokenView, height: number): Promise<{ height: number; tx?: string } | undefined> {
  const known = c.creations.get(t.assetType);
  if (known) return known;
  const creates = (x: TxView): boolean => x.type === 'create-token' && `sal${x.token?.ticker}` === t.assetType;
  // The block a wallet saw it in first; else the chain read back from its top.
  const seen = t.createdAt !== undefined ? await c.chain.block(String(t.createdAt)) : undefined;
  const tx = seen?.txs.find(creates);
  if (seen && tx) return c.creations.set(t.assetType, { height: seen.height, tx: tx.hash }).get(t.assetType);
  for (let top = height - 1; top >= 0; top -= SCAN) {
    for (const b of await c.chain.blocks(top, SCAN)) {
      const found = b.txs.find(creates);
      if (found) return c.creations.set(t.assetType, { height: b.height, tx: found.hash }).get(t.assetType);
    }
  }
  return t.createdAt ? { height: t.createdAt } : undefined;
}

async function blocksPage(c: Ctx, topText?: string, nText?: string): Promise<BlocksPage> {
  const s = await c.pictures.picture();
  const n = whole('n', nText, BLOCKS_PER_PAGE, MAX_BLOCKS_PER_PAGE) || BLOCKS_PER_PAGE;
  const top = Math.min(whole('top', topText, s.height - 1), s.height - 1);
  const moved = movedBy(s.wallets);
  const blocks = await c.chain.blocks(top, n);
  return { height: s.height, blocks: blocks.map((b) => ({ ...b, txs: b.txs.map((t) => withMoved(t, moved)) })) };
}

async function blockPage(c: Ctx, id: string): Promise<BlockPage> {
  if (!/^\d+$/.test(id) && !isHash(id))
    throw new UiRequestError(
      400,
      `a block is named by its height (digits) or its hash (64 hex digits), got ${clip(id)}`,
    );
  const s = await c.pictures.picture();
  const b = await c.chain.block(id);
  if (!b)
    throw notFound(
      /^\d+$/.test(id)
        ? `no block at height ${id}: the chain has ${heightsOf(s.height)}`
        : `no block with hash ${id} on the chain`,
    );
  const moved = movedBy(s.wallets);
  return { height: s.height, block: { ...b, txs: b.txs.map((t) => withMoved(t, moved)) } };
}

async function txPage(c: Ctx, hash: string): Promise<TxPage> {
  if (!isHash(hash))
    throw new UiRequestError(400, `a transaction is named by its hash (64 hex digits), got ${clip(hash)}`);
  const s = await c.pictures.picture();
  const found = await c.chain.tx(hash);
  if (!found) throw notFound(`no transaction ${hash} on the chain or in the pool`);
  const id = found.view.hash;
  const wallets = s.wallets.flatMap((w) =>
    w.transfers
      .filter((t) => t.txid === id)
      .map((t) => ({ wallet: w.name, type: t.type, amount: t.amount, asset: t.asset || found.view.asset || '' })),
  );
  const { view, ...where } = found;
  return { tx: withMoved(view, movedBy(s.wallets)), ...where, wallets };
}

async function tokenPage(c: Ctx, ticker: string): Promise<TokenPage> {
  const s = await c.pictures.picture();
  const t = findToken(s, ticker);
  if (!t)
    throw notFound(
      `no token ${clip(ticker)} on the chain${s.tokens.length ? ` (its tokens: ${s.tokens.map((x) => x.ticker).join(', ')})` : ' (it has none yet)'}`,
    );
  const created = await creationOf(c, t, s.height);
  const moved = movedBy(s.wallets);
  const start = created?.height ?? 0;
  const blocks = s.height > start ? await c.chain.blocks(s.height - 1, s.height - start) : [];
  const history = [
    ...blocks
      .reverse()
      .flatMap((b) => b.txs.filter((x) => involves(x, t.assetType)).map((x) => ({ ...x, height: b.height }))),
    ...s.pool.filter((x) => involves(x, t.assetType)).map((x) => ({ ...x, height: 0 })),
  ].map((x) => ({ ...withMoved(x, moved), height: x.height }));
  return {
    ...t,
    ...(created ? { createdAt: created.height } : {}),
    ...(t.creationTx || created?.tx ? { creationTx: t.creationTx ?? created?.tx } : {}),
    history,
  };
}

async function walletPage(c: Ctx, name: string): Promise<WalletView> {
  const s = await c.pictures.picture();
  const w = s.wallets.find((x) => x.name === name);
  if (!w)
    throw notFound(`no wallet named ${clip(name)}; the explorer shows ${s.wallets.map((x) => x.name).join(', ')}`);
  return w;
}

async function search(c: Ctx, raw: string): Promise<{ route: string }> {
  const q = raw.trim();
  if (!q)
    throw new UiRequestError(
      400,
      "search for a height, a block's or transaction's hash, an address, a ticker or a wallet's name",
    );
  const s = await c.pictures.picture();
  if (/^\d+$/.test(q)) {
    if (Number(q) < s.height) return { route: `#/block/${Number(q)}` };
    throw notFound(`no block at height ${q}: the chain has ${heightsOf(s.height)}`);
  }
  if (isHash(q)) {
    const id = q.toLowerCase();
    if (await c.chain.block(id)) return { route: `#/block/${id}` };
    if (await c.chain.tx(id)) return { route: `#/tx/${id}` };
    throw notFound(`no block or transaction ${id} on the chain or in the pool`);
  }
  const w = s.wallets.find((x) => x.name === q || x.address === q);
  if (w) return { route: `#/wallet/${encodeURIComponent(w.name)}` };
  const t = findToken(s, q);
  if (t) return { route: `#/token/${encodeURIComponent(t.ticker)}` };
  if (/^(SaLv|SC1)[1-9A-HJ-NP-Za-km-z]{80,}$/.test(q))
    throw notFound(`the address ${clip(q)} is none of the explorer's wallets: register its wallet RPC to see it`);
  throw notFound(`nothing on the chain or among the wallets matches ${clip(q)}`);
}

export function pages(chain: Chain, pictures: Collector): Pages {
  const c: Ctx = { chain, pictures, creations: new Map() };
  return {
    blocks: (top, n) => blocksPage(c, top, n),
    block: (id) => blockPage(c, id),
    tx: (hash) => txPage(c, hash),
    token: (ticker) => tokenPage(c, ticker),
    wallet: (name) => walletPage(c, name),
    search: (q) => search(c, q),
  };
}
