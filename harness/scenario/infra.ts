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
 * error>); trying once more`. Rejects with the second attempt's error when that one fails too.
 */
export function retryOnce<T>(start: () => Promise<T>, what: string, log: (line: string) => void): Promise<T> {
  return pRetry(() => start(), {
    retries: 1,
    minTimeout: 500,
    onFailedAttempt: ({ error, retriesLeft }) => {
      if (retriesLeft > 0) log(`saltnet: ${what} failed (${error.message.split('\n', 1)[0]}); trying once more`);
    },
  });
}

export interface DeathWatch {
  /**
   * Why the testnet is broken: each process that exited without being asked to since the watch
   * began and has not been started again; undefined when every one is running. Waits a moment
   * first, so that an exit which made a request fail has been noticed.
   */
  broken(): Promise<string | undefined>;
  /** Stop watching. */
  off(): void;
}

function describeExit(e: ExitInfo): string {
  return e.signal ? `killed by ${e.signal}` : `exit code ${e.code}`;
}

/** Watch the testnet's processes for exits nobody asked for (a restart step's stop is asked for). */
export function watchDeaths(t: Testnet): DeathWatch {
  const died = new Map<string, ExitInfo>();
  const off = t.supervisor.onUnexpectedExit((p, exit) => void died.set(p.name, exit));
  return {
    async broken() {
      // A refused connection can arrive before the exit event; the exit is recorded once its output is drained.
      await sleep(100);
      await Promise.all(t.supervisor.processes().filter((p) => !p.running).map((p) => p.exited));
      const running = new Set(t.supervisor.processes().filter((p) => p.running).map((p) => p.name));
      const dead = [...died].filter(([name]) => !running.has(name));
      if (dead.length === 0) return undefined;
      return dead.map(([name, e]) => `the testnet's ${name} died (${describeExit(e)}) and was not started again`).join('; ');
    },
    off,
  };
}
