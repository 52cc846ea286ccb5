// The faucet: pay any address (an app's own wallet, CN or Carrot, whatever the chain takes at its
// height) from the testnet's `main` wallet, then mine until the receiver can spend what it got. A
// received output is spendable once the chain has `spendableAge` blocks (10 on Salvium and Monero,
// CRYPTONOTE_DEFAULT_TX_SPENDABLE_AGE) on top of the block that holds it, counting that block
// (wallet2::is_transfer_unlocked: spendable when height ≥ block index + 10). A token payment is two
// transactions on Salvium (the ROLLUP that pays the fee, mined a block before the token's own): the
// later of them counts.
//
// What is wrong is said before anything is sent: an address of another chain or network (a Salvium
// mainnet one, a Monero one), a CN address where the chain takes only Carrot ones, an asset main does
// not hold (with what it holds), an amount over what main holds (unlocked and locked).
import type { DaemonClient } from '../../rpc/daemon.js';
import { RpcError } from '../../rpc/errors.js';
import { toBigInt } from '../../rpc/json.js';
import type { WalletClient } from '../../rpc/wallet.js';
import { clip, CLIP_CHARS } from '../../common/describe.js';
import { suggest } from '../../common/suggest.js';
import { formatAmountShort } from '../../coin/amounts.js';
import { BACKENDS, fundingAsset, type BackendSpec } from '../../coin/backends.js';
import { addressKindOf } from '../../coin/coins.js';
import { assetTransfer } from '../../coin/transactions.js';
import { counted } from '../../common/describe.js';

export interface FundRequest {
  address: string;
  /** Atomic units of the asset. */
  amount: bigint;
  /** The asset (default: the backend's, SAL1 on Salvium); a token by its asset type, e.g. salTST1. */
  asset?: string;
}

export interface FundResult {
  address: string;
  /** What the address is, e.g. `salvium testnet carrot standard`. */
  kind: string;
  asset: string;
  /** Atomic units paid, as a decimal string. */
  amount: string;
  /** The transactions that paid it (a token payment: the ROLLUP first). */
  txHashes: string[];
  /** The block (index) that holds the payment (the later one of a token payment). */
  block: number;
  /** The chain's height now: the payment is spendable from here on. */
  height: number;
}

export interface FaucetDeps {
  spec: BackendSpec;
  daemon: DaemonClient;
  /** The main wallet, refreshed to the chain. */
  main: WalletClient;
  /** Mine up to this height (blocks to the miner wallet), syncing the testnet's wallets; returns the height. */
  mineTo(height: number, signal?: AbortSignal): Promise<number>;
  log?: (line: string) => void;
}

/** Blocks mined for a payment that stays in the pool before the faucet gives up. */
const MAX_CONFIRM_BLOCKS = 5;

/** What holds each asset of `main`: balance, unlocked, blocks until the rest unlocks. */
interface Held {
  asset: string;
  balance: bigint;
  unlocked: bigint;
  blocksToUnlock: number;
}

export class FaucetError extends Error {}

/** A request the faucet refuses before anything is sent: a bad address, an unknown asset, more than main holds. */
export class FaucetRefusal extends FaucetError {}

export interface FundOptions {
  /** Aborted: the request is given up, as long as the payment is not being sent yet (after that it finishes). */
  signal?: AbortSignal;
  /** Told the payment as it is sent: it settles to its transactions (or fails: then nothing was sent). */
  onSend?: (sending: Promise<string[]>) => void;
}

/** Every coin's prefixes (the built-in backends' and registered ones), to name an address of another chain. */
const allCoins = (): BackendSpec['coin'][] => [...new Set(Object.values(BACKENDS).map((b) => b.coin))];

const CHAIN_NAMES: Record<string, string> = { salvium: 'Salvium', monero: 'Monero' };
const chainName = (c: string): string => CHAIN_NAMES[c] ?? c;

/** The prefixes the chain takes at `height`: "SC1T… (Carrot)" or "SaLvT… (CN)". */
function expected(spec: BackendSpec, carrot: boolean): string {
  if (spec.coin.chain !== 'salvium') return `${chainName(spec.coin.chain)} testnet addresses`;
  return carrot ? 'Carrot testnet addresses (SC1T…)' : 'CN testnet addresses (SaLvT…)';
}

