// Liveness, not only exit: a program of the testnet that stops answering — frozen (SIGSTOP, a
// debugger) or with its RPC deadlocked — is noticed within a bounded time, told as an
// `unresponsive` event (and `responsive` when it answers again), and, after a while more, killed
// and started again as after a crash (unless a debugger holds it).
//
// Every second the watch reads the process's state from /proc and asks its RPC something cheap on
// a connection of its own (any HTTP answer counts, a 401 included). Deadlines are scaled by
// --timeout-factor:
//
// - stopped (state T or t) for 3 s: unresponsive;
// - no answer for 20 s while it used (almost) no CPU: unresponsive (deadlocked, or waiting on
//   something that does not answer);
// - no answer for 120 s whatever its CPU (a real wallet RPC serves one request at a time, so a
//   long scan keeps it silent but busy: that is not unresponsive until then);
// - unresponsive for 60 s: SIGKILL, and the crash path starts it again on the same data (counted
//   against its restarts). Not while a debugger is attached: then it is only reported.
import { request } from 'undici';
import { hasProcfs, readStat, tracerPid } from '../../process/procfs.js';
import type { ManagedProcess } from '../../process/managed.js';
import { scaled } from '../../common/timeouts.js';

/** How often the watch looks (not scaled: a poll interval). */
export const LIVENESS_POLL_MS = 1000;
/** Stopped this long: unresponsive (scaled). */
export const FROZEN_MS = 3000;
/** No RPC answer this long with no CPU used: unresponsive (scaled). */
export const SILENT_IDLE_MS = 20_000;
/** No RPC answer this long, busy or not: unresponsive (scaled). */
export const SILENT_MS = 120_000;
/** Unresponsive this long: killed and started again, as after a crash (scaled). */
export const UNRESPONSIVE_RESTART_MS = 60_000;
/** Each probe's own deadline (scaled). */
const PROBE_TIMEOUT_MS = 5000;
/** Less CPU than this share of one core over the silent window counts as idle. */
const IDLE_CPU_SHARE = 0.02;
const TICKS_PER_S = 100;

/** A cheap request its RPC answers (any HTTP status counts as an answer). */
export interface LivenessProbe {
  url: string;
  body: string;
}

export interface Unresponsive {
  reason: string;
  /** ISO time it was noticed. */
  since: string;
}

export interface LivenessWatchOptions {
  proc: ManagedProcess;
  probe?: LivenessProbe;
  /** It became unresponsive (with why), or answers again (undefined). */
  onChange(state: Unresponsive | undefined): void;
  /** Unresponsive for UNRESPONSIVE_RESTART_MS and no debugger attached: kill it (once per watch). */
  onRestartDue(state: Unresponsive): void;
}

export interface LivenessWatch {
  readonly unresponsive: Unresponsive | undefined;
  stop(): void;
}

/** Whether it answers at all (any status, within the deadline). */
async function answers(p: LivenessProbe): Promise<boolean> {
  const ms = scaled(PROBE_TIMEOUT_MS);
  try {
    const res = await request(p.url, {
      method: 'POST',
      body: p.body,
      headers: { 'content-type': 'application/json' },
      headersTimeout: ms,
      bodyTimeout: ms,
      signal: AbortSignal.timeout(ms),
    });
    await res.body.dump();
    return true;
  } catch {
    return false;
  }
}

/** Watch `o.proc` until stop() (call it when the program stops or exits). */
export function watchLiveness(o: LivenessWatchOptions): LivenessWatch {
  const pid = o.proc.pid;
  const t0 = Date.now();
  let lastAnswer = t0;
  let stoppedSince: number | undefined;
  let probing = false;
  let state: (Unresponsive & { at: number }) | undefined;
  let restarted = false;
  const cpu: { at: number; ticks: number }[] = [];
  const silentReason = (now: number, ticks: number): string | undefined => {
    const silent = now - lastAnswer;
    if (silent >= scaled(SILENT_MS)) return `its RPC has not answered for ${Math.round(silent / 1000)} s`;
    if (silent < scaled(SILENT_IDLE_MS)) return undefined;
    const from = cpu.find((c) => c.at >= now - scaled(SILENT_IDLE_MS)) ?? cpu[0];
    const share = from && now > from.at ? (ticks - from.ticks) / TICKS_PER_S / ((now - from.at) / 1000) : 1;
    return share < IDLE_CPU_SHARE
      ? `its RPC has not answered for ${Math.round(silent / 1000)} s and it used no CPU meanwhile (deadlocked, or waiting on something that does not answer)`
      : undefined;
  };
  const tick = (): void => {
    const st = readStat(pid);
    if (!st || st.state === 'Z' || st.state === 'X') return; // its exit is the crash path's
    const now = Date.now();
    cpu.push({ at: now, ticks: st.cpuTicks });
    while (cpu.length > 2 && cpu[1]!.at <= now - scaled(SILENT_IDLE_MS)) cpu.shift();
    const stopped = st.state === 'T' || st.state === 't';
    stoppedSince = stopped ? (stoppedSince ?? now) : undefined;
    if (o.probe && !probing && !stopped) {
      probing = true;
      const asked = Date.now();
      void answers(o.probe).then((ok) => {
        probing = false;
        if (ok) lastAnswer = Math.max(lastAnswer, asked);
      });
    }
    const traced = stopped || state ? tracerPid(pid) !== 0 : false;
    const reason =
      stoppedSince !== undefined && now - stoppedSince >= scaled(FROZEN_MS)
        ? traced
          ? 'it is stopped by a debugger (it answers nothing until the debugger lets it go)'
          : 'it is stopped (SIGSTOP: it answers nothing until it gets SIGCONT)'
        : !stopped && o.probe
          ? silentReason(now, st.cpuTicks)
          : undefined;
    if (reason && !state) {
      state = { reason, since: new Date(now).toISOString(), at: now };
      o.onChange({ reason: state.reason, since: state.since });
    } else if (!reason && state && !stopped && (!o.probe || lastAnswer > state.at)) {
      state = undefined;
      o.onChange(undefined);
    }
    if (state && !restarted && !traced && now - state.at >= scaled(UNRESPONSIVE_RESTART_MS)) {
      restarted = true;
      o.onRestartDue({ reason: state.reason, since: state.since });
    }
  };
  const timer = hasProcfs() ? setInterval(tick, LIVENESS_POLL_MS).unref() : undefined;
  return {
    get unresponsive() {
      return state ? { reason: state.reason, since: state.since } : undefined;
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
