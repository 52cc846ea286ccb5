// What one `up` shares between its phases (Run) and what it has running once they are done (Parts),
// with what the phases and the Testnet object both need from them: the time each phase took, how
// `mine` mines, and which programs do not answer.
import type { Supervisor } from '../process/supervisor.js';
import type { DaemonClient } from '../rpc/daemon.js';
import { scaled } from '../common/timeouts.js';
import type { ResolvedBackend } from './programs/binaries.js';
import type { ChainSpec } from './chain/chain-cache.js';
import type { DaemonHandle } from './programs/daemon.js';
import type { RunEvents } from './events.js';
import type { MineForOptions } from './mining/funding.js';
import type { BlockHasher } from './mining/job.js';
import type { DatasetStatus, RandomxMiner } from '../randomx/miner.js';
import type { Progress } from './mining/progress.js';
import { BUSY_MS, type MiningAddresses } from './mining/mining.js';
import type { NodeSet } from './programs/nodes.js';
import type { Program, ProgramOptions } from './programs/program.js';
import type { FixedPorts } from './programs/standard-ports.js';
import type { SnapshotInfo } from './chain/state-source.js';
import type { MiningInfo, MiningProgress, TestnetOptions } from './types.js';
import type { WalletAddresses } from './programs/wallet-setup.js';
import type { WalletHandle, WalletSet } from './programs/wallets.js';

/**
 * A daemon's settings with the threads `mine` asks it for (the shape Testnet.mining shows), and saltnet's own miner
 * when it hashes the blocks itself.
 */
export type Mining = MiningInfo & { hasher?: BlockHasher };

/** What one `up` shares between its phases. */
export interface Run {
  opts: TestnetOptions;
  log: (line: string) => void;
  /** TestnetOptions.detail, or nothing. */
  detail: (line: string) => void;
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
  /** Who hears of mining progress (Testnet.onProgress). */
  progress: Set<(p: MiningProgress) => void>;
  /** The RandomX dataset saltnet's own miner holds while the testnet runs (loaded, or built in the background). */
  dataset?: { miner: RandomxMiner; release: () => void };
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

export function mineOptions(run: Run): Omit<MineForOptions, 'miner' | 'main' | 'target' | 'need'> {
  // Mining deadlines are not scaled where they are awaited: scale them here.
  return {
    spec: run.backend.spec,
    timeoutMs: scaled(3_600_000),
    busyMs: scaled(BUSY_MS),
    signal: run.aborter.signal,
    threads: run.mining.threads,
    ...(run.mining.hasher ? { hasher: run.mining.hasher } : {}),
  };
}

/**
 * A mining job's blocks told to the progress listeners, once per new height (the daemon's miner is polled many times a
 * block); `shown` (a bar, or lines) sees every update.
 */
export function blockProgress(
  run: Run,
  job: { node: string; start: number; target: number },
  shown?: Progress,
): Progress {
  const t0 = Date.now();
  let last = job.start;
  return {
    update: (height) => {
      shown?.update(height);
      if (height <= last) return;
      last = height;
      tellProgress(run, { event: 'block', ...job, height, ms: Date.now() - t0 });
    },
    done: (height) => shown?.done(height),
  };
}

/** The RandomX dataset's build (or load) told to the progress listeners, from its state now until it is ready. */
export function tellDataset(run: Run, miner: RandomxMiner): void {
  const tell = (s: DatasetStatus): void => {
    if (s.kind !== 'building' && s.kind !== 'loading') return void off();
    const percent = s.kind === 'building' ? Math.floor((100 * s.done) / s.total) : 100;
    tellProgress(run, { event: 'dataset', state: s.kind, percent, etaMs: miner.readyInMs() });
  };
  const off = miner.onState(tell);
  tell(miner.state);
}

/** Tell every progress listener (one that throws does not stop the others, nor the mining). */
export function tellProgress(run: Run, p: MiningProgress): void {
  for (const l of [...run.progress]) {
    try {
      l(p);
    } catch {
      /* a listener's bug is its own */
    }
  }
}

/** The programs that do not answer now (every node's daemon, every wallet), each with its pid and why. */
export function unresponsive(run: Run, p: Parts): string[] {
  return [
    ...run.nodes.programs.flatMap((d) =>
      d.unresponsive ? [`${d.name} (pid ${d.pid}) is not answering: ${d.unresponsive.reason}`] : [],
    ),
    ...p.wallets.unresponsive(),
  ];
}
