// The backends behind one interface: what differs between real Salvium, the simulator and Debian's
// Monero is data, not code paths. A new backend is one more entry in BACKENDS — in this file, or, for
// a fork's own programs and coin, registerBackend() from the fork's code: its coin (coins.ts), names,
// defaults and help texts all come with the entry, and everything else reads BACKENDS.
import { z } from 'zod';
import { suggest } from '../common/suggest.js';
import { SIM_BIN_DIR, SIM_BLOCKS_FILE, simChainHeight, simCodeHash } from '../sim/index.js';
import { lmdbEntries } from './lmdb.js';
import { MONERO_COIN, SALVIUM_COIN, unitsOf, type CoinSpec } from './coins.js';
/** The built-in backends' names; a backend registered with registerBackend() has a name of its own. */
export type BuiltinBackend = 'salvium' | 'sim' | 'monero';
export type BackendName = BuiltinBackend | (string & {});

export interface BackendSpec {
  name: BackendName;
  /** What the programs are, in messages: "real Salvium", "the built-in simulator". */
  description: string;
  /** Executable names inside a bin dir. */
  binaries: { daemon: string; walletCli: string; walletRpc: string };
  /**
   * The programs ship with saltnet (the simulator's launchers): their folder; undefined: found by --bin-dir,
   * SALTNET_BIN_DIR or PATH.
   */
  bundledBinDir?: string;
  /** How a user gets the programs when they are not found (the end of the "not found" message). */
  installHint: string;
  /** The chain's coin: its units and decimals, supply and address prefixes (coins.ts). */
  coin: CoinSpec;
  /** Atomic units of the coin a token creation burns (Salvium: 1000 SAL1); undefined: no tokens. */
  tokenCost?: bigint;
  /** Added to what a scenario's wallet needs, for the fees of moving it (atomic units of the coin). */
  feeMargin: bigint;
  /** What identifies the programs in a chain cache key when their binaries' hashes do not (the simulator: its code). */
  identity?: () => Promise<Record<string, string>>;
  /** Default `--fixed-difficulty`. */
  difficulty: number;
  /** Height (block count) from which mining needs the Carrot address; undefined: one address only. */
  carrotHeight?: number;
  /** Block count at which tokens are active (next block HF ≥ 11); undefined: no tokens. */
  tokenHeight?: number;
  /** Asset a funded wallet must hold, with the amount (atomic units) that makes it "funded". */
  fundAsset?: string;
  /** Default target height of `up`. */
  defaultHeight: number;
  /** Unlocked amount `up` waits for by default (atomic units): a token (1000 burnt) plus fees and change on Salvium. */
  defaultUnlocked: bigint;
  /**
   * First block index whose coinbase pays the fund asset (Salvium: SAL1 from HF6 at 815; SAL below is invalid from
   * HF11).
   */
  fundFromHeight: number;
  /**
   * A conservative miner reward per block (atomic units of the fund asset) around the funding heights: how many blocks
   * the main wallet needs.
   */
  typicalReward: bigint;
  /** Blocks after which a coinbase output is spendable. */
  coinbaseUnlock: number;
  /**
   * Blocks after which any other received output is spendable, counting the block that holds it (default 10:
   * CRYPTONOTE_DEFAULT_TX_SPENDABLE_AGE of Salvium and Monero). The faucet mines that far.
   */
  spendableAge?: number;
  /**
   * The programs' own default ports on testnet (`--ports standard`): the daemon's P2P, RPC and ZMQ ports, and the
   * wallet RPC's port the public guides use; undefined: the backend has none (`--ports standard` is refused).
   */
  standardPorts?: { p2p: number; rpc: number; zmq: number; walletRpc: number };
  /**
   * The fewest blocks mined to a funded wallet: outputs enough to build several transactions in a
   * row (a token's 1000 SAL1 takes 16 inputs on Salvium, and change is locked for 10 blocks).
   */
  minFundBlocks: number;
  /**
   * Extra arguments for both wallet programs. Salvium 1.1.3c's parallel block scan races on the
   * wallet's subaddress map: it segfaults in about half of the cold chain builds and silently
   * loses outputs (read with gdb; see ../shared/salvium/README.md). `--max-concurrency 1` scans on
   * one thread: no crash in 4 of 4 cold builds, every output found.
   */
  walletArgs: string[];
  /**
   * The longest to wait before /start_mining for the daemon to relay the transactions of its pool (0: it need not).
   * The real daemon relays an RPC-submitted tx through Dandelion++ on a strand of its own, after
   * /send_raw_transaction has answered: until then the tx is `local` (`relayed: false`); then it marks it `stem`,
   * fails to stem it (offline: no connections) and marks it `fluff`. A template made before the fluff leaves the tx
   * out, and the block template cache keeps that template (the relay method change does not bump the pool cookie).
   * Seen on v1.1.3c as a token created just before `mine: 1` missing from the block, in about 1 run of the example
   * suite in 5, when mining slept a fixed 250 ms; mining now polls the pool until no tx is left unrelayed
   * (DaemonClient.unrelayed; src/cryptonote_protocol/levin_notify.cpp dandelionpp_notify, tx_pool.cpp set_relayed).
   */
  relaySettleMs: number;
  /**
   * The height poll interval while mining, right after a block (default 5 ms; mining.ts pollDelay backs off from it
   * while no block comes). 0: poll again as soon as the answer is in.
   */
  heightPollMs?: number;
  /**
   * The daemon's environment for each RandomX mode (undefined: no RandomX, the simulator). Light
   * (`MONERO_RANDOMX_UMASK=4`: no dataset) hashes ~85/s on two cores in ~300 MiB; full
   * (`MONERO_RANDOMX_FULL_MEM=1`: the 2 GiB dataset, initialised on a background thread from
   * daemon start, ~55 s on two cores) hashes ~450/s. Measured on v1.1.3c: docs/difficulty.md.
   */
  randomx?: Record<RandomxMode, Record<string, string>>;
  /**
   * Log lines that mean "RPC is up". The public guide's `SYNCHRONIZED OK` is never printed by Salvium, so it is only
   * one pattern among others.
   */
  daemonReadyLines: RegExp[];
  /**
   * The file in the daemon's data dir that holds the chain (its name: it sits in a folder that depends on the network
   * and version), and how its height is read from it: a cached or imported chain state's height is checked with it.
   */
  chainFile: {
    name: string;
    height: (file: string) => Promise<number>;
    /** The height of a chain whose file is not there yet (the simulator writes it with the first block). */
    absentHeight?: number;
  };
}

