// The testnet's public shapes: the options of `startTestnet` and the running testnet it gives.
import type { Supervisor } from '../process/supervisor.js';
import type { DaemonClient } from '../rpc/daemon.js';
import type { Recovery } from '../rpc/http.js';
import type { Manifest } from '../snapshot/manifest.js';
import type { BackendName, MinerChoice, RandomxChoice, RandomxMode } from '../coin/backends.js';
import type { PrefixMode } from './chain/chain-cache.js';
import type { ResolvedBackend } from './programs/binaries.js';
import type { MiningAddresses } from './mining/mining.js';
import type { MineRequest } from './mining/sync.js';
import type { LinkInfo } from '../network/links.js';
import type { LinkState } from '../network/proxy.js';
import type { DatasetState, NodeHandle } from './programs/nodes.js';
import type { TestnetEvent } from './events.js';
import type { CrashReport } from './programs/program.js';
import type { ProgressMode } from './mining/progress.js';
import type { SnapshotInfo } from './chain/state-source.js';
import type { WalletHandle } from './programs/wallets.js';
import type { AutomineChange, AutomineMode } from './mining/automine.js';
import type { FundOptions, FundRequest, FundResult } from './mining/faucet.js';

export interface TestnetOptions {
  backend?: BackendName | 'auto';
  binDir?: string;
  /** The daemon's `--fixed-difficulty` once the testnet is ready (default: the backend's, 500 on Salvium). */
  difficulty?: number;
  /**
   * Mine the chain state at difficulty 1 and serve it at `difficulty` (`cheap`, the default), or mine it at
   * `difficulty` too (`same`).
   */
  prefixDifficulty?: PrefixMode;
  /**
   * RandomX mode of the miner (real programs): `auto` (default) picks, for each job of saltnet's own miner, the cheaper
   * of light mode and the dataset; the daemon's miner runs full from difficulty 100, light below.
   */
  randomx?: RandomxChoice;
  /** Who mines after ready: saltnet itself (librandomx), the daemon's own miner, or `auto` (saltnet where it can). */
  miner?: MinerChoice;
  /** Target height (block count); default: the backend's (1201 on Salvium: tokens active). */
  height?: number;
  /** Unlocked amount (atomic units) of the backend's asset the main wallet must hold; 0n for none. */
  unlocked?: bigint;
  /** Where data dirs, wallets and logs go (kept); default: a fresh temporary folder (removed on a clean stop). */
  workdir?: string;
  login?: 'none' | 'digest';
  /** Restore the wallets with the wallet CLI (default) or through the wallet RPC's restore_deterministic_wallet. */
  walletCreation?: 'cli' | 'rpc';
  /**
   * The subaddress lookahead (`major:minor`) of the wallets created with the wallet CLI (default 2:20; wallet2's own is
   * 50:200): payments to subaddresses beyond it are not seen until the wallet creates them
   * (testnet/programs/lookahead.ts).
   */
  subaddressLookahead?: string;
  timeoutFactor?: number;
  progress?: 'auto' | ProgressMode;
  /** Human-readable lines of what the user caused or must know: building a chain state, a crash (default: stderr). */
  log?: (line: string) => void;
  /**
   * The lines only a verbose run shows: a program ready, a snapshot restored or saved, how blocks are mined, each
   * block automine mines (default: none; `saltnet --verbose` prints them).
   */
  detail?: (line: string) => void;
  /** Stop everything on SIGINT/SIGTERM (default true). */
  trapSignals?: boolean;
  /**
   * Who holds the testnet, in its run record: `up` (`saltnet up`, which `down`, `mine`, `fund`… act on) or a `test`
   * (a scenario run, a vitest fixture, `diff`, `fuzz`: it ends with its command; the default).
   */
  holder?: 'up' | 'test';
  /** Told the workdir as soon as it is chosen, before anything starts in it (the testnet pool removes it on exit). */
  onWorkdir?: (workdir: string) => void;
  /**
   * Told the mining progress from the start: the blocks of a cold build, the RandomX dataset being built, and every
   * mining job's blocks once ready (Testnet.onProgress). `saltnet up --json` prints them on stderr.
   */
  onProgress?: (p: MiningProgress) => void;
  /** Mining threads (default: 1 at difficulty 1, where a block costs one hash; every core above). */
  threads?: number;
  /** Extra environment for the daemon (e.g. the simulator's knobs). */
  daemonEnv?: Record<string, string>;
  /** Use the chain-state cache (default true): restore on a hit; on a miss build, then save. */
  snapshots?: boolean;
  /** The cache folder (default: $SALTNET_CACHE_DIR, $XDG_CACHE_HOME/saltnet, ~/.cache/saltnet). */
  cacheDir?: string;
  /**
   * Start from this snapshot of the cache (e.g. one imported with `saltnet snapshot load`) instead of the one the
   * options describe.
   */
  snapshotKey?: string;
  /** Restarts after crashes, per program (default 3); one crash more fails the testnet. */
  maxRestarts?: number;
  /** Once ready, mine a block as soon as the daemon's pool holds a transaction (automine; default false). */
  mineOnTx?: boolean;
  /** Once ready, mine a block every this many seconds (automine; default 0: none). */
  blockTime?: number;
  /**
   * `random` (default): free loopback ports; `standard`: the programs' own testnet ports (Salvium: daemon RPC 29081,
   * ZMQ 29082, P2P 29080, the main wallet's RPC 29088), refused before anything starts when one is taken.
   */
  ports?: 'random' | 'standard';
  /**
   * Daemons (default 1): n0, n1, … on 127.0.0.1, each joined to every other through a link saltnet owns (partition and
   * heal them), all from one chain state. The main wallet talks to n0.
   */
  nodes?: number;
}

