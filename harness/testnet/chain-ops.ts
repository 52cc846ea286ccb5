// What a running testnet does to its chain: mine (by request and by automine), pay from main (the
// faucet), and stop every program for checkpoints, reverts and saves. Each of them holds the chain
// lock (chain-lock.ts): one miner and one spender of main at a time, in this process and across the
// processes of a vitest run.
import { cacheDir as resolveCacheDir } from '../common/cache-dir.js';
import { scaled } from '../common/timeouts.js';
import { describeExit } from '../process/errors.js';
import { assertKey } from '../snapshot/snapshot-dir.js';
import { Automine } from './automine.js';
import { chainLock } from './chain-lock.js';
import { checkpointState, revertState } from './checkpoint.js';
import { fund } from './faucet.js';
import type { MineForOptions } from './funding.js';
import { mineTo } from './mining.js';
import type { Parts, Run, StateOps } from './running.js';
import { mineTarget, syncWallets, type MineRequest } from './sync.js';
import type { Testnet } from './types.js';

export function mineOptions(run: Run): Omit<MineForOptions, 'miner' | 'main' | 'target' | 'need'> {
  // Mining deadlines are not scaled where they are awaited: scale them here.
  return {
    spec: run.backend.spec,
    timeoutMs: scaled(3_600_000),
    signal: run.aborter.signal,
    threads: run.mining.threads,
  };
}

type ChainOps = Pick<
  Testnet,
  'mine' | 'sync' | 'automine' | 'setAutomine' | 'fund' | 'checkpoint' | 'revert' | 'checkpoints' | 'saveSnapshot'
> & { stopAutomine(): Promise<void> };

/** The Testnet's chain operations, each under the chain lock; automine runs from here on. */
export function chainOps(run: Run, p: Parts, ops: StateOps): ChainOps {
  const { daemon, main } = p;
  const lock = chainLock(run.workdir);
  const m = mining(run, p);
  const taken = new Set<string>();
  const automine = new Automine(
    {
      poolHashes: async () =>
        (await daemon.client.post<{ tx_hashes?: string[] }>('/get_transaction_pool_hashes')).tx_hashes ?? [],
      mineBlock: (signal) => lock.run(() => m.mine({ blocks: 1 }, { signal })),
      log: run.log,
    },
    { mineOnTx: run.opts.mineOnTx ?? false, blockTime: run.opts.blockTime ?? 0 },
  );
  automine.start();
  const faucet = {
    spec: run.backend.spec,
    daemon: daemon.client,
    main: main.client,
    mineTo: (h: number) => m.mine({ to: h }),
    log: run.log,
  };
  return {
    mine: (what, o) => lock.run(() => m.mine(what, o)),
    sync: () => m.sync(),
    automine: () => automine.get(),
    setAutomine: (change) => automine.set(change),
    stopAutomine: () => automine.stop(),
    fund: (req) => lock.run(() => fund(faucet, req)),
    checkpoint: (name: string) =>
      lock.run(() =>
        ops.whileStopped(`while taking checkpoint ${name}`, async () => {
          await checkpointState(run.workdir, name);
          taken.add(name);
        }),
      ),
    revert: async (name: string) => {
      if (!taken.has(name))
        throw new Error(
          `no checkpoint named ${name}${taken.size ? `; this testnet has ${[...taken].join(', ')}` : ' (take one first)'}`,
        );
      await lock.run(() =>
        ops.whileStopped(`while reverting to checkpoint ${name}`, () => revertState(run.workdir, name)),
      );
    },
    checkpoints: () => [...taken],
    saveSnapshot: async (key: string) => {
      // Refused before any program is stopped: a bad key must not cost the user their pids.
      assertKey(key);
      return lock.run(() =>
        ops.saveState(resolveCacheDir(run.opts.cacheDir ? { cacheDir: run.opts.cacheDir } : {}), key),
      );
    },
  };
}

/**
 * `mine` and `sync` of the testnet, without the chain lock: blocks to the miner wallet, then every wallet refreshed to
 * the new height. `signal` stops them too (automine's, when the testnet stops).
 */
function mining(
  run: Run,
  p: Parts,
): {
  mine(what: MineRequest, o?: { sync?: boolean; signal?: AbortSignal }): Promise<number>;
  sync(signal?: AbortSignal): Promise<void>;
} {
  const { daemon, wallets } = p;
  const both = (signal?: AbortSignal): AbortSignal =>
    signal ? AbortSignal.any([run.aborter.signal, signal]) : run.aborter.signal;
  const sync = async (signal?: AbortSignal): Promise<void> =>
    syncWallets(await daemon.client.height(), wallets.handles().values(), {
      timeoutMs: scaled(120_000),
      signal: both(signal),
    });
  const mine = async (what: MineRequest, o: { sync?: boolean; signal?: AbortSignal } = {}): Promise<number> => {
    const before = daemon.program.crashes.length;
    try {
      const target = mineTarget(what, await daemon.client.height());
      const { height } = await mineTo(daemon.client, target, {
        ...mineOptions(run),
        signal: both(o.signal),
        addresses: p.minerAddresses,
      });
      if (o.sync !== false) await sync(o.signal);
      return height;
    } catch (err) {
      // A refused or reset connection says nothing; the daemon's crash says what happened.
      const crash = daemon.program.crashes.slice(before).at(-1);
      if (!crash) throw err;
      const last = crash.tail.at(-1);
      throw new Error(
        `the daemon ${describeExit(crash.exit)} while mining${last ? ` (its last line: ${last})` : ''}; its log: ${crash.logFile}`,
        { cause: err },
      );
    }
  };
  return { mine, sync };
}
