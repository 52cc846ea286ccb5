// What every simulated wallet RPC method shares: the server's context, the common refusals, the
// build context from the daemon, relaying built txs and the two response shapes.
import { preferTwoInputs } from '../http/replay.js';
import type { Logger } from '../common/log.js';
import { feeLevelForPriority } from '../chain/emission.js';
import { encode, toHex } from '../chain/codec.js';
import { RpcError, type Handler } from '../http/server.js';
import { commit, type Built, type BuildContext } from '../wallet/build.js';
import type { DaemonClient } from '../wallet/daemon-client.js';
import { txKey } from '../wallet/proofs.js';
import { refresh, type ScanOptions } from '../wallet/scan.js';
import type { Wallet } from '../wallet/state.js';

export interface WalletRpcContext {
  wallet: Wallet | null;
  daemon: DaemonClient;
  walletDir: string | undefined;
  restricted: boolean;
  scan: ScanOptions;
  log: Logger;
  /** Store the wallet and end the process shortly after answering. */
  stop: () => void;
  /** Seconds between automatic refreshes (`auto_refresh`; 0: none). */
  autoRefreshPeriod: number;
  /** Connect to another daemon (`set_daemon`). */
  setDaemon: (address: string) => void;
}

/** Registers a handler under one or more method names. */
export type Define = (names: string[], h: Handler) => void;

export const NO_WALLET = (): RpcError => new RpcError(-13, 'No wallet file');
export const RESTRICTED = (): RpcError => new RpcError(-7, 'Command unavailable in restricted mode.');

/** The open wallet (-13 without one); with `mutating`, then also -7 in restricted mode. */
export function need(ctx: WalletRpcContext, opts: { mutating?: boolean } = {}): Wallet {
  if (!ctx.wallet) throw NO_WALLET();
  if (opts.mutating && ctx.restricted) throw RESTRICTED();
  return ctx.wallet;
}

export const SYNCING = (): RpcError =>
  new RpcError(-52, 'This command is disabled while background syncing. Stop background syncing to use this command.');

/** CHECK_IF_BACKGROUND_SYNCING: -13 without a wallet, -52 while it syncs in the background. */
export function notSyncing(ctx: WalletRpcContext): Wallet {
  if (!ctx.wallet) throw NO_WALLET();
  if (ctx.wallet.state.meta?.backgroundSync?.syncing) throw SYNCING();
  return ctx.wallet;
}

/** CHECK_IF_RESTRICTED_BACKGROUND_SYNCING: -7 in restricted mode first, then -13, then -52. */
export function guard(ctx: WalletRpcContext): Wallet {
  if (ctx.restricted) throw RESTRICTED();
  return notSyncing(ctx);
}

export async function buildContext(ctx: WalletRpcContext, priority: number): Promise<BuildContext> {
  const [hf, fees] = await Promise.all([ctx.daemon.nextHardFork(), ctx.daemon.fees()]);
  return {
    hf,
    feePerByte: fees[feeLevelForPriority(priority)] ?? fees[0] ?? 0n,
    now: Math.floor(Date.now() / 1000),
    preferTwoInputs,
  };
}

/**
 * Submit built txs to the daemon (unless do_not_relay), then mark them pending. Not saved: like the real wallet RPC,
 * the file is written by `store`, when a wallet is opened, closed or made, and when the server stops.
 */
export async function relay(
  ctx: WalletRpcContext,
  w: Wallet,
  built: Built[],
  doNotRelay: boolean,
  code: number,
): Promise<void> {
  if (doNotRelay) return;
  for (const b of built) {
    const res = await ctx.daemon.send(b.tx);
    if (!res.ok) {
      ctx.log.log('E', `Transaction rejected by daemon: ${res.reason}`);
      throw new RpcError(code, 'transaction was rejected by daemon');
    }
  }
  commit(w, built);
}

/**
 * A built tx's `tx_metadata`: what relay_tx needs to commit it later (the simulator's own encoding of
 * wallet2's pending_tx: the tx, the wallet's record of it, and the response amounts), as hex.
 */
export const metadataOf = (b: Built): string =>
  toHex(encode({ saltnetPendingTx: 1, tx: b.tx, record: b.record, fee: b.fee, amount: b.amount, dest: b.destAmounts }));

const sortedKeyImages = (b: Built): string[] =>
  b.tx.inputs
    .map((i) => i.keyImage)
    .sort()
    .reverse();
const txHex = (b: Built): string => toHex(encode(b.tx));

export function singleResponse(
  b: Built,
  o: { getTxKey: boolean; getTxHex: boolean; getTxMetadata: boolean },
): Record<string, unknown> {
  return {
    amount: b.amount,
    amounts_by_dest: { amounts: b.destAmounts },
    fee: b.fee,
    multisig_txset: '',
    spent_key_images: { key_images: sortedKeyImages(b) },
    tx_blob: o.getTxHex ? txHex(b) : '',
    tx_hash: b.tx.txid,
    tx_key: o.getTxKey ? txKey(b.tx.txid) : '',
    tx_metadata: o.getTxMetadata ? metadataOf(b) : '',
    unsigned_txset: '',
    weight: b.tx.weight,
  };
}

export function splitResponse(
  built: Built[],
  o: { getTxKeys: boolean; getTxHex: boolean; getTxMetadata: boolean },
): Record<string, unknown> {
  return {
    amount_list: built.map((b) => b.amount),
    amounts_by_dest_list: built.map((b) => ({ amounts: b.destAmounts })),
    fee_list: built.map((b) => b.fee),
    multisig_txset: '',
    spent_key_images_list: built.map((b) => ({ key_images: sortedKeyImages(b) })),
    tx_blob_list: o.getTxHex ? built.map(txHex) : [],
    tx_hash_list: built.map((b) => b.tx.txid),
    tx_key_list: o.getTxKeys ? built.map((b) => txKey(b.tx.txid)) : [],
    tx_metadata_list: o.getTxMetadata ? built.map(metadataOf) : [],
    unsigned_txset: '',
    weight_list: built.map((b) => b.tx.weight),
  };
}

/** A refresh, its events logged; not saved, as the real wallet RPC's (`relay`). */
export async function doRefresh(
  ctx: WalletRpcContext,
  w: Wallet,
): Promise<{ blocksFetched: number; receivedMoney: boolean }> {
  const r = await refresh(w, ctx.daemon, ctx.scan);
  for (const e of r.events) ctx.log.log('W', e);
  return r;
}