/** The address's kind, or a FaucetError saying what it is and what this testnet takes. */
export async function checkAddress(
  spec: BackendSpec,
  main: WalletClient,
  address: string,
  height: number,
): Promise<string> {
  const text = address.trim();
  const carrotNow = spec.carrotHeight !== undefined && height >= spec.carrotHeight;
  const want = expected(spec, carrotNow);
  const kind = addressKindOf(allCoins(), text);
  if (!kind)
    throw new FaucetRefusal(
      `${clip(text)} is not an address (no known address prefix and length); this testnet takes ${want}`,
    );
  const [chain, network, family] = kind.split(' ');
  if (chain !== spec.coin.chain || network !== 'testnet')
    throw new FaucetRefusal(
      `${text} is a ${chainName(chain!)} ${network} address; this testnet (${spec.name}) takes ${want}`,
    );
  if (spec.carrotHeight !== undefined && (family === 'carrot') !== carrotNow)
    throw new FaucetRefusal(
      carrotNow
        ? `${text} is a CN address: from height ${spec.carrotHeight} (Carrot) the wallet pays only Carrot addresses, and the chain is at ${height}; give the receiving wallet's Carrot address (SC1T…: its get_address answers it)`
        : `${text} is a Carrot address, and Carrot starts at height ${spec.carrotHeight}: the chain is at ${height}; give the wallet's CN address (SaLvT…)`,
    );
  const v = await main.call<{ valid: boolean }>('validate_address', { address: text, any_net_type: false });
  if (!v.valid)
    throw new FaucetRefusal(
      `${text} looks like a ${kind} address but is not valid (its checksum does not match: a typo?)`,
    );
  return kind;
}

async function holdings(main: WalletClient, spec: BackendSpec): Promise<Held[]> {
  const r = await main.call<Record<string, unknown>>('get_balance', spec.fundAsset ? { all_assets: true } : {});
  const list = Array.isArray(r.balances)
    ? (r.balances as Record<string, unknown>[])
    : [{ ...r, asset_type: fundingAsset(spec) }];
  return list.map((b) => ({
    asset: String(b.asset_type),
    balance: toBigInt(b.balance ?? 0),
    unlocked: toBigInt(b.unlocked_balance ?? 0),
    blocksToUnlock: Number(b.blocks_to_unlock ?? 0),
  }));
}

const heldText = (h: Held): string =>
  `${formatAmountShort(h.balance, h.asset)} (${formatAmountShort(h.unlocked, h.asset)} unlocked${
    h.balance > h.unlocked ? `, the rest unlocks in ${counted(h.blocksToUnlock, 'block')}` : ''
  })`;

/** What main holds, for messages: "SAL1 2958 (2958 unlocked), salTST1 995 (990 unlocked, the rest …)". */
const heldList = (held: Held[]): string =>
  held
    .filter((h) => h.balance > 0n)
    .map(heldText)
    .join(', ') || 'nothing';

/** Main's holding of `asset`, or a FaucetError listing what it holds. */
function holdingOf(held: Held[], asset: string): Held {
  const h = held.find((x) => x.asset === asset && x.balance > 0n);
  if (h) return h;
  const names = held.filter((x) => x.balance > 0n).map((x) => x.asset);
  const near =
    names.find((n) => n.toLowerCase() === `sal${asset}`.toLowerCase()) ??
    names.find((n) => n.toLowerCase() === asset.toLowerCase()) ??
    suggest(asset, names);
  const hint = near
    ? ` (did you mean ${near}?${near.startsWith('sal') && !asset.startsWith('sal') ? " a token's asset type is sal and its ticker" : ''})`
    : '';
  throw new FaucetRefusal(
    `main holds no ${asset.length > CLIP_CHARS ? clip(asset) : asset}${hint}; it holds ${heldList(held)}`,
  );
}

/**
 * Pay `req` from main and mine until it is spendable; see the header. `o.signal` gives the request up until the
 * payment is being sent: from then on it is out of the wallet's hands, and the faucet finishes.
 */