/** LMDB's data file, whose `blocks` table has one entry per block (lmdb.ts). */
const LMDB_CHAIN = { name: 'data.mdb', height: (file: string) => lmdbEntries(file, 'blocks') };

const COIN = 100_000_000n;

export type RandomxMode = 'light' | 'full';
/** `auto` and the two modes, as the CLI and the config file take them. */
export const RANDOMX_CHOICES = ['auto', 'light', 'full'] as const;
export type RandomxChoice = (typeof RANDOMX_CHOICES)[number];
/**
 * Who mines the blocks after ready on a RandomX backend: saltnet itself (get_block_template and submit_block, hashed
 * in-process with the machine's librandomx and the dataset kept in the cache folder), the daemon's own miner
 * (/start_mining), or `auto`: saltnet where librandomx loads, the daemon elsewhere.
 */
export const MINER_CHOICES = ['auto', 'saltnet', 'daemon'] as const;
export type MinerChoice = (typeof MINER_CHOICES)[number];
/**
 * `auto` mines in full mode from this difficulty on: below it a block takes under a second in
 * light mode, and the dataset (2 GiB, ~55 s of both cores) does not pay for itself.
 */
export const FULL_RANDOMX_FROM = 100;

const RANDOMX: Record<RandomxMode, Record<string, string>> = {
  light: { MONERO_RANDOMX_UMASK: '4' },
  full: { MONERO_RANDOMX_FULL_MEM: '1' },
};

