// The options that describe a testnet, shared by `up`, `cache build`, `cache key` and `snapshot load`.
import type { Argv } from 'yargs';
import { unlockedAtomic } from '../config/unlocked.js';
import type { BackendName } from '../testnet/backends.js';
import type { TestnetOptions } from '../testnet/testnet.js';

export interface TestnetArgs {
  backend: BackendName | 'auto';
  binDir?: string;
  difficulty?: number;
  height?: number;
  /** Coins (a number) or an amount with its unit ("1100 SAL1", from a config file). */
  unlocked?: number | string;
  cacheDir?: string;
  snapshots: boolean;
  threads?: number;
  walletCreation: 'cli' | 'rpc';
}

export function testnetOptions<T>(y: Argv<T>): Argv<T & TestnetArgs> {
  return y
    .option('backend', { choices: ['auto', 'salvium', 'sim', 'monero'] as const, default: 'auto' as const, describe: 'which programs to run (auto: real Salvium if found, else the simulator)' })
    .option('bin-dir', { type: 'string', describe: 'folder with salviumd, salvium-wallet-cli, salvium-wallet-rpc (or SALTNET_BIN_DIR)' })
    .option('difficulty', { type: 'number', describe: 'fixed difficulty (default 500; 1 on monero)' })
    .option('height', { type: 'number', describe: 'mine to this height (default 1201: tokens active; 70 on monero)' })
    .option('unlocked', { type: 'number', describe: 'the main wallet holds this many unlocked coins (default 1100 SAL1: a token plus fees and change; 1 XMR on monero)' })
    .option('cache-dir', { type: 'string', describe: 'chain-state cache folder (or SALTNET_CACHE_DIR; default ~/.cache/saltnet)' })
    .option('snapshots', { type: 'boolean', default: true, describe: 'restore the chain state from the cache, or build and save it (--no-snapshots: always mine from scratch)' })
    .option('threads', { type: 'number', describe: 'mining threads (default 1)' })
    .option('wallet-creation', { choices: ['cli', 'rpc'] as const, default: 'cli' as const, describe: "restore the fixture wallets with the wallet CLI, or with the wallet RPC's restore_deterministic_wallet" }) as unknown as Argv<T & TestnetArgs>;
}

/** Coins → atomic units of the backend's asset (SAL1: 8 decimals; XMR: 12). */
export function coinsToAtomic(backend: BackendName | 'auto', coins: number): bigint {
  const decimals = backend === 'monero' ? 12 : 8;
  const [whole, frac = ''] = String(coins).split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt((frac + '0'.repeat(decimals)).slice(0, decimals) || '0');
}

export function toTestnetOptions(a: TestnetArgs): TestnetOptions {
  if (a.height !== undefined && !(Number.isInteger(a.height) && a.height >= 1)) throw new Error(`--height must be a whole number >= 1, got ${a.height}`);
  if (a.difficulty !== undefined && !(Number.isInteger(a.difficulty) && a.difficulty >= 1)) throw new Error(`--difficulty must be a whole number >= 1, got ${a.difficulty}`);
  if (typeof a.unlocked === 'number' && !(a.unlocked >= 0)) throw new Error(`--unlocked must be a number of coins >= 0, got ${a.unlocked}`);
  return {
    backend: a.backend,
    ...(a.binDir ? { binDir: a.binDir } : {}),
    ...(a.difficulty !== undefined ? { difficulty: a.difficulty } : {}),
    ...(a.height !== undefined ? { height: a.height } : {}),
    ...(a.unlocked !== undefined ? { unlocked: typeof a.unlocked === 'string' ? unlockedAtomic(a.unlocked, a.backend === 'monero' ? 'monero' : 'sim') : coinsToAtomic(a.backend, a.unlocked) } : {}),
    ...(a.cacheDir ? { cacheDir: a.cacheDir } : {}),
    ...(a.threads ? { threads: a.threads } : {}),
    snapshots: a.snapshots,
    walletCreation: a.walletCreation,
  };
}


