// A load's transactions, sent on a schedule: the i-th at i / tps seconds, by wallet i mod N to the next wallet (each
// wallet takes the mix's kinds in turn: stats.ts kindAt), each wallet sending one at a time (a wallet RPC builds one
// transaction at a time anyway). A wallet that falls behind sends late; what it has not sent by the end of the
// duration (and a second's grace) is not sent at all and counted `behind`: the achieved rate says the generator could
// not keep up.
import { setTimeout as sleep } from 'node:timers/promises';
import { RpcError } from '../rpc/errors.js';
import type { Testnet } from '../testnet/types.js';
import type { Sent } from './watch.js';
import { sendPayment } from './payments.js';
import type { LoadWallet } from './wallets.js';
import { kindAt } from './stats.js';
import { LOAD_ASSET } from './token.js';
import type { MixKind, Rejection } from './types.js';

/** The amount of each transaction, in atomic units: small, so that each spends one output. */
export const LOAD_AMOUNT = 10_000n;
/** How late past the duration a queued transaction is still sent. */
const GRACE_MS = 1000;

export interface Sending {
  scheduled: number;
  sent: number;
  behind: number;
  /** Milliseconds since the start of the last wallet's answer. */
  lastAt: number;
}

export interface Schedule {
  tps: number;
  duration: number;
  mix: readonly MixKind[];
  signal?: AbortSignal;
  /** The chain's height the watch knows now (each sent transaction notes it). */
  height(): number;
  onSent(s: Sent): void;
  onRejected(r: Rejection): void;
}

/** Send the load's transactions, from `t0` (Date.now()) on. */
export async function sendAll(t: Testnet, wallets: LoadWallet[], s: Schedule, t0: number): Promise<Sending> {
  const scheduled = Math.max(1, Math.round(s.tps * s.duration));
  const deadline = t0 + s.duration * 1000 + GRACE_MS;
  const queues: Promise<void>[] = wallets.map(() => Promise.resolve());
  const r: Sending = { scheduled, sent: 0, behind: 0, lastAt: 0 };
  const one = async (i: number): Promise<void> => {
    const from = wallets[i % wallets.length]!;
    const to = wallets[(i + 1) % wallets.length]!;
    const kind = kindAt(s.mix, i, wallets.length);
    if (Date.now() > deadline || s.signal?.aborted) {
      r.behind++;
      return;
    }
    try {
      const txHash = await SEND[kind](t, from, to);
      r.sent++;
      s.onSent({ txHash, wallet: from.name, kind, at: Date.now() - t0, height: s.height() });
    } catch (err) {
      s.onRejected({ at: (Date.now() - t0) / 1000, wallet: from.name, kind, reason: reasonOf(err) });
    }
    r.lastAt = Math.max(r.lastAt, Date.now() - t0);
  };
  for (let i = 0; i < scheduled; i++) {
    const wait = t0 + (i * 1000) / s.tps - Date.now();
    if (wait > 0) await sleep(wait, undefined, s.signal ? { signal: s.signal } : {}).catch(() => undefined);
    if (s.signal?.aborted) break;
    const w = i % wallets.length;
    queues[w] = queues[w]!.then(() => one(i));
  }
  await Promise.all(queues);
  return r;
}

/** One transaction of each kind of the mix, sent by `from` to `to`: its hash, once the wallet has sent it. */
const SEND: Record<MixKind, (t: Testnet, from: LoadWallet, to: LoadWallet) => Promise<string>> = {
  transfers: (t, from, to) => transfer(t, from, to.address, t.backend.spec.fundAsset),
  subaddresses: (t, from, to) => transfer(t, from, to.subaddress!, t.backend.spec.fundAsset),
  tokens: (t, from, to) => transfer(t, from, to.address, LOAD_ASSET),
  // sweep_all of one deposit subaddress alone, to the next wallet's deposit of the same turn: what it received there
  // is swept on a whole round of deposits later, when it is long spendable.
  sweeps: async (t, from, to) => {
    const d = from.deposits!;
    const k = d.next;
    d.next = (k + 1) % d.indices.length;
    const asset = t.backend.spec.fundAsset;
    const res = await from.client.call<{ tx_hash_list: string[] }>('sweep_all', {
      address: to.deposits!.addresses[k]!,
      account_index: 0,
      subaddr_indices: [d.indices[k]!],
      ...(asset ? { asset_type: asset } : {}),
    });
    return res.tx_hash_list[0]!;
  },
};

/**
 * A transfer of LOAD_AMOUNT to `address`, in `asset` (undefined: the backend's only coin), from the wallet's main
 * address alone: its deposits are for its sweeps.
 */
const transfer = (t: Testnet, from: LoadWallet, address: string, asset: string | undefined): Promise<string> =>
  sendPayment(t, from.client, [{ address, amount: LOAD_AMOUNT, ...(asset ? { asset_type: asset } : {}) }], asset, {
    subaddr_indices: [0],
  });

/** What a rejection says: the wallet's answer (its code and message), or what went wrong. */
function reasonOf(err: unknown): string {
  if (err instanceof RpcError) return `${err.code} ${err.rpcMessage}`;
  return err instanceof Error ? err.message : String(err);
}
