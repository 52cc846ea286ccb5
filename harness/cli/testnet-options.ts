// The testnet options a command takes as flags, every one a row of config/schema.ts's KEYS marked
// `testnet`: `run` and `diff` take the `any` rows; `cache` and `record` the `chain` rows too (they say
// which chain to build); `up` and `snapshot load` also the `up` rows (workdir, login). Their values
// become TestnetOptions in config/testnet.ts (testnetOptionsOf), so a new testnet option is one row.
import type { Argv } from 'yargs';
import { KEYS, TESTNET_SCOPES, type ConfigValues, type TestnetKey, type TestnetScope } from '../config/schema.js';
import { testnetOptionsOf } from '../config/testnet.js';
import { configOption } from '../config/yargs.js';
import type { TestnetOptions } from '../testnet/testnet.js';
import { progressLog } from './progress-log.js';

type Flat = ConfigValues & { [K in keyof ConfigValues['run'] as `run.${K & string}`]: ConfigValues['run'][K] };

/** A command's parsed testnet arguments at a scope: the configured values of those keys. */
export type TestnetArgsOf<S extends TestnetScope> = Partial<Pick<Flat, TestnetKey<S> & keyof Flat>> &
  Pick<ConfigValues, 'backend'>;
/** `up` and `snapshot load`: every testnet key. */
export type TestnetArgs = TestnetArgsOf<'up'>;

/** The rows a command of this scope takes as flags (not the global ones: --timeout-factor). */
export function testnetKeys(scope: TestnetScope, except: readonly string[] = [], keys = KEYS): typeof KEYS {
  const within = TESTNET_SCOPES.slice(0, TESTNET_SCOPES.indexOf(scope) + 1);
  return keys.filter((k) => k.testnet && within.includes(k.testnet) && k.flag && !k.global && !except.includes(k.key));
}

/** Declare the testnet flags of `scope` (each from its row: choices, numbers, default, env, help). */
export function testnetOptions<T, S extends TestnetScope = 'chain'>(
  y: Argv<T>,
  scope: S = 'chain' as S,
  except: readonly string[] = [],
  keys = KEYS,
): Argv<T & TestnetArgsOf<S>> {
  let out: Argv<T> = y;
  for (const k of testnetKeys(scope, except, keys)) out = out.option(k.flag!, configOption(k));
  return out as unknown as Argv<T & TestnetArgsOf<S>>;
}

/**
 * The TestnetOptions of a command's arguments. Flags were checked as they were parsed (numbers.ts) and config values by
 * their schema; what needs the backend (how many decimals `unlocked` may have, whether its unit is the backend's coin)
 * is checked here.
 */
export function toTestnetOptions(a: object, overrides: Partial<TestnetOptions> = {}): TestnetOptions {
  // --verbose (every command's): the lines a testnet keeps to itself otherwise (TestnetOptions.detail).
  const verbose = (a as { verbose?: boolean }).verbose === true;
  return testnetOptionsOf(a, { ...(verbose ? { detail: progressLog } : {}), ...overrides });
}
