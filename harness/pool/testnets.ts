// A pool of testnets (pool.ts) and its bounds: how many fit in this machine's memory and cores.
//
// Memory per testnet, as measured on v1.1.3c and the simulator (docs/difficulty.md, docs/pool.md): a real daemon holds
// ~0.3 GiB in light RandomX mode and ~2.4 GiB in full mode (the 2 GiB dataset, built at every daemon start), a real
// wallet RPC ~0.3 GiB; the simulator's programs ~0.1 GiB each. With saltnet's own RandomX miner every daemon runs
// light, and the process holds one dataset (2.1 GiB) for all its testnets: not a testnet's cost. Cores: starting a
// testnet keeps a core busy for a few seconds (the wallet RPC's start is CPU-bound), so one starts at a time per two
// cores; and as many testnets live as there are cores (at least two: the one a test uses and the next one).
import { rmSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import { randomxMode, type BackendSpec } from '../coin/backends.js';
import { startTestnet, type Testnet, type TestnetOptions } from '../testnet/testnet.js';
import { Pool, type PoolDefinition } from './pool.js';
import { counted } from '../common/describe.js';
import { loadRandomx } from '../randomx/library.js';

const GiB = 2 ** 30;

/** The memory one testnet of `o` takes, in bytes (see the header). */
export function testnetMemory(
  spec: BackendSpec,
  o: Pick<TestnetOptions, 'difficulty' | 'randomx' | 'miner' | 'nodes'>,
): number {
  const nodes = Math.max(1, o.nodes ?? 1);
  // No RandomX: the simulator's programs.
  if (!spec.randomx) return nodes * 0.1 * GiB + 0.1 * GiB;
  const ownMiner = o.miner === 'saltnet' || (o.miner !== 'daemon' && !('missing' in loadRandomx()));
  const mode = ownMiner ? 'light' : randomxMode(spec, o.randomx ?? 'auto', o.difficulty ?? spec.difficulty);
  const daemon = mode === 'full' ? 2.4 * GiB : 0.3 * GiB;
  return nodes * daemon + 0.3 * GiB;
}

export interface Capacity {
  capacity: number;
  starting: number;
  /** How it was chosen, for the log line. */
  why: string;
}

/** The pool's bounds on a machine with `cores` and `freeBytes` available, for testnets of `perTestnet` bytes. */
export function poolCapacity(m: {
  cores: number;
  freeBytes: number;
  perTestnet: number;
  max?: number;
  min?: number;
}): Capacity {
  const byMemory = Math.max(1, Math.floor((m.freeBytes * 0.8) / m.perTestnet));
  const byCores = Math.max(2, m.cores);
  // Each worker of a run holds one: never fewer than the workers, whatever was asked for.
  const capacity = Math.max(m.max ?? Math.min(byMemory, byCores), m.min ?? 1);
  const starting = Math.max(1, Math.min(capacity, Math.floor(m.cores / 2)));
  const gib = (b: number): string => (b / GiB).toFixed(1);
  const head = `up to ${counted(capacity, 'testnet')} at once, ${starting} starting at a time`;
  const asked =
    capacity > (m.max ?? capacity) ? `${m.max} asked for, raised to the ${counted(capacity, 'worker')}` : 'as asked';
  const cores = m.cores === 1 ? `the 1 core allows ${byCores}` : `the ${m.cores} cores allow ${byCores}`;
  const workers = m.min && m.min > 1 ? `; the ${m.min} workers need ${m.min}` : '';
  return {
    capacity: Math.max(1, capacity),
    starting,
    why:
      m.max !== undefined
        ? `${head} (${asked})`
        : `${head} (each needs about ${gib(m.perTestnet)} GiB: 80% of the ${gib(m.freeBytes)} GiB free holds ${byMemory}; ${cores}${workers})`,
  };
}

/** Testnets with the same options are interchangeable: the options as JSON, functions left out. */
export function optionsKey(o: TestnetOptions): string {
  const plain = Object.entries(o)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify(plain, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

/**
 * startTestnet for a pool: a testnet started in the background may still be starting when the process exits (Ctrl-C,
 * the end of a vitest run). Its supervisor kills its programs then, and the interrupted start would keep its temporary
 * folder as a failed start does; this removes it on exit instead. A start that failed on its own, before the exit,
 * keeps its folder (the logs say why); a testnet that started removes its folder when stopped.
 */
export async function startPooled(o: TestnetOptions): Promise<Testnet> {
  let workdir: string | undefined;
  const remove = (): void => {
    if (workdir && o.workdir === undefined) rmSync(workdir, { recursive: true, force: true, maxRetries: 3 });
  };
  process.on('exit', remove);
  try {
    const t = await startTestnet({ ...o, onWorkdir: (d) => ((workdir = d), o.onWorkdir?.(d)) });
    const stop = t.stop.bind(t);
    return Object.assign(t, {
      stop: async () => {
        try {
          await stop();
        } finally {
          process.off('exit', remove);
        }
      },
    });
  } catch (err) {
    process.off('exit', remove);
    throw err;
  }
}

export interface TestnetPoolOptions {
  /** The backend the testnets run (auto resolved), for the memory bound. */
  spec: BackendSpec;
  /** Options every testnet shares (the memory bound reads difficulty, randomx and nodes). */
  base: TestnetOptions;
  /** At most this many live (default: as many as memory and cores allow). */
  max?: number;
  /** At least this many live, whatever memory and cores say (the workers of a run, each with one). */
  min?: number;
  log?: (line: string) => void;
}

export type TestnetPool = Pool<TestnetOptions, Testnet>;

/**
 * A pool of things keyed by testnet options (a testnet, or a testnet with what the caller starts beside it), bounded
 * by this machine's memory and cores (logged).
 */
export function createBoundedPool<T>(
  p: TestnetPoolOptions,
  start: (o: TestnetOptions) => Promise<T>,
  stop: (item: T) => Promise<void>,
): Pool<TestnetOptions, T> {
  const cap = poolCapacity({
    cores: availableParallelism(),
    freeBytes: freemem(),
    perTestnet: testnetMemory(p.spec, p.base),
    ...(p.max !== undefined ? { max: p.max } : {}),
    ...(p.min !== undefined ? { min: p.min } : {}),
  });
  p.log?.(`saltnet: testnet pool: ${cap.why}`);
  const def: PoolDefinition<TestnetOptions, T> = {
    start,
    stop,
    key: optionsKey,
    capacity: cap.capacity,
    starting: cap.starting,
    ...(p.log ? { log: p.log } : {}),
  };
  return new Pool(def);
}

/** A pool of testnets (started with startPooled) bounded by this machine's memory and cores. */
export function createTestnetPool(p: TestnetPoolOptions): TestnetPool {
  return createBoundedPool(p, startPooled, (t) => t.stop());
}
