// The Testnet object over the running programs of one `up`: its daemons (one node or several), its
// wallets, mining and syncing, partitions and heals, restarts, checkpoints and snapshots.
import { cacheDir as resolveCacheDir } from '../common/cache-dir.js';
import { scaled } from '../common/timeouts.js';
import { nodeIndex, nodeName, partitionProblems } from '../network/topology.js';
import type { Manifest } from '../snapshot/manifest.js';
import { assertKey } from '../snapshot/snapshot-dir.js';
import { describeExit, refusalLine } from '../process/errors.js';
import { checkpointState, revertState } from './chain/checkpoint.js';
import { assertCanRewind, markChain, rewindChain, type ChainMark } from './chain/chain-mark.js';
import { addressAt, mineTo, type MineOptions } from './mining/mining.js';
import { blockProgress, mineOptions, tellDataset, unresponsive, type Parts, type Run } from './up-phases.js';
import type { SnapshotInfo } from './chain/state-source.js';
import { mineTarget, syncWallets, type MineRequest } from './mining/sync.js';
import type { NodeHandle } from './programs/nodes.js';
import type { Testnet } from './types.js';
import { chainOps, type InnerOps } from './chain/chain-writes.js';

/** Stopping and starting every program together, for saves, checkpoints and reverts. */
export interface StateOps {
  /** `fn` on the stopped state; with `what: 'wallets'` only the wallet programs stop (the daemons keep running). */
  whileStopped<T>(why: string, fn: () => Promise<T>, what?: 'all' | 'wallets'): Promise<T>;
  /** `fn` once every wallet has been stored by its running RPC: no program stops (a checkpoint of one node). */
  whileStored<T>(why: string, fn: () => Promise<T>): Promise<T>;
  saveState(cacheDir: string, key: string): Promise<Manifest>;
}

