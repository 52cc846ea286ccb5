// A load's transactions, sent on a schedule: the i-th at i / tps seconds, by wallet i mod N to the next wallet (the
// mix's kind i mod its length), each wallet sending one at a time (a wallet RPC builds one transaction at a time
// anyway). A wallet that falls behind sends late; what it has not sent by the end of the duration (and a second's
// grace) is not sent at all and counted `behind`: the achieved rate says the generator could not keep up.
import { setTimeout as sleep } from 'node:timers/promises';
import { assetTransfer } from '../coin/transactions.js';
import { RpcError } from '../rpc/errors.js';
import type { Testnet } from '../testnet/types.js';
import type { Sent } from './watch.js';
import type { LoadWallet } from './wallets.js';
import { kindAt } from './stats.js';
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
    const kind = kindAt(s.mix, i);
    if (Date.now() > deadline || s.signal?.aborted) {
      r.behind++;
      return;
    }
    try {
      const txHash = await sendOne(t, from, to, kind);
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

/** One transaction of a kind: its hash, once the wallet has sent it to the daemon. */
async function sendOne(t: Testnet, from: LoadWallet, to: LoadWallet, kind: MixKind): Promise<string> {
  const address = kind === 'subaddresses' ? to.subaddress! : to.address;
  const asset = t.backend.spec.fundAsset;
  const destinations = [{ address, amount: LOAD_AMOUNT, ...(asset ? { asset_type: asset } : {}) }];
  const res = await from.client.call<{ tx_hash: string }>(
    'transfer',
    asset ? assetTransfer(destinations, asset) : { destinations },
  );
  return res.tx_hash;
}

/** What a rejection says: the wallet's answer (its code and message), or what went wrong. */
function reasonOf(err: unknown): string {
  if (err instanceof RpcError) return `${err.code} ${err.rpcMessage}`;
  return err instanceof Error ? err.message : String(err);
}
