// Running scenario files: prepare a testnet (a fresh one per scenario, or one per worker shared by
// its scenarios, each with fresh funded wallets), satisfy each scenario's `requires`, run its steps,
// record artifacts, and report. Failures never stop other scenarios unless --bail. A testnet that
// does not start is started once more before its scenarios end as infrastructure errors.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import pMap from 'p-map';
import type { BackendSpec } from '../coin/backends.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import type { Testnet, WalletHandle } from '../testnet/testnet.js';
import { checkScenarioFiles } from '../scenario/files.js';
import { interruptionMessage, messageOf, retryOnce } from './infrastructure.js';
import { loadScenario } from '../scenario/parse.js';
import { chainOf, heldBy, heldCost, skipReason, tokenPayments, walletPayments } from '../scenario/needs.js';
import { makeHeldTokens, payHeldTokens } from './held-tokens.js';
import { endedEarly, runOne, type Prepared } from './one-scenario.js';
import { payBetweenWallets, waitUnlocked, workerPool, type RunContext } from './context.js';
import { planOfFiles, sharedPlan, startShared } from './funded-state-cache.js';
import { prepareFresh, runFresh } from './own-testnets.js';
import { sharedRandomx } from './randomx-choice.js';
import { testnetPart, type RunnerOptions } from './options.js';
import type { Scenario } from '../scenario/model.js';
import { isUnsuccessful, ScenarioError, type ScenarioResult } from '../scenario/types.js';

export async function runFiles(files: string[], o: RunnerOptions): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const scenarios: Scenario[] = [];
  for (const path of files) {
    const t0 = Date.now();
    // A copy (saltnet repro's) runs under its original's name: positions and relative paths are the original's.
    const original = o.originals?.[path];
    const file = original !== undefined && existsSync(dirname(original)) ? original : path;
    try {
      const s = await loadScenario(path, file);
      if (o.filter && !o.filter(s)) continue;
      // The files its metadata steps serve, before any testnet starts (steps.ts checks them again as it reads them).
      checkScenarioFiles(s, { baseDir: dirname(file), allowOutside: o.allowFilesOutside === true });
      scenarios.push(s);
    } catch (err) {
      // A file that does not parse (or cannot be read) is the scenario's failure, not the infrastructure's.
      const r = endedEarly(
        { file, name: file },
        'failed',
        o.backend,
        err instanceof ScenarioError ? err.message : `cannot read ${file}: ${messageOf(err)}`,
        t0,
      );
      o.hooks?.scenarioStart?.(r);
      o.hooks?.scenarioEnd?.(r);
      results.push(r);
    }
  }
  if (scenarios.length === 0) return results;
  if (o.isolation === 'fresh' && o.testnet)
    throw new Error(
      'isolation "fresh" starts a testnet per scenario; to run on a testnet of yours, use isolation "shared"',
    );
  let bailed = false;
  const ctx: RunContext = {
    o,
    base: { ...testnetPart(o), progress: 'lines', log: o.log },
    stop: () => (o.bail && bailed) || o.signal?.aborted === true,
    // Settled once: every scenario that awaits it gets the same spec, or the same error.
    spec: (async () => o.testnet?.backend.spec ?? resolveBackend(o.backend, o.binDir).spec)(),
    record: (r) => {
      if (isUnsuccessful(r)) bailed = true;
      return r;
    },
    skipped: (s, backend, why) => {
      const r: ScenarioResult = {
        file: s.file,
        name: s.name,
        status: 'skipped',
        ms: 0,
        backend,
        steps: [],
        failure: { message: `skipped: ${why}` },
      };
      o.hooks?.scenarioStart?.(r);
      o.hooks?.scenarioEnd?.(r);
      return r;
    },
  };
  ctx.spec.catch(() => undefined); // reported by the scenarios (fresh) or thrown (shared)
  const ran = o.isolation === 'fresh' ? await runFresh(scenarios, ctx) : await runShared(scenarios, ctx);
  return [...results, ...ran, ...notRun(scenarios, ran, o)];
}

/** After an interruption, the scenarios that never started, as `skipped` (a report then still names every scenario). */
function notRun(scenarios: Scenario[], ran: ScenarioResult[], o: RunnerOptions): ScenarioResult[] {
  if (!o.signal?.aborted) return [];
  const done = new Set(ran.map((r) => `${r.file}\0${r.name}`));
  const message = `not run: ${interruptionMessage(o.signal)}`;
  return scenarios
    .filter((s) => !done.has(`${s.file}\0${s.name}`))
    .map((s): ScenarioResult => ({
      file: s.file,
      name: s.name,
      status: 'skipped',
      ms: 0,
      backend: String(o.backend),
      steps: [],
      failure: { message },
    }));
}

/** A worker's testnet, and the wallets funded on it ahead of their scenarios (prepaid-wallets.ts). */
interface SharedTestnet {
  t: Testnet;
  ahead: ReadonlySet<string>;
}

/**
 * A scenario's wallets on a shared testnet (named `<prefix>-<wallet>`), funded from the testnet's main wallet (or
 * ahead: then only opened, and their funds checked); they go with the scenario (`release`).
 */
