// The config file's keys in one table: for each key its zod schema, its command-line flag, its
// environment variable, its built-in default and what to say when it is wrong. The file schema, the
// environment mapping, the flag mapping, the defaults and the README's key table all follow from it.
import { z } from 'zod';
import { formatAmountShort, isAmountString } from '../coin/amounts.js';
import { describeRule, NUMBER_RULES, ranged, type NumberRule } from './numbers.js';
import { RUN_POOL_ROW, RUN_WORKERS_ROW } from './run-rows.js';
import { FRESH_WALLETS_ROW } from './vitest-rows.js';

import {
  backendChoices,
  backendNameSchema,
  FULL_RANDOMX_FROM,
  perBackend,
  MINER_CHOICES,
  RANDOMX_CHOICES,
  type BackendChoice,
} from '../coin/backends.js';
import { PREFIX_MODES } from '../testnet/chain/chain-cache.js';
import {
  DEFAULT_LOOKAHEAD,
  LOOKAHEAD_EXPECTED,
  WALLET2_LOOKAHEAD,
  lookaheadSchema,
} from '../testnet/programs/lookahead.js';
import { PORT_CHOICES } from '../testnet/programs/standard-ports.js';

export const LOGIN_CHOICES = ['none', 'digest'] as const;
export const WALLET_CREATION_CHOICES = ['cli', 'rpc'] as const;
export const ISOLATION_CHOICES = ['shared', 'fresh'] as const;
export const REPORTER_CHOICES = ['human', 'junit', 'json'] as const;

const text = z.string().trim().min(1);

/** A number of coins (1001: the backend's coin), or an amount with its unit ("1001 SAL1", "1 XMR"). */
const unlockedSchema = z.union([z.number().nonnegative().finite(), z.string().refine((s) => isAmountString(s))]);

/** Globs: one string or a list of them; always a list afterwards. */
const globsSchema = z.union([text.transform((s) => [s]), z.array(text).min(1)]);

/** Which testnet-starting commands take a testnet key as a flag (KeySpecRow.testnet). */
export type TestnetScope = 'any' | 'chain' | 'up';
export const TESTNET_SCOPES: readonly TestnetScope[] = ['any', 'chain', 'up'];

/** One row of KEYS, before its key is known to be one of them. */
export interface KeySpecRow {
  /** The key, written as a dotted path (`run.workers`) wherever one flat name is needed. */
  key: string;
  schema: z.ZodType;
  /** What a valid value looks like, for error messages. */
  expected: string;
  /** The command-line option (kebab-case, without --); `positional` for `run <files..>`. */
  flag?: string;
  positional?: boolean;
  /** The environment variable, for the few keys a team sets per machine or per CI job. */
  env?: string;
  /** The built-in value; absent when the command picks one later (e.g. per backend). */
  default?: unknown;
  /** What "unset" means, for keys without a built-in value (doctor and the README say it). */
  unset?: string;
  /** A folder or file: relative values resolve against the config file's folder (the cwd for flags and env). */
  path?: 'path' | 'globs';
  /** One line for the README and --help texts. */
  describe: string;
  /** A number key's range: environment text is parsed by numbers.ts with it. */
  number?: NumberRule;
  /** The values a flag takes, from BACKENDS now (a registered backend included); for an enum, its options. */
  choices?: () => readonly string[];
  /** Resolution always fills it in (from somewhere other than a built-in `default`, e.g. the cache folder). */
  filled?: true;
  /**
   * A testnet option: the value of `TestnetOptions` of the same name (testnetOptionsOf, config/testnet.ts) for every
   * command and API that starts a testnet (up, run, diff, record, cache, snapshot load, the vitest global setup), and
   * which commands take it as a flag: `any` every one of them; `chain` those that say which chain to build (up, cache,
   * record, snapshot load: run and diff take the chain from the scenarios); `up` those that start one testnet to keep
   * (up, snapshot load).
   */
  testnet?: TestnetScope;
  /** The flag is declared once for every command (`--timeout-factor`), not per command. */
  global?: true;
}

const choices = (c: readonly string[]): string => `one of ${c.join(', ')}`;