/** The RandomX mode a daemon serving `difficulty` runs in (undefined: the backend has no RandomX). */
export function randomxMode(spec: BackendSpec, choice: RandomxChoice, difficulty: number): RandomxMode | undefined {
  if (!spec.randomx) return undefined;
  if (choice !== 'auto') return choice;
  return difficulty >= FULL_RANDOMX_FROM ? 'full' : 'light';
}

/** Real Salvium; the simulator is the same chain without RandomX (so no RandomX environment). */
const SALVIUM: BackendSpec = {
  name: 'salvium',
  description: 'real Salvium',
  binaries: { daemon: 'salviumd', walletCli: 'salvium-wallet-cli', walletRpc: 'salvium-wallet-rpc' },
  installHint:
    'pass --bin-dir, set SALTNET_BIN_DIR, or install a release: `saltnet install --from <archive or folder>` (one you have) or `saltnet install --version V --sha256 <hex>` (a download)',
  coin: SALVIUM_COIN,
  tokenCost: 1000n * COIN,
  feeMargin: COIN,
  difficulty: 500,
  carrotHeight: 1100,
  tokenHeight: 1200,
  fundAsset: 'SAL1',
  defaultHeight: 1201,
  defaultUnlocked: 1100n * COIN,
  // 123.7 SAL1 at 815-1199, 92.8 from 1200 (reference §4.3)
  fundFromHeight: 815,
  typicalReward: 90n * COIN,
  coinbaseUnlock: 60,
  minFundBlocks: 32,
  walletArgs: ['--max-concurrency', '1'],
  relaySettleMs: 5000,
  randomx: RANDOMX,
  daemonReadyLines: [/core RPC server started ok/, /The daemon is running offline/, /SYNCHRONIZED OK/],
  // config::testnet in src/cryptonote_config.h; the wallet RPC has no default port: 29088 is the token guide's
  standardPorts: { p2p: 29080, rpc: 29081, zmq: 29082, walletRpc: 29088 },
  chainFile: LMDB_CHAIN,
};

export const BACKENDS: Record<BuiltinBackend, BackendSpec> & Record<string, BackendSpec> = {
  salvium: SALVIUM,
  // The simulator adds a submitted tx to the pool and its templates at once.
  sim: {
    ...SALVIUM,
    name: 'sim',
    description: 'the built-in simulator',
    bundledBinDir: SIM_BIN_DIR,
    installHint: 'the simulator ships with saltnet: run `npm run build` in its folder',
    identity: async () => ({ simulator: await simCodeHash() }),
    randomx: undefined,
    relaySettleMs: 0,
    // At its fast pace the simulated miner finds a block per request (harness/sim/README.md): polled every millisecond
    // it mines about as fast as it can, and the /stop_mining after the target comes a block or two past it; a poll
    // without any pause would keep a core busy with requests while a test suite shares the machine.
    heightPollMs: 1,
    chainFile: { name: SIM_BLOCKS_FILE, height: simChainHeight, absentHeight: 1 },
  },
  monero: {
    name: 'monero',
    description: "Debian's Monero",
    binaries: { daemon: 'monerod', walletCli: 'monero-wallet-cli', walletRpc: 'monero-wallet-rpc' },
    installHint: 'install them with `apt-get install -y monero`',
    coin: MONERO_COIN,
    feeMargin: 100_000_000n,
    difficulty: 1,
    defaultHeight: 70,
    // 1 XMR (12 decimals): coinbase unlocks 60 blocks after it was mined
    defaultUnlocked: 1_000_000_000_000n,
    fundFromHeight: 1,
    // ~17.6 XMR per early testnet block
    typicalReward: 10_000_000_000_000n,
    coinbaseUnlock: 60,
    minFundBlocks: 4,
    walletArgs: [],
    relaySettleMs: 5000,
    // config::testnet of Monero; its wallet RPC has no default port either: 28088 by analogy
    standardPorts: { p2p: 28080, rpc: 28081, zmq: 28082, walletRpc: 28088 },
    randomx: RANDOMX,
    daemonReadyLines: [/core RPC server started ok/, /The daemon is running offline/, /SYNCHRONIZED OK/],
    chainFile: LMDB_CHAIN,
  },
};

