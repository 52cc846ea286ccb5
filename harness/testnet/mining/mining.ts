// Mining to a target height through /start_mining and /stop_mining: the CN address below the
// Carrot height and the Carrot address from it, a restart when the miner stops itself (it does at
// 1100 with a CN address), retries of transient refusals (`Failed, mining not started` right after
// that stop; `BUSY` — the daemon is not synchronized with its peers yet — for at most BUSY_MS), and a
// stop at the target with at most a block or two of overshoot.
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { DaemonClient } from '../../rpc/daemon.js';
import type { WalletClient } from '../../rpc/wallet.js';
import { MiningError, miningAddress, settleRelay, type MineOptions } from './job.js';
import { mineWithTemplates } from './template-mining.js';

export { addressAt, MiningError, miningAddress, settleRelay } from './job.js';
export type { MineOptions, MiningAddresses } from './job.js';

/** The longest wait between two height polls while mining (see pollDelay). */
export const MAX_POLL_MS = 100;

/**
 * How long to wait before the next height poll, `sinceBlockMs` after the last block: `base` at first, then a tenth of
 * the time since, up to MAX_POLL_MS. At difficulty 500 on real Salvium a block takes a second or two, and polling the
 * daemon every 5 ms throughout took ~18% of the miner's hash rate on two cores (docs/difficulty.md); a tenth keeps the
 * stop at the target as prompt, in proportion, as at difficulty 1.
 */
export function pollDelay(base: number, sinceBlockMs: number): number {
  return Math.max(base, Math.min(sinceBlockMs / 10, MAX_POLL_MS));
}

/** Answers of /start_mining worth retrying a moment later. */
const TRANSIENT = new Set(['Failed, mining not started', 'BUSY']);

/**
 * How long a daemon may answer BUSY (not synchronized) before mining fails: a node that just started or reconnected
 * synchronizes with a peer within seconds; one without a peer never does.
 */
export const BUSY_MS = 60_000;

/** Watches /start_mining's answers: a MiningError once it has answered BUSY for longer than `busyMs` in a row. */
function busyWatch(busyMs: number): (status: string, height: number) => void {
  let since: number | undefined;
  const took = busyMs < 1000 ? `${busyMs} ms` : `${Math.round(busyMs / 1000)} s`;
  return (status, height) => {
    if (status !== 'BUSY') return void (since = undefined);
    since ??= Date.now();
    if (Date.now() - since > busyMs)
      throw new MiningError(
        `/start_mining answered BUSY for ${took} at height ${height}: the daemon is not synchronized with a peer (it mines only once it is); see its log`,
      );
  };
}

/** Wait `ms`, or less when `signal` is aborted (the caller then throws its reason). */
const pause = (ms: number, signal: AbortSignal | undefined): Promise<unknown> =>
  sleep(ms, undefined, signal ? { signal } : {}).catch(() => undefined);