/** The table: each row's types are kept (`as const`), so the config's types below are derived from it. */
export const KEY_TABLE = [
  {
    key: 'backend',
    testnet: 'any',
    schema: backendNameSchema({ auto: true }) as z.ZodType<BackendChoice>,
    choices: backendChoices,
    expected: choices(backendChoices()),
    flag: 'backend',
    env: 'SALTNET_BACKEND',
    default: 'auto',
    describe: 'which programs to run (auto: real Salvium if found, else the simulator)',
  },
  {
    key: 'binDir',
    testnet: 'any',
    schema: text,
    expected: 'a folder (relative to the config file)',
    flag: 'bin-dir',
    env: 'SALTNET_BIN_DIR',
    unset: 'look on PATH, then the newest release `saltnet install` put in the cache',
    path: 'path',
    describe: 'folder with salviumd, salvium-wallet-cli, salvium-wallet-rpc',
  },
  {
    key: 'difficulty',
    testnet: 'any',
    schema: ranged(NUMBER_RULES.difficulty),
    number: NUMBER_RULES.difficulty,
    expected: describeRule(NUMBER_RULES.difficulty),
    flag: 'difficulty',
    // every backend's own, from BACKENDS when help is shown: "the backend's (500; monero: 1)"
    get unset() {
      return `the backend's (${perBackend((b) => String(b.difficulty))})`;
    },
    describe: 'fixed mining difficulty',
  },
  {
    key: 'prefixDifficulty',
    testnet: 'any',
    schema: z.enum(PREFIX_MODES),
    expected: choices(PREFIX_MODES),
    flag: 'prefix-difficulty',
    env: 'SALTNET_PREFIX_DIFFICULTY',
    default: 'cheap',
    describe:
      'mine the chain state up to `height` at difficulty 1 and serve it at `difficulty` (cheap), or mine every block at `difficulty` (same)',
  },
  {
    key: 'randomx',
    testnet: 'any',
    schema: z.enum(RANDOMX_CHOICES),
    expected: choices(RANDOMX_CHOICES),
    flag: 'randomx',
    env: 'SALTNET_RANDOMX',
    default: 'auto',
    describe: `RandomX mode of the miner: full (the 2 GiB dataset: ~10x the hash rate of light), light, or auto (saltnet's own miner: the cheaper for each job; the daemon's: full from difficulty ${FULL_RANDOMX_FROM})`,
  },
  {
    key: 'miner',
    testnet: 'any',
    schema: z.enum(MINER_CHOICES),
    expected: choices(MINER_CHOICES),
    flag: 'miner',
    env: 'SALTNET_MINER',
    default: 'auto',
    describe:
      'who mines the blocks after ready on real Salvium: saltnet (it hashes them itself with librandomx, its dataset kept in the cache folder), daemon (its own miner, /start_mining), or auto (saltnet where librandomx is installed)',
  },
  {
    key: 'height',
    testnet: 'chain',
    schema: ranged(NUMBER_RULES.height),
    number: NUMBER_RULES.height,
    expected: describeRule(NUMBER_RULES.height),
    flag: 'height',
    get unset() {
      return `the backend's (${perBackend((b) => `${b.defaultHeight}${b.tokenHeight && b.defaultHeight > b.tokenHeight ? ', tokens active' : ''}`)})`;
    },
    describe: '`up` mines to this height',
  },
  {
    key: 'unlocked',
    testnet: 'chain',
    schema: unlockedSchema,
    expected: 'a number of coins (e.g. 1001) or an amount with its unit (e.g. "1001 SAL1", "1 XMR")',
    flag: 'unlocked',
    get unset() {
      return `the backend's (${perBackend((b) => `${formatAmountShort(b.defaultUnlocked, b.coin.unit)}${b.tokenCost ? ', a token plus fees and change' : ''}`)})`;
    },
    describe: '`up` waits until the wallet holds this much, unlocked',
  },
  {
    key: 'workdir',
    testnet: 'up',
    schema: text,
    expected: 'a folder (relative to the config file)',
    flag: 'workdir',
    unset: 'a temporary folder, removed on a clean stop',
    path: 'path',
    describe: 'keep data dirs, wallets and logs here',
  },
  {
    key: 'cacheDir',
    testnet: 'any',
    filled: true,
    schema: text,
    expected: 'a folder (relative to the config file)',
    flag: 'cache-dir',
    env: 'SALTNET_CACHE_DIR',
    unset: '$XDG_CACHE_HOME/saltnet, else ~/.cache/saltnet',
    path: 'path',
    describe: 'where chain-state snapshots are kept',
  },
  {
    key: 'login',
    testnet: 'up',
    schema: z.enum(LOGIN_CHOICES),
    expected: choices(LOGIN_CHOICES),
    flag: 'login',
    default: 'none',
    describe: 'wallet RPC login: none, or HTTP Digest with generated credentials',
  },
  {
    key: 'walletCreation',
    testnet: 'chain',
    schema: z.enum(WALLET_CREATION_CHOICES),
    expected: choices(WALLET_CREATION_CHOICES),
    flag: 'wallet-creation',
    default: 'cli',
    describe: "restore the fixture wallets with the wallet CLI, or with the wallet RPC's restore_deterministic_wallet",
  },
  {
    key: 'subaddressLookahead',
    testnet: 'any',
    schema: lookaheadSchema,
    expected: LOOKAHEAD_EXPECTED,
    flag: 'subaddress-lookahead',
    env: 'SALTNET_SUBADDRESS_LOOKAHEAD',
    default: DEFAULT_LOOKAHEAD,
    describe: `subaddress lookahead (major:minor) of the wallets saltnet creates with the wallet CLI; small, so that a wallet RPC starts fast. A payment to a subaddress beyond it is not seen until the wallet creates that subaddress (${WALLET2_LOOKAHEAD}: the wallet's own default)`,
  },
  {
    key: 'threads',
    testnet: 'any',
    schema: ranged(NUMBER_RULES.threads),
    number: NUMBER_RULES.threads,
    expected: describeRule(NUMBER_RULES.threads),
    flag: 'threads',
    unset: 'one at difficulty 1 (a block is one hash), every core above',
    describe: 'mining threads',
  },
  {
    key: 'mineOnTx',
    testnet: 'up',
    schema: z.boolean(),
    expected: 'true or false',
    flag: 'mine-on-tx',
    default: false,
    describe:
      'automine: mine a block as soon as the pool holds a transaction (every wallet synced after it); `saltnet automine` switches it at run time',
  },
  {
    key: 'blockTime',
    testnet: 'up',
    schema: ranged(NUMBER_RULES.blockTime),
    number: NUMBER_RULES.blockTime,
    expected: `${describeRule(NUMBER_RULES.blockTime)} (seconds; 0: none)`,
    flag: 'block-time',
    unset: 'none: blocks only on request (or with --mine-on-tx)',
    describe: 'automine: mine a block every this many seconds (with --mine-on-tx too: both)',
  },
  {
    key: 'ports',
    testnet: 'up',
    schema: z.enum(PORT_CHOICES),
    expected: choices(PORT_CHOICES),
    flag: 'ports',
    default: 'random',
    describe:
      "random: free loopback ports; standard: the programs' own testnet ports (daemon RPC 29081, ZMQ 29082, P2P 29080, wallet RPC 29088), so a guide's curl lines run as written",
  },
  {
    key: 'ui',
    schema: z.boolean(),
    expected: 'true or false',
    flag: 'ui',
    default: false,
    describe: '`up` serves the explorer: a page on 127.0.0.1 with the chain, pool, tokens, wallets and programs, live',
  },
  {
    key: 'nodes',
    testnet: 'up',
    schema: ranged(NUMBER_RULES.nodes),
    number: NUMBER_RULES.nodes,
    expected: describeRule(NUMBER_RULES.nodes),
    flag: 'nodes',
    default: 1,
    describe:
      'daemons n0, n1, … on 127.0.0.1, joined to each other through links saltnet owns (saltnet partition / heal); a scenario asks for its own with nodes:',
  },
  {
    key: 'timeoutFactor',
    testnet: 'any',
    global: true,
    schema: ranged(NUMBER_RULES.timeoutFactor),
    number: NUMBER_RULES.timeoutFactor,
    expected: `${describeRule(NUMBER_RULES.timeoutFactor)} (slow machines: 2 or 3)`,
    flag: 'timeout-factor',
    env: 'SALTNET_TIMEOUT_FACTOR',
    default: 1,
    describe: 'scale every deadline',
  },
  {
    key: 'snapshots',
    testnet: 'any',
    schema: z.boolean(),
    expected: 'true or false',
    flag: 'snapshots',
    default: true,
    describe: 'use the chain-state cache (`--no-snapshots`: mine from scratch)',
  },
  FRESH_WALLETS_ROW,
  {
    key: 'run.isolation',
    schema: z.enum(ISOLATION_CHOICES),
    expected: choices(ISOLATION_CHOICES),
    flag: 'isolation',
    default: 'shared',
    describe: 'shared: one testnet, a fresh wallet per scenario; fresh: a testnet per scenario',
  },
  RUN_WORKERS_ROW,
  RUN_POOL_ROW,
  {
    key: 'run.reporter',
    schema: z.enum(REPORTER_CHOICES),
    expected: choices(REPORTER_CHOICES),
    flag: 'reporter',
    default: 'human',
    describe: 'report format',
  },
  {
    key: 'run.artifacts',
    schema: text,
    expected: 'a folder (relative to the config file)',
    flag: 'artifacts',
    default: '.saltnet/artifacts',
    path: 'path',
    describe: "folder for each scenario run's artifacts",
  },
  {
    key: 'run.bail',
    schema: z.boolean(),
    expected: 'true or false',
    flag: 'bail',
    default: false,
    describe: 'stop at the first failed scenario',
  },
  {
    key: 'run.files',
    schema: globsSchema,
    expected: 'a glob or a list of globs (relative to the config file), e.g. scenarios/*.yaml',
    flag: 'files',
    positional: true,
    unset: 'none: `saltnet run` needs files on the command line',
    path: 'globs',
    describe: 'scenario files `saltnet run` runs when the command line names none',
  },
] as const satisfies readonly KeySpecRow[];

