// A testnet while it runs: what one `up` shares between its phases (Run), and the Testnet object
// over its running programs — saves, checkpoints and reverts stop and start every program together.
import type { Manifest } from '../snapshot/manifest.js';
import type { Supervisor } from '../process/supervisor.js';
import type { DaemonClient } from '../rpc/daemon.js';
import { binaryVersion, type ResolvedBackend } from './binaries.js';
import { saveChain, type ChainSpec } from './chain-cache.js';
import type { DaemonHandle } from './daemon.js';
import type { MiningAddresses } from './mining.js';
import type { NodeSet } from './nodes.js';
import { testnetObject } from './object.js';
import { unresponsive } from './run-kit.js';
import type { Program, ProgramOptions } from './program.js';
import type { RunEvents } from './events.js';
import type { SnapshotInfo } from './state.js';
import type { MiningInfo, Testnet, TestnetOptions } from './types.js';
import type { WalletAddresses } from './wallet-setup.js';
import type { WalletHandle, WalletSet } from './wallets.js';
import type { FixedPorts } from './standard-ports.js';

/** A daemon's settings with the threads `mine` asks it for (the shape Testnet.mining shows). */
export type Mining = MiningInfo;

/** What one `up` shares between its phases. */
export interface Run {
  opts: TestnetOptions;
  log: (line: string) => void;
  backend: ResolvedBackend;
  /** `--ports standard`: the ports to bind (undefined: free ones). */
  ports?: FixedPorts;
  chain: ChainSpec;
  /** How the chain state is mined (at its prefix difficulty) and how blocks are mined once the testnet serves. */
  build: Mining;
  serve: Mining;
  /** The one of the two the daemon starts with and `mine` uses now. */
  mining: Mining;
  workdir: string;
  dirs: { daemon: string; wallets: string };
  hadState: boolean;
  sup: Supervisor;
  aborter: AbortController;
  /** Crashes, pid changes and failures of its programs, for listeners and the run record. */
  events: RunEvents;
  phases: Record<string, number>;
  /** What the testnet is doing now, for crash reports. */
  activity: string;
  programs: ProgramOptions;
  /** Keep a temporary workdir (and its logs) when the testnet stops, and say so in the run record for a reaper. */
  keepWorkdir(): void;
  /** The daemons: n0 and, on a testnet of several nodes, the others and their links. */
  nodes: NodeSet;
}

export interface Daemon {
  program: Program<DaemonHandle>;
  client: DaemonClient;
}

export async function phase<T>(run: Run, name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  // Listed in the order the phases start (two may run at once: the wallet restores beside the mining).
  run.phases[name] ??= 0;
  try {
    return await fn();
  } finally {
    run.phases[name] = (run.phases[name] ?? 0) + Date.now() - t0;
  }
}

export interface Parts {
  daemon: Daemon;
  wallets: WalletSet;
  main: WalletHandle;
  addresses: WalletAddresses;
  minerAddresses: MiningAddresses;
  writeLogin: () => void;
  snapshot: SnapshotInfo;
}

/** Stopping and starting every program together, for saves, checkpoints and reverts. */
export interface StateOps {
  /** `fn` on the stopped state; with `what: 'wallets'` only the wallet programs stop (the daemons keep running). */
  whileStopped<T>(why: string, fn: () => Promise<T>, what?: 'all' | 'wallets'): Promise<T>;
  /** `fn` once every wallet has been stored by its running RPC: no program stops (a checkpoint of one node). */
  whileStored<T>(why: string, fn: () => Promise<T>): Promise<T>;
  saveState(cacheDir: string, key: string): Promise<Manifest>;
}