export async function mineTo(
  daemon: DaemonClient,
  target: number,
  o: MineOptions,
): Promise<{ height: number; restarts: number; ms: number }> {
  if (o.hasher) return mineWithTemplates(daemon, target, o.hasher, o);
  const t0 = Date.now();
  const deadline = t0 + o.timeoutMs;
  const poll = o.pollMs ?? o.spec.heightPollMs ?? 5;
  let restarts = 0;
  let running = false;
  const busy = busyWatch(o.busyMs ?? BUSY_MS);
  let h = await daemon.height();
  const start = h;
  if (h < target && o.spec.relaySettleMs > 0) await settleRelay(daemon, o.spec.relaySettleMs);
  let lastChange = Date.now();
  let lastBlock = lastChange;
  try {
    while (h < target) {
      o.signal?.throwIfAborted();
      if (Date.now() > deadline)
        throw new MiningError(
          `mining to height ${target} timed out at height ${h} after ${Math.round((Date.now() - t0) / 1000)}s`,
        );
      if (!running) {
        const address = miningAddress(o.spec, o.addresses, h);
        const status = await daemon.startMining(address, o.threads ?? 1);
        if (status === 'Already mining') {
          await daemon.stopMining();
          continue;
        }
        busy(status, h);
        if (TRANSIENT.has(status)) {
          await pause(200, o.signal);
          continue;
        }
        if (status !== 'OK')
          throw new MiningError(`/start_mining at height ${h} answered "${status}" (address ${address})`);
        running = true;
      }
      // Below a millisecond a timer would wait a millisecond: the next poll goes on the next turn of the event loop.
      const wait = pollDelay(poll, Date.now() - lastBlock);
      await (wait >= 1 ? sleep(wait) : nextTurn());
      const next = await daemon.height();
      if (next !== h) lastChange = lastBlock = Date.now();
      h = next;
      o.progress?.update(h);
      if (h >= target) break;
      // The miner may have stopped itself (it does at the Carrot height with a CN address): check
      // at that height, and whenever the height stalls, and start it again.
      const atSwitch =
        o.spec.carrotHeight !== undefined && h >= o.spec.carrotHeight - 1 && h <= o.spec.carrotHeight + 1;
      if (atSwitch || Date.now() - lastChange > 2000) {
        const st = await daemon.miningStatus();
        if (!st.active) {
          running = false;
          restarts++;
          // The height read above may be a block behind: the miner can find one more before it stops itself at the
          // Carrot height, and the address must be chosen for the chain as it is now (seen on real v1.1.3c: a CN
          // address refused at a height read as 1099).
          h = await daemon.height();
          if (h >= target) break;
        }
        lastChange = Date.now();
      }
    }
  } finally {
    if (running) await daemon.stopMining().catch(() => undefined);
  }
  // Only the blocks this call mined past the target: a chain that was already there is left as it is (its blocks
  // above the target are not an overshoot, and may be a wallet's funding or a scenario's own).
  if (start < target) h = await trimOvershoot(daemon, target, await daemon.height(), o.warn);
  o.progress?.done(h);
  return { height: h, restarts, ms: Date.now() - t0 };
}

/**
 * The miner cannot be stopped between two blocks, so it often finds one or two more than asked
 * for (real Salvium at difficulty 1 and the simulator alike). Pop those extra blocks so that mining to a height
 * ends exactly there, as long as they hold nothing but their coinbase: a block with a transaction
 * (one that reached the pool while mining) is kept, and the chain ends there. A daemon that does
 * not pop (restricted RPC) keeps its overshoot.
 */
async function trimOvershoot(
  daemon: DaemonClient,
  target: number,
  h: number,
  warn?: (line: string) => void,
): Promise<number> {
  if (h <= target) return h;
  try {
    let keep = target;
    for (let index = h - 1; index >= target; index--) {
      if ((await daemon.txCount(index)) > 0) {
        keep = index + 1;
        break;
      }
    }
    return keep < h ? await daemon.popBlocks(h - keep) : h;
  } catch (err) {
    const now = await daemon.height();
    if (now > target)
      warn?.(
        `saltnet: mining to ${target} ends at ${now}: the ${now - target} block(s) the miner found past the target could not be popped (${(err as Error).message})`,
      );
    return now;
  }
}

export interface MineToFundOptions extends MineOptions {
  asset?: string;
  amount: bigint;
  /** Give up after mining this many extra blocks (default 400). */
  maxExtraBlocks?: number;
}

/**
 * Wait until the wallet has refreshed and holds `amount` unlocked, mining more blocks while
 * coinbase outputs are still locked (60 blocks).
 */
export async function fundWallet(
  daemon: DaemonClient,
  wallet: WalletClient,
  o: MineToFundOptions,
): Promise<{ unlocked: bigint; height: number }> {
  const start = await daemon.height();
  for (;;) {
    o.signal?.throwIfAborted();
    await wallet.refresh();
    const b = await wallet.balance(o.asset ?? o.spec.fundAsset);
    const h = await daemon.height();
    if (b.unlocked >= o.amount) return { unlocked: b.unlocked, height: h };
    if (h - start > (o.maxExtraBlocks ?? 400)) {
      throw new MiningError(
        `the wallet holds ${b.unlocked} unlocked (${b.balance} in all) after ${h - start} extra blocks; it needs ${o.amount}`,
      );
    }
    await mineTo(daemon, h + Math.min(Math.max(b.blocksToUnlock, 1), 60), { ...o, progress: undefined });
  }
}
