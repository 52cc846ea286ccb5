// Whatever spends from the shared main wallet or mines on the shared daemon holds the chain lock.
// Every vitest worker talks to the same testnet: two fundings at once would have the main wallet
// build two transactions over the same chain state, and two miners stop each other's mining
// (mineTo answers "Already mining" by stopping it). Within a worker a promise chain queues the
// callers (a file lock is per process: taking it twice in one process would only poll); across
// workers a file lock in the testnet's folder does, taken over if its holder died.
import { join } from 'node:path';
import { acquireFileLock } from '../snapshot/lock.js';
import type { SaltnetContext } from './context.js';

let queue: Promise<unknown> = Promise.resolve();

/** The lock file's target (the lock itself is this path + `.lock`). */
export function chainLockPath(ctx: Pick<SaltnetContext, 'workdir'>): string {
  return join(ctx.workdir, '.vitest-chain');
}

/**
 * Run `fn` holding the chain lock of the testnet: one at a time in this worker, and one at a time
 * across workers. Not reentrant: `fn` must not call freshWallet's funding or mine() (they take it).
 */
export function withChainLock<T>(ctx: Pick<SaltnetContext, 'workdir'>, fn: () => Promise<T>): Promise<T> {
  const run = queue.then(async () => {
    const release = await acquireFileLock(chainLockPath(ctx));
    try {
      return await fn();
    } finally {
      await release();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
