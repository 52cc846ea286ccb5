// What the global setup hands to the test workers through vitest's provide/inject: plain JSON
// (strings, numbers, booleans), because vitest sends it to every worker process. Everything a
// worker needs to reach the testnet, and to start wallet RPC processes of its own, is here.
import type { ControlInfo } from '../control/client.js';
import { fundingAsset } from '../coin/backends.js';
import type { BackendName } from '../coin/backends.js';
import type { Testnet } from '../testnet/testnet.js';
import type { VitestTimeouts } from './timeouts.js';

/** The CN (or only) address and, on Salvium, the Carrot one. */
export interface ContextAddresses {
  cn: string;
  carrot?: string;
}

/** In the context (plain JSON): the wallets funded ahead of one amount, by file name in the testnet's workdir. */
export interface ContextFunded {
  /** Atomic units, as decimal text. */
  unlocked: string;
  wallets: string[];
}

export interface SaltnetContext {
  /** The shape's version: a worker built against another saltnet says so instead of misreading it. */
  version: 1;
  /** The backend that runs (auto already resolved): salvium, sim or monero. */
  backend: BackendName;
  /** What tests may branch on, from the backend's spec: its name, fund asset and fork heights. */
  spec: { name: BackendName; asset: string; carrotHeight?: number; tokenHeight?: number };
  /** Which programs run and why (e.g. "sim backend (the built-in simulator)"). */
  backendReason: string;
  daemonUrl: string;
  /** The main wallet: funded, shared by every worker. Spend from it only through freshWallet's funding. */
  wallet: {
    url: string;
    addresses: ContextAddresses;
    /** Where transfers to it should go on this chain (Carrot from the Carrot height on Salvium). */
    address: string;
    /** HTTP Digest login (login: digest only). */
    credentials?: { username: string; password: string };
  };
  /** The wallet that receives the blocks mined only for height (no process serves it). */
  miner: { addresses: ContextAddresses };
  /** Chain height when the testnet came up. */
  height: number;
  /** The testnet's folder (logs/ has every process's log). */
  workdir: string;
  /** The testnet's run id in the run registry (`saltnet status`). */
  runId: string;
  /** The programs, so a worker can start its own wallet RPC. */
  binaries: { daemon: string; walletCli: string; walletRpc: string };
  snapshot: { status: 'hit' | 'built' | 'rebuilt' | 'reused' | 'off'; key?: string };
  /** How blocks are mined now: the daemon's difficulty and the threads `mine` and funding ask for. */
  mining?: { difficulty: number; threads: number };
  /** The global setup's timeout factor: workers scale their deadlines the same way. */
  timeoutFactor: number;
  /**
   * The test and hook timeouts (ms) that fit the backend and difficulty, never below vitest's configured ones:
   * saltnet/vitest/setup applies them to every test file.
   */
  timeouts?: VitestTimeouts;
  /** A testnet of several nodes (`nodes: 2` or more): each node's daemon, n0 first. */
  nodes?: { name: string; url: string }[];
  /**
   * The testnet's control endpoint: automine and the faucet (and, with several nodes, partitions and heals) run in the
   * process that owns the testnet.
   */
  control?: ControlInfo;
  /** Wallets funded ahead (the global setup's freshWallets), by amount: freshWallet of such an amount claims one. */
  funded?: ContextFunded[];
}

/** The context of a running testnet. */
export function contextOf(
  t: Testnet,
  timeoutFactor: number,
  control?: ControlInfo,
  funded?: ContextFunded[],
  timeouts?: VitestTimeouts,
): SaltnetContext {
  const spec = t.backend.spec;
  const plain = (a: { cn: string; carrot?: string | undefined }): ContextAddresses => ({
    cn: a.cn,
    ...(a.carrot ? { carrot: a.carrot } : {}),
  });
  return {
    version: 1,
    backend: spec.name,
    spec: {
      name: spec.name,
      asset: fundingAsset(spec),
      ...(spec.carrotHeight !== undefined ? { carrotHeight: spec.carrotHeight } : {}),
      ...(spec.tokenHeight !== undefined ? { tokenHeight: spec.tokenHeight } : {}),
    },
    backendReason: t.backend.reason,
    daemonUrl: t.daemon.url,
    wallet: {
      url: t.wallet.url,
      addresses: plain(t.wallet.addresses),
      address: t.wallet.address,
      ...(t.wallet.credentials
        ? { credentials: { username: t.wallet.credentials.username, password: t.wallet.credentials.password } }
        : {}),
    },
    miner: { addresses: plain(t.miner.addresses) },
    height: t.readyHeight,
    workdir: t.workdir,
    runId: t.runId,
    binaries: {
      daemon: t.backend.paths.daemon,
      walletCli: t.backend.paths.walletCli,
      walletRpc: t.backend.paths.walletRpc,
    },
    snapshot: { status: t.snapshot.status, ...(t.snapshot.key ? { key: t.snapshot.key } : {}) },
    mining: { difficulty: t.mining.difficulty, threads: t.mining.threads },
    timeoutFactor,
    ...(timeouts ? { timeouts } : {}),
    ...(control ? { control: { url: control.url, tokenFile: control.tokenFile } } : {}),
    ...(t.nodes.length > 1 ? { nodes: t.nodes.map((n) => ({ name: n.name, url: n.url })) } : {}),
    ...(funded?.length ? { funded } : {}),
  };
}

/** The context, checked: a missing or foreign value names the fix (the globalSetup entry). */
export function checkContext(ctx: unknown): SaltnetContext {
  if (ctx === undefined || ctx === null) {
    throw new Error(
      "no saltnet testnet in this vitest run: inject('saltnet') is undefined. Add globalSetup: ['saltnet/vitest/global-setup'] to the test options of vitest.config.ts",
    );
  }
  const c = ctx as Partial<SaltnetContext>;
  if (
    typeof c !== 'object' ||
    c.version !== 1 ||
    typeof c.daemonUrl !== 'string' ||
    typeof c.wallet?.url !== 'string'
  ) {
    throw new Error(
      `the saltnet context is not one this saltnet understands (version ${String(c.version)}): are the global setup and the tests using the same saltnet package?`,
    );
  }
  return c as SaltnetContext;
}

declare module 'vitest' {
  export interface ProvidedContext {
    saltnet: SaltnetContext;
  }
}