export async function payFromMain(d: FaucetDeps, req: FundRequest, o: FundOptions = {}): Promise<FundResult> {
  const { spec, daemon, main } = d;
  o.signal?.throwIfAborted();
  if (typeof req.amount !== 'bigint' || req.amount <= 0n)
    throw new FaucetRefusal(`the amount must be more than 0 atomic units, got ${String(req.amount)}`);
  const asset = req.asset ?? fundingAsset(spec);
  // Asset types are letters and digits (SAL1, salTST1): anything else is said quoted, never echoed raw.
  if (!/^[A-Za-z0-9]{1,32}$/.test(asset))
    throw new FaucetRefusal(
      `${clip(asset)} is not an asset type: give ${fundingAsset(spec)}${spec.fundAsset ? " or a token's asset type (sal and its ticker, e.g. salTST1)" : ''}`,
    );
  if (!spec.fundAsset && req.asset && req.asset !== spec.coin.unit)
    throw new FaucetRefusal(
      `the ${spec.name} backend has one asset, ${spec.coin.unit}; there is no ${clip(req.asset)}`,
    );
  await main.refresh();
  const kind = await checkAddress(spec, main, req.address, await daemon.height());
  const held = holdingOf(await holdings(main, spec), asset);
  if (held.unlocked < req.amount) await waitForUnlock(d, asset, req.amount, held, o.signal);
  // The last moment the request can be given up: nothing runs between this check and the payment's start.
  o.signal?.throwIfAborted();
  const sending = pay(d, req.address.trim(), req.amount, asset);
  o.onSend?.(sending);
  const txHashes = await sending;
  d.log?.(
    `saltnet: fund: sent ${formatAmountShort(req.amount, asset)} to ${req.address.trim()} (tx ${txHashes.join(', ')})`,
  );
  const block = await confirm(d, txHashes);
  const height = await d.mineTo(Math.max(block + (spec.spendableAge ?? 10), await daemon.height()));
  return { address: req.address.trim(), kind, asset, amount: req.amount.toString(), txHashes, block, height };
}

/**
 * Main holds the amount but part of it is still locked (change, a fresh coinbase): mine until it unlocks, at most
 * the coinbase window; more than it holds in all is an error at once.
 */
async function waitForUnlock(
  d: FaucetDeps,
  asset: string,
  amount: bigint,
  held: Held,
  signal: AbortSignal | undefined,
): Promise<void> {
  const short = (h: Held): FaucetError =>
    new FaucetRefusal(
      `main cannot pay ${formatAmountShort(amount, asset)}: it holds ${heldText(h)}; the fees are paid in ${fundingAsset(d.spec)} on top`,
    );
  if (held.balance < amount) throw short(held);
  const start = await d.daemon.height();
  let h = held;
  while (h.unlocked < amount) {
    const height = await d.daemon.height();
    if (height - start >= d.spec.coinbaseUnlock) throw short(h);
    d.log?.(
      `saltnet: fund: main's ${asset} is locked for ${counted(h.blocksToUnlock, 'more block', 'more blocks')}; mining ${h.blocksToUnlock === 1 ? 'it' : 'them'}`,
    );
    await d.mineTo(height + Math.max(1, Math.min(h.blocksToUnlock, d.spec.coinbaseUnlock)), signal);
    await d.main.refresh();
    h = holdingOf(await holdings(d.main, d.spec), asset);
  }
}

/** The payment: transfer_split (a token payment is two transactions; a large one may be several). */
async function pay(d: FaucetDeps, address: string, amount: bigint, asset: string): Promise<string[]> {
  const dest = { address, amount, ...(d.spec.fundAsset ? { asset_type: asset } : {}) };
  const params = d.spec.fundAsset ? assetTransfer([dest], asset) : { destinations: [dest] };
  try {
    const r = await d.main.call<{ tx_hash_list: string[] }>('transfer_split', params);
    return r.tx_hash_list;
  } catch (err) {
    if (err instanceof RpcError) {
      const held = await holdings(d.main, d.spec).catch(() => []);
      throw new FaucetError(
        `main could not pay ${formatAmountShort(amount, asset)} to ${address}: the wallet answered ${err.code} ${err.rpcMessage}; main holds ${heldList(held)}`,
      );
    }
    throw err;
  }
}

/** Mine until every transaction of the payment is in a block; the index of the last one's block. */
async function confirm(d: FaucetDeps, txHashes: string[]): Promise<number> {
  for (let mined = 0; ; mined++) {
    const r = await d.daemon.post<{ txs?: { tx_hash: string; in_pool: boolean; block_height: number }[] }>(
      '/get_transactions',
      { txs_hashes: txHashes },
    );
    const txs = r.txs ?? [];
    const pending = txHashes.filter((h) => !txs.some((t) => t.tx_hash === h && !t.in_pool));
    if (pending.length === 0) return Math.max(...txs.map((t) => t.block_height));
    if (mined >= MAX_CONFIRM_BLOCKS)
      throw new FaucetError(
        `the daemon did not mine ${pending.join(', ')} in ${counted(mined, 'block')} (still in its pool); see the daemon's log`,
      );
    await d.mineTo((await d.daemon.height()) + 1);
  }
}
