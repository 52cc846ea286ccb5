// What a running testnet does to its chain besides reading it: mine (by request and by automine), pay
// from main (the faucet), and stop every program for checkpoints, reverts and saves. Each of them
// holds the chain lock (chain-lock.ts): one miner and one spender of main at a time, in this process
// and across the processes of a vitest run. The operations themselves (on one node or several) are
// testnet-object.ts's; this file puts them under the lock and runs automine and the faucet over them.
import { Automine } from '../mining/automine.js';
import { chainLock } from './chain-lock.js';
import { payFromMain } from '../mining/faucet.js';
import type { Parts, Run } from '../up-phases.js';
import type { Testnet } from '../types.js';

/** The chain operations before the lock. */
export type InnerOps = Pick<Testnet, 'mine' | 'sync' | 'checkpoint' | 'revert' | 'checkpoints' | 'saveSnapshot'>;

export type ChainOps = Pick<
  Testnet,
  'mine' | 'sync' | 'automine' | 'setAutomine' | 'fund' | 'checkpoint' | 'revert' | 'checkpoints' | 'saveSnapshot'
> & { stopAutomine(): Promise<void> };

/** The Testnet's chain operations, each under the chain lock; automine runs from here on (on n0). */
export function chainOps(run: Run, p: Parts, inner: InnerOps): ChainOps {
  const lock = chainLock(run.workdir);
  const daemon = p.daemon.client;
  const automine = new Automine(
    {
      poolHashes: () => daemon.poolHashes(),
      mineBlock: (signal, due) =>
        lock.run(async () => (due() ? await inner.mine({ blocks: 1 }, { signal }) : undefined)),
      log: run.log,
      detail: run.detail,
    },
    { mineOnTx: run.opts.mineOnTx ?? false, blockTime: run.opts.blockTime ?? 0 },
  );
  automine.start();
  const faucet = {
    spec: run.backend.spec,
    daemon,
    main: p.main.client,
    mineTo: (h: number, signal?: AbortSignal) => inner.mine({ to: h }, signal ? { signal } : {}),
    log: run.log,
  };
  return {
    mine: (what, o) => lock.run(() => inner.mine(what, o)),
    sync: (o) => inner.sync(o),
    automine: () => automine.get(),
    setAutomine: (change) => automine.set(change),
    stopAutomine: () => automine.stop(),
    fund: (req, o) => lock.run(() => payFromMain(faucet, req, o)),
    checkpoint: (name) => lock.run(() => inner.checkpoint(name)),
    revert: (name) => lock.run(() => inner.revert(name)),
    checkpoints: () => inner.checkpoints(),
    saveSnapshot: (key) => lock.run(() => inner.saveSnapshot(key)),
  };
}
