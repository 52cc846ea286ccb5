// One miner at a time on a testnet's daemon, and one spender of its main wallet. Two miners stop each
// other's mining (mineTo answers "Already mining" by stopping it), and two payments from `main` at
// once may pick the same inputs. The testnet's own mining (`mine`, automine, the faucet) and its
// stops for saves and checkpoints take this lock; so do the vitest workers of a testnet started by
// the vitest global setup (harness/vitest/chain-lock.ts), which mine and fund from other processes.
// Within a process a promise chain queues the callers (a file lock is per process); across
// processes a file lock in the testnet's folder does, taken over if its holder died.
import { join } from 'node:path';
import { acquireFileLock } from '../../snapshot/lock.js';

/** The lock file's target (the lock itself is this path + `.lock`). */
export function chainLockPath(workdir: string): string {
  return join(workdir, '.chain');
}

export interface ChainLock {
  /** Run `fn` holding the lock. Not reentrant: `fn` must not take it again. */
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function chainLock(workdir: string): ChainLock {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run<T>(fn: () => Promise<T>): Promise<T> {
      const run = queue.then(async () => {
        const release = await acquireFileLock(chainLockPath(workdir));
        try {
          return await fn();
        } finally {
          await release();
        }
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