export function testnetObject(
  run: Run,
  p: Parts,
  ops: StateOps,
  height: number,
  snapshot: () => SnapshotInfo,
): Testnet {
  const { wallets, main } = p;
  const nodes = run.nodes;
  const n0 = nodes.handle(0);
  const chain = chainOps(run, p, innerOps(run, p, ops));
  const { stopAutomine, ...operations } = chain;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await stopAutomine();
    run.dataset?.release();
    // What does not answer goes first, at once: a wallet waiting on a frozen daemon then hears of it and stops too.
    for (const prog of [...nodes.programs, ...wallets.programs()]) if (prog.unresponsive) await prog.stop();
    await wallets.closeClients();
    await nodes.close();
    await run.sup.stopAll();
  };
  return {
    backend: run.backend,
    workdir: run.workdir,
    runId: run.sup.runId,
    supervisor: run.sup,
    daemon: daemonOf(n0),
    nodes: nodes.programs.map((_, i) => nodes.handle(i)),
    wallet: Object.defineProperty({ ...main, address: addressAt(run.backend.spec, main.addresses, height) }, 'pid', {
      get: () => main.pid,
      enumerable: true,
    }) as Testnet['wallet'],
    miner: { addresses: p.minerAddresses },
    get snapshot() {
      return snapshot();
    },
    mining: miningInfo(run.serve),
    phases: run.phases,
    readyHeight: height,
    height: () => n0.client.height(),
    health: async () => ({ ...(await nodes.health()), ...(await wallets.health()) }),
    crashes: () => [...nodes.crashes(), ...wallets.crashes()],
    datasets: () => nodes.datasets(),
    unresponsive: () => unresponsive(run, p),
    recoverUnresponsive: async () => {
      const done: string[] = [];
      for (const prog of [...nodes.programs, ...wallets.programs()])
        if (await prog.recoverIfUnresponsive()) done.push(prog.name);
      return done;
    },
    ...operations,
    ...networkOf(run),
    addWallet: (name, o = {}) => {
      const node = o.node === undefined ? undefined : nodes.handle(nodeIndex(o.node, nodes.count));
      return wallets.add(name, node && node.index > 0 ? { name: node.name, url: node.url } : undefined);
    },
    createWallets: (names, o = {}) => wallets.create(names, o.lookahead ? run.chain.lookahead : undefined),
    wallets: () => wallets.handles(),
    removeWallet: (name: string) => wallets.remove(name),
    restart: async (what, name) => {
      if (what === 'daemon') {
        await nodes.programs[nodeIndex(name ?? 'n0', nodes.count)]!.restart();
        await nodes.waitConnected();
      } else await wallets.restart(name ?? 'main');
    },
    onEvent: (listener) => run.events.on(listener),
    onProgress: (listener) => {
      run.progress.add(listener);
      return () => void run.progress.delete(listener);
    },
    get failure() {
      return run.events.failure;
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}

/** The chain operations before the chain lock: mining and syncing, checkpoints, snapshots. */
function innerOps(run: Run, p: Parts, ops: StateOps): InnerOps {
  return {
    ...miningOf(run, p),
    ...checkpointsOf(run, ops),
    saveSnapshot: async (key: string) => {
      // Refused before any program is stopped: a bad key must not cost the user their pids.
      assertKey(key);
      return ops.saveState(resolveCacheDir(run.opts.cacheDir ? { cacheDir: run.opts.cacheDir } : {}), key);
    },
  };
}

/** Node n0 as `testnet.daemon` shows it (its pid is the one of the moment: a restart changes it). */
function daemonOf(n0: NodeHandle): Testnet['daemon'] {
  return {
    url: n0.url,
    client: n0.client,
    dataDir: n0.dataDir,
    logFile: n0.logFile,
    ports: n0.ports,
    recover: n0.recover,
    get pid() {
      return n0.pid;
    },
  };
}

function checkpointsOf(run: Run, ops: StateOps): Pick<Testnet, 'checkpoint' | 'revert' | 'checkpoints'> {
  const taken = new Map<string, ChainMark | undefined>();
  const count = run.nodes.count;
  // One node: the daemon keeps running (chain-mark.ts) and only the wallets' files are copied; a checkpoint stops
  // nothing, a revert restarts the wallet RPCs on their files. Several: every program stops and every node's data dir
  // is copied too.
  const daemon = count === 1 ? run.nodes.client(0) : undefined;
  return {
    checkpoint: (name: string) =>
      daemon
        ? // Every program keeps running: the wallets' files are copied once each RPC has stored its wallet.
          ops.whileStored(`while taking checkpoint ${name}`, async () => {
            const mark = await markChain(daemon);
            await checkpointState(run.workdir, name, 0);
            taken.set(name, mark);
          })
        : ops.whileStopped(`while taking checkpoint ${name}`, async () => {
            await checkpointState(run.workdir, name, count);
            taken.set(name, undefined);
          }),
    revert: async (name: string) => {
      if (!taken.has(name))
        throw new Error(
          `no checkpoint named ${name}${taken.size ? `; this testnet has ${[...taken.keys()].join(', ')}` : ' (take one first)'}`,
        );
      const mark = taken.get(name);
      if (!daemon || !mark)
        return ops.whileStopped(`while reverting to checkpoint ${name}`, () => revertState(run.workdir, name, count));
      await assertCanRewind(daemon, mark, name);
      await ops.whileStopped(
        `while reverting to checkpoint ${name}`,
        async () => {
          await revertState(run.workdir, name, 0);
          await rewindChain(daemon, mark, name);
        },
        'wallets',
      );
    },
    checkpoints: () => [...taken.keys()],
  };
}

/**
 * `mine` and `sync` of the testnet: blocks to the miner wallet on a node, the nodes of its group brought to one top,
 * then every wallet refreshed to its own node's height.
 */
function miningOf(run: Run, p: Parts): Pick<InnerOps, 'mine' | 'sync'> {
  const nodes = run.nodes;
  const sync = async (o: { signal?: AbortSignal } = {}): Promise<void> => {
    await nodes.waitConnected(undefined, o.signal);
    await nodes.syncTops(undefined, undefined, o.signal);
    const heights = await Promise.all(nodes.programs.map((_, i) => nodes.rawClient(i).height()));
    const targets = [...p.wallets.handles().values()].map((w) => ({
      ...w,
      height: heights[nodeIndex(w.node, nodes.count)]!,
      node: w.node,
    }));
    const signal = o.signal ? AbortSignal.any([run.aborter.signal, o.signal]) : run.aborter.signal;
    await syncWallets(heights[0]!, targets, { timeoutMs: scaled(120_000), signal });
  };
  const mine = async (
    what: MineRequest,
    o: { sync?: boolean; node?: string; signal?: AbortSignal } = {},
  ): Promise<number> => {
    const i = nodeIndex(o.node ?? 'n0', nodes.count);
    const program = nodes.programs[i]!;
    // A node restarting after a crash is waited for (its client recovers); a stopped or failed one cannot mine.
    if (program.status === 'stopped' || program.status === 'failed')
      throw new Error(`${nodeName(i)} is not running (${program.status}): it cannot mine`);
    const before = program.crashes.length;
    try {
      // Refused at once: its daemon would answer BUSY until it had a peer.
      const unsynchronized = await nodes.unsynchronized(i);
      if (unsynchronized) throw new Error(unsynchronized);
      const client = nodes.client(i);
      const target = mineTarget(what, await client.height());
      // Automine's signal stops a block under way when the testnet stops.
      const signal = o.signal ? AbortSignal.any([run.aborter.signal, o.signal]) : run.aborter.signal;
      // Mined on node i alone and trimmed there to the target (popAcross takes back what reached its peers): the height
      // returned is node i's, whatever its links' delays.
      const { height } = await mineTo(client, target, {
        ...mineOptions(run),
        signal,
        addresses: p.minerAddresses,
        warn: run.log,
        ...progressOf(run, nodeName(i), await client.height(), target),
      });
      // Then the blocks reach the node's group (a node that is not connected yet gets them when it is).
      if (nodes.links)
        await nodes.syncTops([nodes.links.groupOf(i)]).catch((err: unknown) => {
          throw new Error(
            `mine: ${nodeName(i)} mined to ${height}, but the blocks did not reach the rest of its group: ${(err as Error).message}`,
            { cause: err },
          );
        });
      if (o.sync !== false) await sync();
      return height;
    } catch (err) {
      // A refused or reset connection says nothing; the daemon's crash says what happened.
      const crash = program.crashes.slice(before).at(-1);
      if (!crash) throw err;
      const last = tellingLine(crash.tail);
      throw new Error(
        `the ${program.name} ${describeExit(crash.exit)} while mining${last ? ` (its last line: ${last})` : ''}; its log: ${crash.logFile}`,
        { cause: err },
      );
    }
  };
  return { mine, sync };
}

/** A mining job's progress and its waits for the RandomX dataset, told to the testnet's progress listeners. */
function progressOf(
  run: Run,
  node: string,
  start: number,
  target: number,
): Pick<MineOptions, 'progress' | 'onDataset'> {
  if (run.progress.size === 0) return {};
  return { progress: blockProgress(run, { node, start, target }), onDataset: (_, miner) => tellDataset(run, miner) };
}

/** Partitions, heals and the links between the nodes. */
function networkOf(run: Run): Pick<Testnet, 'partition' | 'heal' | 'setLink' | 'links' | 'groups'> {
  const nodes = run.nodes;
  const names = (g: number[]): string[] => g.map(nodeName);
  return {
    partition: async (groups, o = {}) => {
      const problems = partitionProblems(groups, nodes.count);
      if (problems.length) throw new Error(`bad partition: ${problems.join('; ')}`);
      // One node is alone already.
      if (!nodes.links) return;
      nodes.links.partition(groups);
      await nodes.waitConnected(undefined, o.signal);
    },
    heal: async (o = {}) => {
      nodes.links?.heal();
      await nodes.waitConnected(undefined, o.signal);
    },
    setLink: async (a, b, state, o = {}) => {
      if (!nodes.links)
        throw new Error('this testnet has one node, n0: it has no links (start it with nodes: 2 or more)');
      nodes.links.setByName(a, b, state);
      await nodes.waitConnected(undefined, o.signal);
    },
    links: () => nodes.links?.info() ?? [],
    groups: () => nodes.groups().map(names),
  };
}

/**
 * The line of a dead program's tail that says why: its refusal of its command line (refusalLine), else the last
 * error line (a log line at level E or F, an `Error:` or an exception), else the last line. Its stdout and stderr are
 * two pipes, read in no fixed order: an error printed on one may arrive before the other's last line.
 */
export function tellingLine(tail: readonly string[]): string | undefined {
  return refusalLine(tail) ?? [...tail].reverse().find((l) => /\t[EF] |\bError\b|Exception/.test(l)) ?? tail.at(-1);
}

/** What Testnet.mining shows of the served settings (saltnet's miner named, not handed out). */
function miningInfo({ hasher: _, ...info }: Run['serve']): Testnet['mining'] {
  return info;
}
