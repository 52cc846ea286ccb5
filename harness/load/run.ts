// A load: sustained traffic from wallets funded ahead against a running testnet, confirmed by its mining, and the
// report of what it achieved (types.ts). Its wallets are funded and opened first (wallets.ts), then it sends on its
// schedule (traffic.ts) while it watches the chain (watch.ts), then it waits for the last transactions to be mined:
// until none is pending, at most DRAIN_BLOCKS blocks (or, under an automine interval, that many of its intervals).
import { setTimeout as sleep } from 'node:timers/promises';
import { counted } from '../common/describe.js';
import { checkFields } from '../common/fields.js';
import { describeAutomine } from '../testnet/mining/automine.js';
import type { Testnet } from '../testnet/types.js';
import { outputsNeeded, percentiles, secondsOf, shareOf } from './stats.js';
import { prepareLoadToken } from './token.js';
import { sendAll, type Sending } from './traffic.js';
import { LOAD_OPTIONS, type LoadOptions, type LoadReport, type MixKind, type Rejection } from './types.js';
import { ChainWatch, miner, WATCH_POLL_MS } from './watch.js';
import { closeWallets, prepareWallets, tokenOutputValue, type FundingPlan } from './wallets.js';

/** Blocks the load waits for its last transactions after it stops sending. */
export const DRAIN_BLOCKS = 10;
const DEFAULT_WALLETS = 4;
const DEFAULT_BLOCK_TIME = 1;

/** A load asked for with a value it cannot take: names the option, what it takes and what it got. */
export class LoadOptionsError extends Error {}

/** The options checked against LOAD_OPTIONS (the control endpoint's body), defaults filled in. */
export function checkLoadOptions(o: LoadOptions): Required<Omit<LoadOptions, 'signal' | 'detail'>> {
  const { signal: _signal, detail: _detail, ...asked } = o;
  const r = checkFields(LOAD_OPTIONS, asked, { whole: 'its options', taker: 'a load' });
  if ('problem' in r) throw new LoadOptionsError(`load: ${r.problem}`);
  const v = r.data;
  return {
    tps: v.tps,
    duration: v.duration,
    wallets: v.wallets ?? DEFAULT_WALLETS,
    mix: [...new Set(v.mix ?? ['transfers'])] as MixKind[],
    blockTime: v.blockTime ?? DEFAULT_BLOCK_TIME,
  };
}

/** Run a load against `t` and report it (types.ts: LoadReport). */
export async function runLoad(t: Testnet, options: LoadOptions): Promise<LoadReport> {
  const o = checkLoadOptions(options);
  const mode = t.automine();
  const automine = mode.mineOnTx || mode.blockTime > 0;
  const blockSeconds = automine ? (mode.mineOnTx ? 1 : mode.blockTime) : o.blockTime;
  const plan = fundingPlan(o, t.backend.spec.spendableAge ?? 10, blockSeconds);
  options.detail?.(`saltnet: load: funding ${counted(o.wallets, 'wallet')} ahead`);
  if (plan.tokenOutputs > 0)
    plan.token = await prepareLoadToken(t, tokenOutputValue(t) * BigInt(plan.tokenOutputs * o.wallets), options.detail);
  const prepared = await prepareWallets(t, {
    count: o.wallets,
    plan,
    subaddresses: o.mix.includes('subaddresses'),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.detail ? { detail: options.detail } : {}),
  });
  const rejections: Rejection[] = [];
  const t0 = Date.now();
  const watch = new ChainWatch(t, t0);
  let mining: ReturnType<typeof miner> | undefined;
  try {
    await watch.begin();
    const start = watch.height;
    mining = automine ? undefined : miner(t, o.blockTime);
    options.detail?.(`saltnet: load: sending ${o.tps} tx/s for ${o.duration} s from height ${start}`);
    const sending = await sendAll(
      t,
      prepared.wallets,
      {
        ...o,
        ...(options.signal ? { signal: options.signal } : {}),
        height: () => watch.height,
        onSent: (s) => watch.track(s),
        onRejected: (r) => rejections.push(r),
      },
      t0,
    );
    options.signal?.throwIfAborted();
    await drain(watch, automine ? blockSeconds : o.blockTime, options.signal);
    await mining?.stop();
    mining = undefined;
    await watch.end();
    const report = reportOf(o, { sending, watch, rejections, start, automine, mode: describeAutomine(mode) });
    const unconfirmed = await whereAre(t, watch);
    return {
      ...report,
      setup: {
        seconds: secondsOf(prepared.seconds * 1000),
        blocks: prepared.blocks,
        outputsPerWallet: plan.outputs,
        ...(plan.token ? { tokenOutputsPerWallet: plan.tokenOutputs, token: plan.token } : {}),
        ...(plan.deposits > 0 ? { depositsPerWallet: plan.deposits } : {}),
      },
      unconfirmed,
    };
  } finally {
    await mining?.stop().catch(() => undefined);
    await watch.end().catch(() => undefined);
    await closeWallets(t, prepared.wallets);
  }
}

