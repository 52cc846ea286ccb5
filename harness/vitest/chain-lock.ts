// Whatever spends from the shared main wallet or mines on the shared daemon holds the chain lock.
// Every vitest worker talks to the same testnet: two fundings at once would have the main wallet
// build two transactions over the same chain state, and two miners stop each other's mining
// (mineTo answers "Already mining" by stopping it). The testnet's own mining in vitest's main
// process (automine, the faucet) takes the same lock (harness/testnet/chain/chain-lock.ts).
import { chainLock, chainLockPath, type ChainLock } from '../testnet/chain/chain-lock.js';
import type { SaltnetContext } from './context.js';

/** The lock file's target (the lock itself is this path + `.lock`). */
export function contextChainLockPath(ctx: Pick<SaltnetContext, 'workdir'>): string {
  return chainLockPath(ctx.workdir);
}

/** One queue per testnet folder in this worker. */
const locks = new Map<string, ChainLock>();

/**
 * Run `fn` holding the chain lock of the testnet: one at a time in this worker, and one at a time
 * across workers and the testnet's own process. Not reentrant: `fn` must not call freshWallet's funding, mine() or
 * fund() (they take it).
 */
export function withChainLock<T>(ctx: Pick<SaltnetContext, 'workdir'>, fn: () => Promise<T>): Promise<T> {
  let lock = locks.get(ctx.workdir);
  if (!lock) locks.set(ctx.workdir, (lock = chainLock(ctx.workdir)));
  return lock.run(fn);
}