function stateOps(run: Run, p: Parts): StateOps {
  const { daemon, wallets } = p;
  /** Every process stopped (wallets stored first); what did not stop cleanly: the state on disk is whole without. */
  const stopProcesses = async (what: 'all' | 'wallets'): Promise<string[]> => {
    const problems = await wallets.stopAll();
    return what === 'wallets' ? problems : [...problems, ...(await run.nodes.stopAll())];
  };
  const startProcesses = async (what: 'all' | 'wallets'): Promise<void> => {
    if (what === 'all') await run.nodes.startAll();
    await wallets.startAll();
    p.writeLogin();
  };
  /**
   * Stop everything (or only the wallets), do `fn` on the stopped state, start it all again (also when fn fails). `why`
   * goes into the programs' events.
   */
  const whileStopped = async <T>(why: string, fn: () => Promise<T>, what: 'all' | 'wallets' = 'all'): Promise<T> => {
    const was = run.activity;
    run.activity = why;
    try {
      const problems = await stopProcesses(what);
      try {
        // A wallet that was not stored (its program froze, or was killed) would be saved as it was long ago.
        if (problems.length)
          throw new Error(
            `not every program stopped cleanly, so the state on disk may not be whole: ${problems.join('; ')}`,
          );
        return await fn();
      } finally {
        await startProcesses(what);
      }
    } finally {
      run.activity = was;
    }
  };
  const whileStored = async <T>(why: string, fn: () => Promise<T>): Promise<T> => {
    // A wallet that does not answer cannot be stored: refused at once rather than waited for.
    const silent = unresponsive(run, p);
    if (silent.length) throw new Error(`the wallets cannot be stored ${why}: ${silent.join('; ')}`);
    const was = run.activity;
    run.activity = why;
    try {
      const problems = await wallets.storeAll();
      if (problems.length) throw new Error(`not every wallet could be stored ${why}: ${problems.join('; ')}`);
      return await fn();
    } finally {
      run.activity = was;
    }
  };
  const saveState = async (cdir: string, key: string): Promise<Manifest> => {
    // Refused at once when a program does not answer: its wallet cannot be stored, and stopping it would only wait.
    const silent = unresponsive(run, p);
    if (silent.length) throw new Error(`cannot save the state: ${silent.join('; ')}`);
    const height = await daemon.client.height();
    const version = await binaryVersion(run.backend.paths.daemon).catch(() => undefined);
    return whileStopped(`while saving snapshot ${key}`, async () =>
      saveChain(cdir, key, run.workdir, {
        // The difficulty the daemon mined at until now: the prefix's for a state built here.
        be: run.backend,
        ...(version ? { binaryVersion: version } : {}),
        difficulty: daemon.program.current.settings.difficulty,
        height,
        wallets: Object.entries(p.addresses).map(([name, a]) => ({ name, addresses: a })),
        extra: {
          unlocked: `${run.chain.unlocked} ${run.chain.asset}`,
          target: run.chain.height,
          lookahead: run.chain.lookahead,
        },
      }),
    );
  };
  return { whileStopped, whileStored, saveState };
}

/**
 * The testnet over its running programs: `saveBuilt` puts a state built here into the cache, `finish` gives the
 * Testnet.
 */
export function assemble(
  run: Run,
  p: Parts,
): {
  saveBuilt(): Promise<void>;
  setPrefix(prefix: SnapshotInfo['prefix']): void;
  /** The chain built on n0 alone copied to the other nodes (all stopped meanwhile), which then start as a network. */
  network(): Promise<void>;
  finish(height: number): Testnet;
} {
  const ops = stateOps(run, p);
  let snapshot = p.snapshot;
  const saveBuilt = async (): Promise<void> => {
    if ((snapshot.status !== 'built' && snapshot.status !== 'rebuilt') || !snapshot.key || !snapshot.cacheDir) return;
    const { key, cacheDir } = snapshot;
    await phase(run, 'snapshotSave', async () => {
      try {
        const m = await ops.saveState(cacheDir, key);
        run.log(
          `saltnet: saved snapshot ${key} (${m.files.length} files, ${(m.files.reduce((n, f) => n + f.size, 0) / 2 ** 20).toFixed(1)} MiB); the next run starts from it`,
        );
      } catch (err) {
        snapshot = { ...snapshot, saveError: err instanceof Error ? err.message : String(err) };
        run.log(`saltnet: could not save snapshot ${key}: ${snapshot.saveError}`);
      }
    });
  };
  const setPrefix = (prefix: SnapshotInfo['prefix']): void => {
    snapshot = { ...snapshot, ...(prefix ? { prefix } : {}) };
  };
  const network = (): Promise<void> =>
    ops.whileStopped('while copying the chain to the other nodes', () => run.nodes.network());
  return { saveBuilt, setPrefix, network, finish: (height) => testnetObject(run, p, ops, height, () => snapshot) };
}
