// A testnet of a test file's own, from a pool the global setup keeps (prool's acquire/release):
// `useTestnet(saltnet)` in a file (or `acquireTestnet` in a test) gets a testnet nobody else
// touches, with the run's options. The pool lives in vitest's main process, beside the run's shared
// testnet, and is reached through that testnet's control endpoint (`/pool/acquire`,
// `/pool/release`). Each acquire asks the pool to start the next one in the background, so the next
// file finds it ready. Bounded by memory and cores (`run.pool` / SALTNET_POOL: most live at once);
// the global setup's teardown stops every one, released or not.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { ask } from '../control/client.js';
import type { ControlRoute } from '../operations/operation.js';
import { startControlServer, type ControlServer } from '../control/server.js';
import { endMetrics } from '../metrics/metrics.js';
import { Pool, type PoolStats } from '../pool/pool.js';
import { createBoundedPool, startPooled } from '../pool/testnets.js';
import type { Testnet, TestnetOptions } from '../testnet/testnet.js';
import { checkContext, contextOf, type ContextFunded, type SaltnetContext } from './context.js';
import type { FundedStart } from './funded.js';

interface Pooled {
  testnet: Testnet;
  control: ControlServer;
  /** Its wallets funded ahead (the global setup's freshWallets), in its own workdir. */
  funded: ContextFunded[];
}

export interface AcquireAnswer {
  lease: string;
  context: SaltnetContext;
  waitedMs: number;
  from: 'ready' | 'starting' | 'started';
}

export interface MainPool {
  routes: Record<string, ControlRoute>;
  /** What the pool holds now (all zero before the first acquire). */
  stats(): PoolStats;
  close(): Promise<void>;
}

/** The main process's side: the pool (made at the first acquire) and the control routes that reach it. */
export function mainPool(o: {
  options: TestnetOptions;
  cacheDir: string;
  timeoutFactor: number;
  max?: number;
  log: (line: string) => void;
  spec: Testnet['backend']['spec'];
  /** The global setup's state with fresh wallets funded ahead: every pooled testnet starts on it. */
  fresh?: FundedStart['pooled'];
}): MainPool {
  let pool: Pool<TestnetOptions, Pooled> | undefined;
  const leases = new Map<string, () => Promise<void>>();
  const poolOf = (): Pool<TestnetOptions, Pooled> => {
    if (pool) return pool;
    const bounds = { spec: o.spec, base: o.options, log: o.log, ...(o.max ? { max: o.max } : {}) };
    // startPooled: vitest's exit on Ctrl-C leaves no time for a clean stop (see global-setup.ts); the testnet's
    // temporary folder goes on exit, even when the exit interrupts its start.
    const start = async (opts: TestnetOptions): Promise<Pooled> => {
      const { testnet, funded } = await startFunded(opts, o.fresh, o.log);
      try {
        return { testnet, funded, control: await startControlServer(testnet, o.cacheDir) };
      } catch (err) {
        await testnet.stop().catch(() => undefined);
        throw err;
      }
    };
    const stop = async (p: Pooled): Promise<void> => {
      await p.control.close();
      await endMetrics(p.testnet);
      await p.testnet.stop();
    };
    return (pool = createBoundedPool(bounds, start, stop));
  };
  const acquire: ControlRoute = {
    concurrent: true,
    run: async (): Promise<AcquireAnswer> => {
      const p = poolOf();
      const lease = await p.acquire(o.options);
      const id = randomUUID();
      leases.set(id, lease.release);
      // The next file's, started while this one runs.
      if (p.stats().capacity > 1) p.prepare(o.options);
      const { testnet, control, funded } = lease.item;
      return {
        lease: id,
        context: contextOf(testnet, o.timeoutFactor, control.info, funded),
        waitedMs: lease.waitedMs,
        from: lease.from,
      };
    },
  };
  const release: ControlRoute = {
    concurrent: true,
    run: async (_t, body) => {
      const id = String((body as { lease?: unknown }).lease);
      const stop = leases.get(id);
      if (!stop) throw new Error(`no testnet of the pool is leased as ${JSON.stringify(id)} (released already?)`);
      leases.delete(id);
      await stop();
      return {};
    },
  };
  return {
    routes: { '/pool/acquire': acquire, '/pool/release': release },
    stats: () => pool?.stats() ?? { capacity: 0, ready: 0, starting: 0, leased: 0, queued: 0 },
    close: async () => {
      await pool?.close();
    },
  };
}

/** A pooled testnet on the state with the fresh wallets funded ahead, else (none, or that state gone) a plain one. */
async function startFunded(
  opts: TestnetOptions,
  fresh: FundedStart['pooled'],
  log: (line: string) => void,
): Promise<{ testnet: Testnet; funded: ContextFunded[] }> {
  if (fresh) {
    try {
      return { testnet: await startPooled({ ...opts, ...fresh.options }), funded: fresh.funded };
    } catch (err) {
      log(
        `saltnet: pool: could not start on snapshot ${fresh.options.snapshotKey} (${err instanceof Error ? err.message : String(err)}); this testnet's freshWallet pays each from its main wallet`,
      );
    }
  }
  return { testnet: await startPooled(opts), funded: [] };
}

export interface OwnTestnet {
  /** The testnet's context: pass it to connect, freshWallet, mine… as you would inject('saltnet'). */
  context: SaltnetContext;
  /** How long the acquire waited (ms): next to nothing when the pool had one ready. */
  waitedMs: number;
  /** `ready`: started ahead and ready; `starting`: started ahead, waited for; `started`: started for this acquire. */
  from: AcquireAnswer['from'];
  /** Stop it (the pool starts the next one). */
  release(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** A testnet of your own from the global setup's pool; release it when done (or `await using`). */
export async function acquireTestnet(saltnet: SaltnetContext): Promise<OwnTestnet> {
  const c = checkContext(saltnet);
  if (!c.control)
    throw new Error(
      'acquireTestnet: this testnet has no control endpoint (a global setup of an older saltnet started it)',
    );
  const control = c.control;
  const a = await ask<AcquireAnswer>(control, '/pool/acquire', {}, 'get a testnet from the pool');
  let released: Promise<void> | undefined;
  const release = (): Promise<void> =>
    (released ??= ask(control, '/pool/release', { lease: a.lease }, 'release the testnet').then(() => undefined));
  return { context: a.context, waitedMs: a.waitedMs, from: a.from, release, [Symbol.asyncDispose]: release };
}

/**
 * A testnet of this file's own: acquired in `beforeAll`, released in `afterAll`. Returns a getter for its context (call
 * it inside tests and hooks).
 */
export function useTestnet(saltnet: SaltnetContext): () => SaltnetContext {
  let own: OwnTestnet | undefined;
  beforeAll(async () => {
    own = await acquireTestnet(saltnet);
  });
  afterAll(async () => {
    await own?.release();
  });
  return () => {
    if (!own) throw new Error('useTestnet: the testnet is acquired in beforeAll; read it inside a test or hook');
    return own.context;
  };
}