/** Every key of the configuration. */
export type ConfigKey = (typeof KEY_TABLE)[number]['key'];
/** A row of KEYS. */
export type KeySpec = KeySpecRow & { key: ConfigKey };
/** The keys that are testnet options a command of this scope takes as flags (a TestnetScope and those within it). */
export type TestnetKey<S extends TestnetScope> = Extract<
  (typeof KEY_TABLE)[number],
  { testnet: S extends 'any' ? 'any' : S extends 'chain' ? 'any' | 'chain' : TestnetScope }
>['key'];

/** The keys in order, each as a KeySpec: what code iterates. */
export const KEYS: readonly KeySpec[] = KEY_TABLE;

export const KEY_SPECS: ReadonlyMap<ConfigKey, KeySpec> = new Map(KEYS.map((k) => [k.key, k]));

/** The `run:` section's own entry, for messages about `run` itself. */
export const RUN_EXPECTED = `a mapping of run options: ${KEYS.filter((k) => k.key.startsWith('run.'))
  .map((k) => k.key.slice(4))
  .join(', ')}`;

function section(prefix: string): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const k of KEYS) {
    const rest = prefix
      ? k.key.startsWith(`${prefix}.`)
        ? k.key.slice(prefix.length + 1)
        : undefined
      : k.key.includes('.')
        ? undefined
        : k.key;
    if (rest !== undefined) out[rest] = k.schema.optional();
  }
  return out;
}

