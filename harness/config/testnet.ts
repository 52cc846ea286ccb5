// One options value: the TestnetOptions of a resolved configuration. Every command and API that starts
// a testnet (up, run, diff, record, cache, snapshot load, the vitest global setup) builds its options
// here, from the KEYS rows marked `testnet`, so a new testnet option is one row of KEYS plus the code
// that uses it.
import type { TestnetOptions } from '../testnet/types.js';
import { KEYS, type KeySpec } from './schema.js';
import { unlockedAtomic } from './unlocked.js';

/** A flat view of configuration values: `values.backend`, `values['run.workers']` or `values.run.workers`. */
function valueOf(values: Record<string, unknown>, key: string): unknown {
  if (key in values) return values[key];
  return key.split('.').reduce<unknown>((o, seg) => (o as Record<string, unknown> | undefined)?.[seg], values);
}

/** How a key's configured value becomes its testnet option (most are the same value). */
const CONVERT: Partial<Record<string, (v: unknown, all: Record<string, unknown>) => unknown>> = {
  // coins or "1001 SAL1" → atomic units of the coin of the backend that will run
  unlocked: (v, all) => unlockedAtomic(v as number | string, (valueOf(all, 'backend') as never) ?? 'auto'),
};

/**
 * The TestnetOptions of `values` (resolved config values, or a command's parsed arguments: the same keys), then
 * `overrides` (options given in code) on top. Unset values are left out, so each testnet default applies.
 */
export function testnetOptionsOf(
  values: object,
  overrides: Partial<TestnetOptions> = {},
  keys: readonly KeySpec[] = KEYS,
): TestnetOptions {
  const all = { ...(values as Record<string, unknown>), ...(overrides as Record<string, unknown>) };
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (!k.testnet) continue;
    const given = (overrides as Record<string, unknown>)[k.key];
    if (given !== undefined) out[k.key] = given;
    else {
      const v = valueOf(values as Record<string, unknown>, k.key);
      if (v !== undefined) out[k.key] = CONVERT[k.key] ? CONVERT[k.key]!(v, all) : v;
    }
  }
  for (const [name, v] of Object.entries(overrides)) if (v !== undefined && !(name in out)) out[name] = v;
  return out as TestnetOptions;
}
