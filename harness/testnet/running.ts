// A testnet while it runs: what one `up` shares between its phases (Run), and the Testnet object
// over its running programs — saves, checkpoints and reverts stop and start every program together.
import type { Manifest } from '../snapshot/manifest.js';
import type { Supervisor } from '../process/supervisor.js';
import type { DaemonClient } from '../rpc/daemon.js';
import { binaryVersion, type ResolvedBackend } from './binaries.js';
import { saveChain, type ChainSpec } from './chain-cache.js';
import type { DaemonHandle } from './daemon.js';
import { addressAt, type MiningAddresses } from './mining.js';
import type { Program, ProgramOptions } from './program.js';
import type { RunEvents } from './events.js';
import type { SnapshotInfo } from './state.js';
import type { MiningInfo, Testnet, TestnetOptions } from './types.js';
import type { WalletAddresses } from './wallet-setup.js';
import type { WalletHandle, WalletSet } from './wallets.js';
import type { FixedPorts } from './standard-ports.js';
import { chainOps } from './chain-ops.js';

export { mineOptions } from './chain-ops.js';

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
}

export interface Daemon {
  program: Program<DaemonHandle>;
  client: DaemonClient;
}

export async function phase<T>(run: Run, name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
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

/** The programs that do not answer now, each with its pid and why. */
function unresponsive(p: Parts): string[] {
  const d = p.daemon.program;
  return [
    ...(d.unresponsive ? [`daemon (pid ${d.pid}) is not answering: ${d.unresponsive.reason}`] : []),
    ...p.wallets.unresponsive(),
  ];
}

/** Stopping and starting every program together, for saves, checkpoints and reverts. */
export interface StateOps {
  whileStopped<T>(why: string, fn: () => Promise<T>): Promise<T>;
  saveState(cacheDir: string, key: string): Promise<Manifest>;
}

function stateOps(run: Run, p: Parts): StateOps {
  const { daemon, wallets } = p;
  /** Every process stopped (wallets stored first); what did not stop cleanly: the state on disk is whole without. */
  const stopProcesses = async (): Promise<string[]> => {
    const problems = await wallets.stopAll();
    const d = await daemon.program.stop();
    return d ? [...problems, `${daemon.program.name}: ${d}`] : problems;
  };
  const startProcesses = async (): Promise<void> => {
    await daemon.program.start();
    await wallets.startAll();
    p.writeLogin();
  };
  /**
   * Stop everything, do `fn` on the stopped state, start everything again (also when fn fails). `why` goes into the
   * programs' events.
   */
  const whileStopped = async <T>(why: string, fn: () => Promise<T>): Promise<T> => {
    const was = run.activity;
    run.activity = why;
    try {
      const problems = await stopProcesses();
      try {
        // A wallet that was not stored (its program froze, or was killed) would be saved as it was long ago.
        if (problems.length)
          throw new Error(
            `not every program stopped cleanly, so the state on disk may not be whole: ${problems.join('; ')}`,
          );
        return await fn();
      } finally {
        await startProcesses();
      }
    } finally {
      run.activity = was;
    }
  };
  const saveState = async (cdir: string, key: string): Promise<Manifest> => {
    // Refused at once when a program does not answer: its wallet cannot be stored, and stopping it would only wait.
    const silent = unresponsive(p);
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
        extra: { unlocked: `${run.chain.unlocked} ${run.chain.asset}`, target: run.chain.height },
      }),
    );
  };
  return { whileStopped, saveState };
}

/**
 * The testnet over its running programs: `saveBuilt` puts a state built here into the cache, `finish` gives the
 * Testnet.
 */
export function assemble(
  run: Run,
  p: Parts,
): { saveBuilt(): Promise<void>; setPrefix(prefix: SnapshotInfo['prefix']): void; finish(height: number): Testnet } {
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
  return { saveBuilt, setPrefix, finish: (height) => testnetObject(run, p, ops, height, () => snapshot) };
}

function testnetObject(run: Run, p: Parts, ops: StateOps, height: number, snapshot: () => SnapshotInfo): Testnet {
  const { daemon, wallets, main } = p;
  const d = daemon.program;
  const chain = chainOps(run, p, ops);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await chain.stopAutomine();
    // What does not answer goes first, at once: a wallet waiting on a frozen daemon then hears of it and stops too.
    for (const prog of [d, ...wallets.programs()]) if (prog.unresponsive) await prog.stop();
    await wallets.closeClients();
    await daemon.client.close().catch(() => undefined);
    await run.sup.stopAll();
  };
  const { stopAutomine: _stop, ...operations } = chain;
  return {
    backend: run.backend,
    workdir: run.workdir,
    runId: run.sup.runId,
    supervisor: run.sup,
    daemon: {
      url: d.current.url,
      client: daemon.client,
      dataDir: d.current.dataDir,
      logFile: d.current.logFile,
      ports: d.current.ports,
      recover: d.recover,
      get pid() {
        return d.current.proc.pid;
      },
    },
    wallet: Object.defineProperty({ ...main, address: addressAt(run.backend.spec, main.addresses, height) }, 'pid', {
      get: () => main.pid,
      enumerable: true,
    }) as Testnet['wallet'],
    miner: { addresses: p.minerAddresses },
    get snapshot() {
      return snapshot();
    },
    mining: { ...run.serve },
    phases: run.phases,
    readyHeight: height,
    height: () => daemon.client.height(),
    health: async () => ({ [d.name]: await d.health(), ...(await wallets.health()) }),
    crashes: () => [...d.crashes, ...wallets.crashes()],
    unresponsive: () => unresponsive(p),
    recoverUnresponsive: async () => {
      const done: string[] = [];
      for (const prog of [d, ...wallets.programs()]) if (await prog.recoverIfUnresponsive()) done.push(prog.name);
      return done;
    },
    ...operations,
    addWallet: (name: string) => wallets.add(name),
    wallets: () => wallets.handles(),
    removeWallet: (name: string) => wallets.remove(name),
    restart: async (what, walletName = 'main') => {
      if (what === 'daemon') await d.restart();
      else await wallets.restart(walletName);
    },
    onEvent: (listener) => run.events.on(listener),
    get failure() {
      return run.events.failure;
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
