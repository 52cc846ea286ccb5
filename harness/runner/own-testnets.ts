// Fresh isolation: a testnet per scenario, with just what the scenario requires. The testnets come
// from a pool (pool/testnets.ts): every runnable scenario's testnet is asked for up front, in the
// order the scenarios run, and the pool starts each in the background while earlier scenarios run,
// as far as memory and cores allow (`--pool N`: at most N live, 1 starts each when its scenario
// begins). A scenario whose testnet is ready takes it at once; a testnet that does not start is
// started once more before its scenario ends as an infrastructure error. Testnets started for
// scenarios that then do not run (--bail, Ctrl-C) are stopped when the run ends. Under `--randomx
// auto`, a scenario that mines too few blocks for full mode's dataset to pay gets light mode
// (randomx-choice.ts). Above difficulty 1 a testnet starts on a cached state with its scenario's
// wallets paid ahead at difficulty 1 (own-testnet-funds.ts), built once per machine.
import { fundingAsset, type BackendSpec } from '../coin/backends.js';
import { startTestnet, type Testnet, type TestnetOptions, type WalletHandle } from '../testnet/testnet.js';
import { createTestnetPool, type TestnetPool } from '../pool/testnets.js';
import { messageOf, retryOnce } from './infrastructure.js';
import {
  declaredFunds,
  fundingBucket,
  heldBy,
  heldCost,
  requiredFunds,
  requiredHeight,
  skipReason,
  tokenPayments,
} from '../scenario/needs.js';
import { makeHeldTokens, payHeldTokens } from './held-tokens.js';
import { endedEarly, runOne, type Prepared } from './one-scenario.js';
import { payBetweenWallets, waitUnlocked, workerPool, type RunContext } from './context.js';
import { freshStart, type FreshStart } from './own-testnet-funds.js';
import { scenarioRandomx } from './randomx-choice.js';
import type { Scenario } from '../scenario/model.js';
import type { ScenarioResult } from '../scenario/types.js';

/** The options of the testnet a scenario runs on alone, before anything is done ahead. */
function freshOptions(s: Scenario, spec: BackendSpec, base: TestnetOptions): TestnetOptions {
  const need = requiredFunds(s, spec).get(fundingAsset(spec)) ?? 0n;
  return {
    ...base,
    height: Math.max(requiredHeight(s, spec), 1),
    unlocked: need > 0n ? fundingBucket(need, spec) : 0n,
    nodes: Math.max(base.nodes ?? 1, s.nodes),
  };
}

/**
 * How the scenario's testnet starts on a run's testnets `base`: on its state paid ahead where one is kept (built
 * here when missing: own-testnet-funds.ts), in the RandomX mode that the blocks left to mine at the served difficulty
 * call for.
 */
export async function freshTestnetStart(
  s: Scenario,
  spec: BackendSpec,
  base: TestnetOptions,
  o: { log: (line: string) => void; signal?: AbortSignal },
): Promise<FreshStart> {
  const start = await freshStart(s, spec, freshOptions(s, spec, base), o);
  const randomx = scenarioRandomx(s, spec, base, start);
  return randomx ? { ...start, options: { ...start.options, randomx } } : start;
}

const startOf = (s: Scenario, spec: BackendSpec, c: RunContext): Promise<FreshStart> =>
  freshTestnetStart(s, spec, c.base, { log: c.o.log, ...(c.o.signal ? { signal: c.o.signal } : {}) });

/** A testnet per scenario, from a pool that starts the next ones while earlier scenarios run. */
export async function runFresh(scenarios: Scenario[], c: RunContext): Promise<ScenarioResult[]> {
  const { o } = c;
  const spec = await c.spec.catch(() => undefined);
  let testnets: TestnetPool | undefined;
  const starts = new Map<Scenario, Promise<FreshStart>>();
  if (spec) {
    testnets = createTestnetPool({
      spec,
      base: c.base,
      min: Math.min(o.workers, scenarios.length),
      ...(o.pool !== undefined ? { max: o.pool } : {}),
      log: o.log,
    });
    // With room for one only, nothing can start ahead: each starts when its scenario asks. The states paid ahead
    // are found (or built, once per machine) one after another, in the order the scenarios run.
    if (testnets.stats().capacity > 1) {
      let before: Promise<unknown> = Promise.resolve();
      for (const s of scenarios.filter((x) => !skipReason(x, spec))) {
        const start = before.then(() => startOf(s, spec, c));
        start.catch(() => undefined); // reported by the scenario that awaits it (none after --bail or Ctrl-C)
        starts.set(s, start);
        before = start.then((st) => testnets?.prepare(st.options)).catch(() => undefined);
      }
    }
  }
  try {
    return await workerPool(
      scenarios,
      o.workers,
      async (s) => {
        if (!spec) {
          // No usable binaries: the infrastructure's.
          const r = endedEarly(s, 'error', o.backend, messageOf(await c.spec.catch((e: unknown) => e)), Date.now());
          o.hooks?.scenarioStart?.(r);
          o.hooks?.scenarioEnd?.(r);
          return c.record(r);
        }
        const why = skipReason(s, spec);
        if (why) return c.skipped(s, spec.name, why);
        return c.record(await runOne(s, () => prepareFresh(s, spec, c, testnets, starts.get(s)), o, spec.name));
      },
      c.stop,
    );
  } finally {
    await testnets?.close().catch((err: unknown) => o.log(`saltnet: stopping the testnet pool: ${messageOf(err)}`));
  }
}

/** A testnet of the scenario's own (from `testnets`, or started now), with its wallets made and funded. */
export async function prepareFresh(
  s: Scenario,
  spec: BackendSpec,
  c: RunContext,
  testnets?: TestnetPool,
  started?: Promise<FreshStart>,
): Promise<Prepared> {
  const { options, ahead } = await (started ?? startOf(s, spec, c));
  const what = `starting the testnet of "${s.name}"`;
  let testnet: Testnet;
  let stop: () => Promise<void>;
  if (testnets) {
    const lease = await retryOnce(() => testnets.acquire(options), what, c.o.log, c.o.signal);
    if (lease.from !== 'started')
      c.o.log(
        `saltnet: the testnet of "${s.name}" was started ahead (${lease.from === 'ready' ? 'ready' : 'still starting'} when asked for): ${(lease.waitedMs / 1000).toFixed(2)} s to get it`,
      );
    testnet = lease.item;
    stop = () => lease.release();
  } else {
    testnet = await retryOnce(() => startTestnet(options), what, c.o.log, c.o.signal);
    stop = () => testnet.stop();
  }
  try {
    const main = testnet.wallets().get('main')!;
    const wallets = new Map<string, WalletHandle>([['main', main]]);
    for (const w of s.wallets) {
      // A wallet paid ahead is in the state: opened, its funds (less what its tokens made ahead cost) checked.
      const h = await testnet.addWallet(w.name, w.node ? { node: w.node } : {});
      wallets.set(w.name, h);
      for (const [a, amt] of declaredFunds(s, w, spec)) {
        const asset = spec.fundAsset ? a : undefined;
        if (ahead.has(w.name)) await waitUnlocked(testnet, h, asset, amt - heldCost(s, w.name, spec));
        else await payBetweenWallets(testnet, main, h, asset, amt);
      }
    }
    await makeHeldTokens(testnet, heldBy(s, wallets));
    await payHeldTokens(testnet, tokenPayments(s), wallets);
    return { testnet, wallets, release: stop };
  } catch (err) {
    // Nobody else holds this testnet: it goes now.
    await stop().catch(() => undefined);
    throw err;
  }
}