async function prepareShared(shared: SharedTestnet, s: Scenario, prefix: string, spec: BackendSpec): Promise<Prepared> {
  const { t, ahead } = shared;
  const funder = t.wallets().get('main')!;
  const asset = spec.fundAsset;
  const wallets = new Map<string, WalletHandle>();
  // A wallet paid ahead may have made its tokens ahead too: what they cost is spent.
  const spent = (wallet: string, a: string): bigint => (a === asset ? heldCost(s, wallet, spec) : 0n);
  const pay = (wallet: string, a: string, amount: bigint): Promise<void> => {
    const w = wallets.get(wallet)!;
    return ahead.has(w.name)
      ? waitUnlocked(t, w, asset ? a : undefined, amount - spent(wallet, a))
      : payBetweenWallets(t, funder, w, asset ? a : undefined, amount);
  };
  // The scenario's wallets go with it: their wallet RPCs would otherwise keep running (each
  // real one ~300 MB, scanning every block) and be stopped and started by every checkpoint.
  const release = async (): Promise<void> => {
    await Promise.all([...wallets.values()].map((h) => t.removeWallet(h.name).catch(() => undefined)));
    // A partition the scenario left behind would cut the next scenario's nodes apart.
    if (s.nodes > 1) await t.heal().catch(() => undefined);
  };
  try {
    if (t.nodes.length < s.nodes)
      throw new Error(
        `the scenario needs ${s.nodes} nodes (nodes: ${s.nodes}) and the testnet has ${t.nodes.length}; start it with nodes: ${s.nodes}`,
      );
    // Opened side by side, a core each: a real wallet RPC's start is seconds of one core (its RSA key, its subaddress
    // map), and the scenario's wallets are independent of each other.
    // Each one that opened is the scenario's (release stops it), also when another did not.
    const opened = await pMap(
      [{ name: 'main' }, ...s.wallets],
      (d) =>
        t.addWallet(`${prefix}-${d.name}`, d.name === 'main' ? {} : { ...d }).then(
          (h) => ({ name: d.name, h }),
          (err: unknown) => ({ name: d.name, err }),
        ),
      { concurrency: availableParallelism() },
    );
    for (const o of opened) if ('h' in o) wallets.set(o.name, o.h);
    const failed = opened.find((o) => 'err' in o);
    if (failed && 'err' in failed) throw failed.err;
    for (const p of walletPayments(s, spec)) await pay(p.wallet, p.asset, p.amount);
    await makeHeldTokens(t, heldBy(s, wallets));
    await payHeldTokens(t, tokenPayments(s), wallets);
  } catch (err) {
    await release();
    throw err;
  }
  return { testnet: t, wallets, release };
}

/**
 * Shared: each worker has one testnet (so no block arrives during a scenario unless it mines one),
 * brought to the highest required height; every scenario gets fresh wallets funded from the
 * testnet's own. A worker's testnet that does not start on the second try ends each of its
 * scenarios as an infrastructure error.
 */
async function runShared(scenarios: Scenario[], c: RunContext): Promise<ScenarioResult[]> {
  const { o } = c;
  const given = o.testnet;
  const spec = await c.spec;
  // 'suite': the chain of every scenario of this run, from what was parsed already.
  const suite = o.chain === 'suite' ? chainOf(scenarios, spec) : o.chain;
  const runnable = scenarios.filter((s) => !skipReason(s, spec));
  const skipped = scenarios.flatMap((s) =>
    skipReason(s, spec) ? [c.skipped(s, spec.name, skipReason(s, spec)!)] : [],
  );
  if (runnable.length === 0) return skipped;
  // A shard's (or a --grep's) run plans for the whole suite: every shard then restores one state funded ahead.
  const plan =
    o.chain !== 'suite' && o.chain?.files ? await planOfFiles(o.chain.files, spec) : sharedPlan(runnable, spec, suite);
  const { height, unlocked } = plan;
  const names = plan.prefixes(runnable);
  const workers = given ? 1 : Math.max(1, Math.min(o.workers, runnable.length));
  // The scenarios on the shared testnet (one of several nodes gets its own): few blocks in all, and it runs light.
  const light =
    sharedRandomx(
      runnable.filter((s) => s.nodes === 1),
      spec,
      c.base,
    ) === 'light'
      ? { randomx: 'light' as const }
      : {};
  const signal = o.signal ? { signal: o.signal } : {};
  // A chain per worker, started when the worker takes its first scenario.
  const chains: Promise<SharedTestnet>[] = [];
  const testnetOf = (w: number): Promise<SharedTestnet> => {
    const known = chains[w];
    if (known) return known;
    const started = given
      ? given.daemon.client
          .height()
          .then(async (h) => (h < height && (await given.mine({ to: height })), { t: given, ahead: new Set<string>() }))
      : retryOnce(
          () =>
            startShared({ ...c.base, height, unlocked, ...light }, plan.pays, {
              log: o.log,
              ...plan.extras,
              ...signal,
            }),
          'building the shared testnet',
          o.log,
          o.signal,
        );
    started.catch(() => undefined); // awaited by each scenario of the worker, which reports it
    return (chains[w] = started);
  };
  try {
    const ran = await workerPool(
      runnable,
      workers,
      async (s, k, w) => {
        // A scenario of several nodes partitions and reorganises its chain: it gets a testnet of its own.
        if (s.nodes > 1 && !given) return c.record(await runOne(s, () => prepareFresh(s, spec, c), o, spec.name));
        const tn = testnetOf(w);
        const prepare = async (): Promise<Prepared> => prepareShared(await tn, s, names[k]!, spec);
        return c.record(await runOne(s, prepare, o, spec.name));
      },
      c.stop,
    );
    return [...skipped, ...ran];
  } finally {
    if (!given)
      for (const t of chains)
        await t?.then(
          (x) => x.t.stop(),
          () => undefined,
        );
  }
}
