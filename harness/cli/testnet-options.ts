// The options that describe a testnet, shared by `up`, `cache build`, `cache key` and `snapshot load`.
import type { Argv } from 'yargs';
import { NUMBER_RULES, numberOption } from '../config/numbers.js';
import { parseUnlockedText, unlockedAtomic } from '../config/unlocked.js';
import type { BackendName } from '../testnet/backends.js';
import type { TestnetOptions } from '../testnet/testnet.js';
import { BACKEND_CHOICES } from '../testnet/backends.js';

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
    .option('backend', { choices: BACKEND_CHOICES, default: 'auto' as const, describe: 'which programs to run (auto: real Salvium if found, else the simulator)' })
    .option('bin-dir', { type: 'string', describe: 'folder with salviumd, salvium-wallet-cli, salvium-wallet-rpc (or SALTNET_BIN_DIR)' })
    .option('difficulty', numberOption('difficulty', NUMBER_RULES.difficulty, 'fixed difficulty (default 500; 1 on monero)'))
    .option('height', numberOption('height', NUMBER_RULES.height, 'mine to this height (default 1201: tokens active; 70 on monero)'))
    .option('unlocked', {
      type: 'string',
      coerce: (v: unknown) => parseUnlockedText('--unlocked', v),
      describe: "the main wallet holds this much unlocked: coins (1100) or an amount with its unit ('1100 SAL1') (default 1100 SAL1: a token plus fees and change; 1 XMR on monero)",
    })
    .option('cache-dir', { type: 'string', describe: 'chain-state cache folder (or SALTNET_CACHE_DIR; default ~/.cache/saltnet)' })
    .option('snapshots', { type: 'boolean', default: true, describe: 'restore the chain state from the cache, or build and save it (--no-snapshots: always mine from scratch)' })
    .option('threads', numberOption('threads', NUMBER_RULES.threads, 'mining threads (default 1)'))
    .option('wallet-creation', { choices: ['cli', 'rpc'] as const, default: 'cli' as const, describe: "restore the fixture wallets with the wallet CLI, or with the wallet RPC's restore_deterministic_wallet" }) as unknown as Argv<T & TestnetArgs>;
}

/**
 * The testnet options of the parsed arguments. Flags were checked as they were parsed (numbers.ts)
 * and config values by their schema; what is left to check needs the backend: how many decimals
 * `unlocked` may have (SAL1: 8, XMR: 12) and whether its unit is the backend's coin.
 */
export function toTestnetOptions(a: TestnetArgs): TestnetOptions {
  return {
    backend: a.backend,
    ...(a.binDir ? { binDir: a.binDir } : {}),
    ...(a.difficulty !== undefined ? { difficulty: a.difficulty } : {}),
    ...(a.height !== undefined ? { height: a.height } : {}),
    ...(a.unlocked !== undefined ? { unlocked: unlockedAtomic(a.unlocked, a.backend) } : {}),
    ...(a.cacheDir ? { cacheDir: a.cacheDir } : {}),
    ...(a.threads ? { threads: a.threads } : {}),
    snapshots: a.snapshots,
    walletCreation: a.walletCreation,
  };
}


