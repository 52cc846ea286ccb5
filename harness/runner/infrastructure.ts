// The runner's view of its infrastructure: starting a testnet is tried a second time before the
// scenarios that need it give up, and a process of the testnet that died is told apart from a
// scenario that failed on its own.
import { setTimeout as sleep } from 'node:timers/promises';
import pRetry from 'p-retry';
import type { ExitInfo } from '../process/managed.js';
import type { Testnet } from '../testnet/testnet.js';

/** `err`'s message (or its string form). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * `start()`, and once more if it rejects, after logging `saltnet: <what> failed (<first line of the
 * error>); trying once more`. Rejects with the second attempt's error when that one fails too, and
 * does not try again once `signal` has aborted.
 */
export function retryOnce<T>(
  start: () => Promise<T>,
  what: string,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<T> {
  return pRetry(() => start(), {
    retries: 1,
    minTimeout: 500,
    // Not once more after Ctrl-C: the first attempt failed because the run is being stopped.
    ...(signal ? { signal } : {}),
    onFailedAttempt: ({ error, retriesLeft }) => {
      if (retriesLeft > 0) log(`saltnet: ${what} failed (${error.message.split('\n', 1)[0]}); trying once more`);
    },
  });
}

export interface DeathWatch {
  /**
   * Why the testnet is broken: each process that exited without being asked to since the watch
   * began and has not been started again, and each program that stopped answering since the
   * current step began; undefined when every one is running and answering. Waits a moment
   * first, so that an exit which made a request fail has been noticed.
   */
  broken(): Promise<string | undefined>;
  /**
   * A signal for the step about to run: aborted (its reason says which program and why) as soon as a program of the
   * testnet stops answering, at once when one does not answer now. A step against it would only wait.
   */
  stepSignal(): AbortSignal;
  /** Stop watching. */
  off(): void;
}

/** An unresponsive program, in the words of a step's failure. */
const silentWords = (what: string): string => `the testnet's ${what}, so the step cannot go on`;

function describeExit(e: ExitInfo): string {
  return e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`;
}

/**
 * Watch the testnet's processes for exits nobody asked for (a restart step's stop is asked for), and its programs for
 * silence (liveness: the `unresponsive` events).
 */
export function watchDeaths(t: Testnet): DeathWatch {
  const died = new Map<string, ExitInfo>();
  const offExit = t.supervisor.onUnexpectedExit((p, exit) => void died.set(p.name, exit));
  let step = new AbortController();
  const silent: string[] = [];
  const offEvent = t.onEvent((e) => {
    if (e.event !== 'unresponsive') return;
    const what = `${e.program} (pid ${e.pid}) is not answering: ${e.reason}`;
    silent.push(what);
    step.abort(new Error(silentWords(what)));
  });
  return {
    stepSignal() {
      step = new AbortController();
      silent.splice(0);
      const now = t.unresponsive();
      if (now.length) {
        silent.push(...now);
        step.abort(new Error(silentWords(silent.join('; '))));
      }
      return step.signal;
    },
    off() {
      offExit();
      offEvent();
    },
    async broken() {
      // A refused connection can arrive before the exit event; the exit is recorded once its output is drained.
      await sleep(100);
      await Promise.all(
        t.supervisor
          .processes()
          .filter((p) => !p.running)
          .map((p) => p.exited),
      );
      const running = new Set(
        t.supervisor
          .processes()
          .filter((p) => p.running)
          .map((p) => p.name),
      );
      const dead = [...died].filter(([name]) => !running.has(name));
      const problems = [
        ...dead.map(([name, e]) => `the testnet's ${name} died (${describeExit(e)}) and was not started again`),
        ...silent.map((what) => `the testnet's ${what}`),
      ];
      return problems.length ? problems.join('; ') : undefined;
    },
  };
}

/** Thrown by untilAborted when the run was interrupted first. */
export class RunInterrupted extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunInterrupted';
  }
}

/** Why the run was stopped: the reason's message (`interrupted by SIGINT`), else `interrupted`. */
export function interruptionMessage(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error && r.message ? r.message : typeof r === 'string' && r ? r : 'interrupted';
}

/**
 * `work`'s outcome, or a RunInterrupted as soon as `signal` aborts (at once when it already has).
 * What the work still does afterwards is not waited for: `abandoned` gets its value (to release
 * what it made), and a rejection of it is ignored.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  abandoned?: (value: T) => void,
): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      if (settled) return;
      settled = true;
      reject(new RunInterrupted(interruptionMessage(signal)));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) return abandoned?.(v);
        settled = true;
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) return;
        settled = true;
        reject(err);
      },
    );
  });
}