/**
 * What each wallet is paid ahead for the mix (stats.ts: outputsNeeded at the rate of the kinds that spend them):
 * outputs of the coin for transfers, and for tokens' ROLLUPs, which pay their fees in it; outputs of the token for
 * tokens; a deposit subaddress per sweep of a window (a sweep spends its one output and leaves no change).
 */
export function fundingPlan(
  o: Pick<ReturnType<typeof checkLoadOptions>, 'tps' | 'duration' | 'wallets' | 'mix'>,
  spendableAge: number,
  blockSeconds: number,
): FundingPlan {
  const need = (kinds: MixKind[], inputs?: number): number =>
    outputsNeeded({
      ...o,
      tps: o.tps * shareOf(o.mix, kinds),
      spendableAge,
      blockSeconds,
      ...(inputs ? { inputs } : {}),
    });
  return {
    outputs: need(['transfers', 'subaddresses', 'tokens']),
    tokenOutputs: need(['tokens']),
    deposits: need(['sweeps'], 1),
  };
}

/** Wait until no sent transaction is pending, at most DRAIN_BLOCKS blocks of `blockSeconds` (and a few seconds). */
async function drain(watch: ChainWatch, blockSeconds: number, signal?: AbortSignal): Promise<void> {
  const from = watch.height;
  const until = Date.now() + (DRAIN_BLOCKS * blockSeconds + 5) * 1000;
  while (watch.pending.size > 0 && watch.height - from < DRAIN_BLOCKS && Date.now() < until) {
    signal?.throwIfAborted();
    await sleep(WATCH_POLL_MS);
  }
}

/** Where each transaction left pending is: still in the pool, or gone from it (dropped). */
async function whereAre(t: Testnet, watch: ChainWatch): Promise<LoadReport['unconfirmed']> {
  if (watch.pending.size === 0) return [];
  const pool = new Set(await t.daemon.client.poolHashes());
  return [...watch.pending.values()].map((s) => ({
    txHash: s.txHash,
    wallet: s.wallet,
    state: pool.has(s.txHash) ? ('in the pool' as const) : ('not in the pool' as const),
  }));
}

function reportOf(
  o: ReturnType<typeof checkLoadOptions>,
  r: {
    sending: Sending;
    watch: ChainWatch;
    rejections: Rejection[];
    start: number;
    automine: boolean;
    mode: string;
  },
): Omit<LoadReport, 'setup' | 'unconfirmed'> {
  const { sending, watch, rejections } = r;
  const sendingSeconds = Math.max(o.duration, sending.lastAt / 1000);
  const byKind: LoadReport['byKind'] = {};
  for (const kind of o.mix) {
    const sent = watch.confirmed.filter((c) => c.kind === kind).length + countPending(watch, kind);
    const confirmed = watch.confirmed.filter((c) => c.kind === kind).length;
    byKind[kind] = { sent, confirmed, rejected: rejections.filter((x) => x.kind === kind).length };
  }
  return {
    tps: { asked: o.tps, achieved: Math.round((sending.sent / sendingSeconds) * 100) / 100 },
    seconds: { asked: o.duration, sending: secondsOf(sendingSeconds * 1000) },
    wallets: o.wallets,
    mix: [...o.mix],
    mining: r.automine ? { by: 'automine', mode: r.mode } : { by: 'load', blockTime: o.blockTime },
    counts: {
      scheduled: sending.scheduled,
      sent: sending.sent,
      confirmed: watch.confirmed.length,
      rejected: rejections.length,
      behind: sending.behind,
    },
    byKind,
    latency: {
      blocks: percentiles(watch.confirmed.map((c) => c.blocks)),
      seconds: percentiles(watch.confirmed.map((c) => c.seconds)),
    },
    pool: { max: watch.poolMax, end: watch.poolNow, samples: watch.samples },
    heights: { start: r.start, end: watch.height },
    rejections,
  };
}

const countPending = (watch: ChainWatch, kind: MixKind): number =>
  [...watch.pending.values()].filter((s) => s.kind === kind).length;
