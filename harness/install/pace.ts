// How fast a download must go, and how it says how far it is. An idle timeout alone catches a
// server that goes silent, not one that sends a byte every few seconds under a Content-Length of
// 100 MB: that would hold `install` for days. So once a grace period has passed, the average rate
// since the response began must stay above a floor, checked on a timer whether bytes arrive or not,
// and a progress line is logged every few seconds meanwhile.
import { scaled, timeoutFactor } from '../common/timeouts.js';

/**
 * How fast a download must go. Once `graceMs` have passed, the average rate since the response began must stay at or
 * above `minBytesPerSecond`, checked every second whether bytes arrive or not: a download of S bytes therefore ends
 * within max(graceMs, S / minBytesPerSecond), and a server that trickles is given up after `graceMs`. The timeout
 * factor (--timeout-factor, SALTNET_TIMEOUT_FACTOR) multiplies `graceMs` and divides the rate.
 */
export interface Pace {
  /** Default 32 KiB/s: a 100 MiB archive may take up to 53 minutes. */
  minBytesPerSecond?: number;
  /** Default 60 s. */
  graceMs?: number;
  /** How often a progress line is logged while downloading (not scaled); default 5 s. */
  progressMs?: number;
}

export const DEFAULT_PACE: Required<Pace> = { minBytesPerSecond: 32 * 1024, graceMs: 60_000, progressMs: 5_000 };

const MiB = 2 ** 20;

/** Bytes for a progress line: `12.3 MiB`, `512 KiB`, `80 bytes`. */
function size(n: number): string {
  if (n >= MiB) return `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(0)} KiB`;
  return `${Math.round(n)} bytes`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? (ms / 1000).toFixed(1) : (ms / 1000).toFixed(0);
}

export interface Transfer {
  /** For messages. */
  url: string;
  /** The announced size (Content-Length), when there is one. */
  total?: number;
  pace?: Pace;
  /** Progress lines. */
  log?: (line: string) => void;
}

/**
 * Watch a transfer that starts now: `add` counts the bytes that arrive; a progress line every `progressMs`; `onSlow`
 * gets the message once the transfer falls below the pace (after which nothing more is checked). `stop` ends it.
 */
export function watchTransfer(t: Transfer, onSlow: (message: string) => void): { add(n: number): void; stop(): void } {
  const p = { ...DEFAULT_PACE, ...t.pace };
  const minRate = p.minBytesPerSecond / timeoutFactor();
  const graceMs = scaled(p.graceMs);
  const started = Date.now();
  let got = 0;
  let lastLine = started;
  const tick = (): void => {
    const now = Date.now();
    const elapsed = now - started;
    if (elapsed >= graceMs && got < (minRate * elapsed) / 1000) {
      clearInterval(timer);
      const of = t.total !== undefined ? ` of the ${size(t.total)} announced` : '';
      const rate = size((got * 1000) / Math.max(1, elapsed));
      return onSlow(
        `could not download ${t.url}: too slow: ${size(got)}${of} in ${seconds(elapsed)} s (${rate}/s on average), ` +
          `below the least average rate of ${size(minRate)}/s a download must keep after its first ${seconds(graceMs)} s. ` +
          'On a slow link, raise --timeout-factor (or SALTNET_TIMEOUT_FACTOR): it lowers the rate and lengthens that time',
      );
    }
    if (t.log && now - lastLine >= p.progressMs) {
      lastLine = now;
      const of = t.total ? ` of ${size(t.total)} (${Math.floor((got * 100) / t.total)}%)` : '';
      t.log(`saltnet install: ${size(got)}${of} after ${seconds(elapsed)} s, ${size((got * 1000) / elapsed)}/s`);
    }
  };
  const timer = setInterval(tick, Math.max(20, Math.min(1000, graceMs / 10, p.progressMs / 2)));
  return {
    add: (n) => void (got += n),
    stop: () => clearInterval(timer),
  };
}