/** A wallet to add: the node its wallet RPC talks to (default n0). */
export interface AddWalletOptions {
  node?: string;
}

/**
 * A wait a caller may give up: its `signal` aborts the wait (the control endpoint's request whose client went away).
 * What was done before it is kept (a link cut stays cut).
 */
export interface Cancel {
  signal?: AbortSignal;
}

export interface Testnet {
  readonly backend: ResolvedBackend;
  readonly workdir: string;
  readonly runId: string;
  readonly supervisor: Supervisor;
  /** Node n0 (the only one, unless `nodes` asked for more). */
  readonly daemon: {
    url: string;
    client: DaemonClient;
    readonly pid: number;
    dataDir: string;
    logFile: string;
    ports: { rpc: number; zmq: number; p2p: number };
    /** For daemon clients of your own: wait out a crash and repeat what is safe to repeat. */
    recover: Recovery;
  };
  /** Every node, n0 first. */
  readonly nodes: readonly NodeHandle[];
  readonly wallet: WalletHandle & {
    /** The address transfers should go to on this chain now (Carrot from HF10 on Salvium). */
    address: string;
  };
  /** The wallet that receives the blocks mined only for height (no process serves it). */
  readonly miner: { addresses: MiningAddresses };
  readonly snapshot: SnapshotInfo;
  /** How blocks mined from now on are mined: the daemon's difficulty, RandomX mode and the threads `mine` asks for. */
  readonly mining: MiningInfo;
  /** Milliseconds spent in each phase of `up`. */
  readonly phases: Record<string, number>;
  /** The chain's height when the testnet became ready (`height()` asks the daemon for the height now). */
  readonly readyHeight: number;
  /** The chain's height now (the daemon's block count). */
  height(): Promise<number>;
  /** Each program by name (daemon, wallet-rpc, wallet-rpc-<name>): running and answering its RPC now. */
  health(): Promise<Record<string, boolean>>;
  /**
   * The RandomX dataset of each node in full mode (none: light mode, or no RandomX): built in the background from each
   * daemon start, about a minute on two cores; mining waits for it (docs/difficulty.md).
   */
  datasets(): DatasetState[];
  /** Every crash of a program of this testnet so far (each restarted, or the one that failed it). */
  crashes(): CrashReport[];
  /** The programs that do not answer now (frozen, or their RPC deadlocked: see docs/troubleshooting.md), with why. */
  unresponsive(): string[];
  /**
   * Kill each program that does not answer and start it again as after a crash (counted against its restarts); the
   * names of those restarted. For a caller that gave up on them; `up` does it by itself after 60 s (scaled).
   */
  recoverUnresponsive(): Promise<string[]>;
  /** Be told of every crash, pid change, purposeful stop and failure from now on; returns the unsubscribe function. */
  onEvent(listener: (e: TestnetEvent) => void): () => void;
  /**
   * Be told of each block `mine` (and what mines through it: fund, automine) finds, and of the RandomX dataset a
   * mining job waits for; returns the unsubscribe function. `saltnet mine` and `fund` print them.
   */
  onProgress(listener: (p: MiningProgress) => void): () => void;
  /** The `failed` event that ended this testnet (a program crashed once more than its restarts allow), if one did. */
  readonly failure: TestnetEvent | undefined;
  /**
   * Mine blocks — `mine(1)`, `mine({ blocks: 5 })` — or up to a height — `mine({ to: 1300 })` — exactly (CN/Carrot
   * switch handled) on a node (`node`, default n0); the blocks go to the miner wallet and reach every node of its
   * group. Then the nodes are synced and every wallet of the testnet refreshes to its node's height before it returns
   * (`{ sync: false }`: none does). Returns the height reached. `signal`: give up (the miner stops; blocks found stay).
   */
  mine(what: MineRequest, o?: { sync?: boolean; node?: string; signal?: AbortSignal }): Promise<number>;
  /**
   * Wait until the nodes of each group (all of them unless partitioned) stand on one top block, then refresh every
   * wallet until it stands at its node's height.
   */
  sync(o?: Cancel): Promise<void>;
  /**
   * Cut the links between groups of nodes and open those within each (every node in exactly one group):
   * `partition([['n0'], ['n1', 'n2']])`. Nothing passes between the groups until `heal()`.
   */
  partition(groups: readonly (readonly string[])[], o?: Cancel): Promise<void>;
  /** Open every link again and wait until the nodes are connected; `sync()` then waits for the heavier chain to win. */
  heal(o?: Cancel): Promise<void>;
  /** Set the link between two nodes: `{ mode: 'cut' | 'drop' | 'open', delayMs }`. */
  setLink(a: string, b: string, state: Partial<LinkState>, o?: Cancel): Promise<void>;
  /** Every link and its state now. */
  links(): LinkInfo[];
  /** The groups of nodes that reach each other now, by name (one group of every node unless partitioned). */
  groups(): string[][];
  /**
   * Create another wallet (through a wallet RPC serving the wallets folder, talking to `node`, default n0) or reopen it
   * on a reused workdir.
   */
  /** How blocks are mined besides `mine()` now: on a new pool transaction, every `blockTime` s, both or neither. */
  automine(): AutomineMode;
  /**
   * Change automine now: `{ mineOnTx: true }`, `{ blockTime: 5 }` (0: no interval), `'off'` (manual). Every block it
   * mines is followed by a sync of every wallet, as `mine()` is. Returns the new mode.
   */
  setAutomine(change: AutomineChange): AutomineMode;
  /**
   * The faucet: pay `amount` (atomic units) of `asset` (default SAL1) from `main` to any address of this chain, then
   * mine until the receiver can spend it (10 blocks on top of the payment's). Bad addresses, unknown assets and
   * amounts over what main holds are refused before anything is sent, with what main holds. `o.signal` gives it up
   * as long as the payment is not being sent; `o.onSend` is told the payment as it is sent (see faucet.ts).
   */
  fund(req: FundRequest, o?: FundOptions): Promise<FundResult>;
  addWallet(name: string, o?: AddWalletOptions): Promise<WalletHandle>;
  /**
   * Create wallets on n0 without leaving them running (one wallet RPC creates them all): their addresses by name.
   * `addWallet(name)` opens one later. For wallets funded ahead, before they are needed. With `lookahead: true` the
   * wallet CLI creates them with the testnet's subaddress lookahead (`subaddressLookahead`, 2:20 by default), so that
   * each opens fast later; otherwise they have the wallet RPC's 50:200.
   */
  createWallets(names: string[], o?: { lookahead?: boolean }): Promise<Map<string, MiningAddresses>>;
  /** Every wallet by name, `main` first. */
  wallets(): Map<string, WalletHandle>;
  /** Stop an added wallet's RPC for good (the wallet is stored; its files stay) and forget it. */
  removeWallet(name: string): Promise<void>;
  /**
   * Stop a process gracefully and start it again on the same ports (wallets: the same credentials): a daemon (`name`:
   * its node, default n0) or a wallet (`name`: the wallet, default main).
   */
  restart(target: 'daemon' | 'wallet', name?: string): Promise<void>;
  /**
   * Checkpoint the whole testnet (chain and every wallet) under a name. On one node nothing stops: each wallet RPC
   * stores its wallet, its files are copied, and the chain's height, top block and pool are noted. On several nodes
   * every process stops cleanly, the state is copied, they start again on the same endpoints.
   */
  checkpoint(name: string): Promise<void>;
  /**
   * Roll the whole testnet back to a checkpoint (as often as wanted); endpoints stay the same. On one node the daemon
   * keeps running (and its RandomX dataset): the blocks since are popped, the pool is as it was, the wallet RPCs
   * restart on their files. Refused, changing nothing, when the chain no longer holds the checkpoint's top block.
   */
  revert(name: string): Promise<void>;
  /** Names of the checkpoints taken so far. */
  checkpoints(): string[];
  /** Save the current state as a snapshot in the cache (processes stop and start again); returns its manifest. */
  saveSnapshot(key: string): Promise<Manifest>;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The options that say how blocks are mined (a runner, a diff or the CLI passes them through as they are). */
export type MiningOptions = Pick<TestnetOptions, 'prefixDifficulty' | 'randomx' | 'miner' | 'threads'>;

/** The mining options set in `o`, for passing on. */
export function miningOptionsOf(o: MiningOptions): MiningOptions {
  return {
    ...(o.prefixDifficulty ? { prefixDifficulty: o.prefixDifficulty } : {}),
    ...(o.randomx ? { randomx: o.randomx } : {}),
    ...(o.miner ? { miner: o.miner } : {}),
    ...(o.threads ? { threads: o.threads } : {}),
  };
}

/** A long mining job's progress: a block found, or the RandomX dataset it waits for. */
export type MiningProgress =
  | {
      event: 'block';
      node: string;
      /** The height now, and the job's: from `start` to `target`. */
      height: number;
      start: number;
      target: number;
      /** Since the job started. */
      ms: number;
    }
  | { event: 'dataset'; state: 'loading' | 'building'; percent: number; etaMs: number };

export interface MiningInfo {
  difficulty: number;
  /** Undefined: the backend has no RandomX (the simulator). */
  randomx?: RandomxMode;
  threads: number;
  /**
   * `saltnet`: it hashes the blocks itself (the daemon verifies them in light mode, `randomx` says so); `daemon`: the
   * daemon's own miner. Undefined: the backend has no RandomX.
   */
  miner?: 'saltnet' | 'daemon';
}
