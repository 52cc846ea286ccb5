// The options that describe a testnet, shared by `up`, `cache build`, `cache key` and `snapshot load`.
import type { Argv } from 'yargs';
import { KEY_SPECS, type ConfigValues } from '../config/schema.js';
import { unlockedAtomic } from '../config/unlocked.js';
import { configOption } from '../config/yargs.js';
import type { TestnetOptions } from '../testnet/testnet.js';
import { miningOptionsOf } from '../testnet/types.js';

/** The testnet keys of the configuration (config/schema.ts), as a command's parsed arguments. */
export type TestnetArgs = Pick<ConfigValues, 'backend' | 'snapshots' | 'walletCreation'> &
  Partial<Pick<ConfigValues, 'binDir' | 'difficulty' | 'height' | 'unlocked' | 'cacheDir'>> &
  MiningArgs;

/**
 * How blocks are mined: the chain state's difficulty, the RandomX mode, threads (`up`, `run`, `diff`, `record`,
 * `cache`).
 */
export type MiningArgs = Partial<Pick<ConfigValues, 'prefixDifficulty' | 'randomx' | 'threads'>>;
const MINING_KEYS = ['prefixDifficulty', 'randomx', 'threads'] as const;

/** The keys every testnet-starting command takes, each declared once, in config/schema.ts's KEYS. */
const TESTNET_KEYS = [
  'backend',
  'binDir',
  'difficulty',
  'height',
  'unlocked',
  'cacheDir',
  'snapshots',
  'walletCreation',
] as const;

function withKeys<T>(
  y: Argv<T>,
  keys: readonly ((typeof TESTNET_KEYS)[number] | (typeof MINING_KEYS)[number])[],
): Argv<T> {
  let out: Argv<T> = y;
  for (const key of keys) out = out.option(KEY_SPECS.get(key)!.flag!, configOption(key));
  return out;
}

export function testnetOptions<T>(y: Argv<T>): Argv<T & TestnetArgs> {
  return withKeys(y, [...TESTNET_KEYS, ...MINING_KEYS]) as unknown as Argv<T & TestnetArgs>;
}

export function miningOptions<T>(y: Argv<T>): Argv<T & MiningArgs> {
  return withKeys(y, MINING_KEYS) as unknown as Argv<T & MiningArgs>;
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
    ...miningOptionsOf(a),
    snapshots: a.snapshots,
    walletCreation: a.walletCreation,
  };
}