/** The whole file: every key optional, unknown keys rejected (typos must not be ignored silently). */
export const configFileSchema = z.strictObject({ ...section(''), run: z.strictObject(section('run')).optional() });

type Row<K extends ConfigKey> = Extract<(typeof KEY_TABLE)[number], { key: K }>;
type TopKey = Exclude<ConfigKey, `${string}.${string}`>;
type RunKey = ConfigKey extends infer K ? (K extends `run.${infer R}` ? R : never) : never;
type Input<K extends ConfigKey> = z.input<Row<K>['schema']>;
type Output<K extends ConfigKey> = z.output<Row<K>['schema']>;
/** Keys resolution always gives a value: a built-in default, or filled in another way. */
type Filled<K extends ConfigKey> = K extends ConfigKey
  ? Row<K> extends { default: unknown } | { filled: true }
    ? K
    : never
  : never;
type Values<Ks extends string, Full extends ConfigKey, Prefix extends string> = {
  [K in Ks as `${Prefix}${K}` extends Filled<Full> ? K : never]: Output<`${Prefix}${K}` & ConfigKey>;
} & { [K in Ks as `${Prefix}${K}` extends Filled<Full> ? never : K]?: Output<`${Prefix}${K}` & ConfigKey> };

/** A config file's contents as written (what defineConfig() takes): every key of KEYS, optional. */
export type SaltnetConfig = { [K in TopKey]?: Input<K> } & { run?: { [R in RunKey]?: Input<`run.${R}` & ConfigKey> } };

/**
 * The resolved configuration: paths absolute, every key with a built-in default (or filled in otherwise) present,
 * the others optional (unset: the backend's, a temporary folder, PATH… — each row's `unset` says).
 */
export type ConfigValues = Values<TopKey, ConfigKey, ''> & { run: Values<RunKey, ConfigKey, 'run.'> };