/** Every backend's name now (built-in and registered), in the order help texts list them. */
export function backendNames(): BackendName[] {
  return Object.keys(BACKENDS);
}
/** `auto` picks the first of these whose programs are found (the last one ships with saltnet). */
export const AUTO_ORDER: readonly BackendName[] = ['salvium', 'sim'];
/** A backend name or `auto`, as the CLI, the config file and the library take it. */
export function backendChoices(): BackendChoice[] {
  return ['auto', ...backendNames()];
}
export type BackendChoice = BackendName | 'auto';
/** Whether `v` names a backend (or `auto`) now. */
export const isBackendChoice = (v: unknown): v is BackendChoice =>
  typeof v === 'string' && backendChoices().includes(v);

/**
 * Add a backend (a fork's programs and coin) to BACKENDS, so that `--backend <name>`, the config file, scenarios'
 * `backends:`, amounts in its coin, `--unlocked`, limits and the diff know it. Refused when the name is taken.
 */
export function registerBackend(spec: BackendSpec): void {
  if (spec.name === 'auto' || spec.name in BACKENDS)
    throw new Error(`a backend named ${spec.name} exists already: choose another name`);
  if (!/^[a-z][a-z0-9-]*$/.test(spec.name))
    throw new Error(`a backend's name is lower-case letters, digits and -: ${JSON.stringify(spec.name)}`);
  BACKENDS[spec.name] = spec;
}

/** Remove a backend registered with registerBackend() (the built-in ones stay). */
export function unregisterBackend(name: string): void {
  if (['salvium', 'sim', 'monero'].includes(name)) throw new Error(`${name} is built in`);
  delete BACKENDS[name];
}

/** The spec of a backend by name; an unknown name is an error that lists the backends there are. */
export function backendSpec(name: BackendName): BackendSpec {
  const spec = (BACKENDS as Record<string, BackendSpec | undefined>)[name];
  if (!spec) throw new Error(`unknown backend ${JSON.stringify(name)}; backends: ${backendNames().join(', ')}`);
  return spec;
}

/** Every amount unit of every backend's coin now, with its decimals. */
export function amountUnits(): Map<string, number> {
  return unitsOf(Object.values(BACKENDS).map((b) => b.coin));
}

/** The backend whose coin has this unit (the first: the simulator shares Salvium's). */
export function backendOfUnit(unit: string): BackendSpec | undefined {
  return Object.values(BACKENDS).find((b) => unitsOf([b.coin]).has(unit));
}

/** "500, monero: 1": a value per backend, the first alone and the others named where they differ from it. */
export function perBackend(value: (b: BackendSpec) => string): string {
  const [first, ...rest] = Object.values(BACKENDS);
  const base = value(first!);
  const others = rest.filter((b) => value(b) !== base).map((b) => `${b.name}: ${value(b)}`);
  return [base, ...others].join('; ');
}

/** The asset wallets are funded in and amounts are counted in: the fund asset (SAL1), else the coin's unit (XMR). */
export function fundingAsset(spec: BackendSpec): string {
  return spec.fundAsset ?? spec.coin.unit;
}

/**
 * A backend's name (or, with `auto`, a choice) in a schema: checked against BACKENDS when the value is read, so a
 * registered backend is accepted; the JSON Schema lists the built-in ones.
 */
export function backendNameSchema(o: { auto: boolean }): z.ZodType<BackendName> {
  const names = (): string[] => (o.auto ? backendChoices() : backendNames());
  return z
    .string()
    .refine((v) => names().includes(v), {
      error: (iss) => {
        const near = typeof iss.input === 'string' ? suggest(iss.input, names()) : undefined;
        return `${JSON.stringify(iss.input)} is not one of: ${names().join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`;
      },
    })
    .meta({ enum: names() });
}
