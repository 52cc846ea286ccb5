// Rows of the config table (schema.ts) for how `saltnet run` spreads its work: workers, and the
// pool of testnets a fresh-isolation run (and the vitest integration's pooled testnets) start ahead.
import { describeRule, NUMBER_RULES, ranged } from './numbers.js';

export const RUN_WORKERS_ROW = {
  key: 'run.workers',
  schema: ranged(NUMBER_RULES.workers),
  number: NUMBER_RULES.workers,
  expected: describeRule(NUMBER_RULES.workers),
  flag: 'workers',
  env: 'SALTNET_WORKERS',
  default: 1,
  describe: 'scenarios run at once',
} as const;

export const RUN_POOL_ROW = {
  key: 'run.pool',
  schema: ranged(NUMBER_RULES.pool),
  number: NUMBER_RULES.pool,
  expected: describeRule(NUMBER_RULES.pool),
  flag: 'pool',
  env: 'SALTNET_POOL',
  unset: 'as many as memory and cores allow (docs/pool.md)',
  describe:
    "testnets live at once under --isolation fresh (and for the vitest integration's pooled testnets): those in use and those started ahead; 1 starts each when its scenario begins",
} as const;
