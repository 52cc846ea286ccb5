// Running scenario files: prepare a testnet (a fresh one per scenario, or one per worker shared by
// its scenarios, each with fresh funded wallets), satisfy each scenario's `requires`, run its steps,
// record artifacts, and report. Failures never stop other scenarios unless --bail.
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDaemonClient } from '../rpc/daemon.js';
import type { Endpoint } from '../rpc/http.js';
import { createWalletClient } from '../rpc/wallet.js';
import type { BackendName, BackendSpec } from '../testnet/backends.js';
import { resolveBackend } from '../testnet/binaries.js';
import { fundFromWallet } from '../testnet/funding.js';
import { startTestnet, type Testnet, type TestnetOptions, type WalletHandle } from '../testnet/testnet.js';
import { createArtifacts, type Artifacts } from './artifacts.js';
import { startMetadataServer, type MetadataServer } from './metadata.js';
import { loadScenario } from './parse.js';
import { refreshScope, runStep, type ScenarioWallet, type StepContext } from './steps.js';
import { ScenarioError, type Scenario, type ScenarioResult, type StepResult } from './types.js';

export interface RunnerHooks {
  scenarioStart?(s: { file: string; name: string }): void;
  step?(r: StepResult): void;
  scenarioEnd?(r: ScenarioResult): void;
}

export interface RunnerOptions {
  backend: BackendName | 'auto';
  binDir?: string;
  difficulty?: number;
  /** `shared`: one testnet, a fresh wallet per scenario (fast); `fresh`: a testnet per scenario (isolated). */
  isolation: 'shared' | 'fresh';
  workers: number;
  bail: boolean;
  /** Where artifact folders go. */
  artifactsRoot: string;
  /** Leave the testnet up after a failure (fresh isolation) and print how to reach it. */
  keep?: boolean;
  timeoutFactor?: number;
  daemonEnv?: Record<string, string>;
  /** The chain-state cache (see TestnetOptions). */
  cacheDir?: string;
  snapshots?: boolean;
  log: (line: string) => void;
  hooks?: RunnerHooks;
  /** Run only the scenarios this accepts (`--grep`). */
  filter?: (s: Scenario) => boolean;
  /** Run on this testnet (shared isolation, one worker) instead of starting one; it is mined to the required height and left running. */
  testnet?: Testnet;
  /**
   * The chain state each shared testnet starts from (see suiteChain): computed over the whole suite
   * before sharding, so every CI shard asks for the same state — one snapshot key for all jobs.
   */
  chain?: { height: number; unlocked: bigint };
}

const SAL1 = 100_000_000n;

function needsTokens(s: Scenario): boolean {
  return s.steps.some((st) => st.action.kind === 'wallet' && st.action.method === 'create_token');
}

/** Why a scenario cannot run on this backend, or undefined. */
function skipReason(s: Scenario, spec: BackendSpec): string | undefined {
  if (s.backends && !s.backends.includes(spec.name)) return `written for ${s.backends.join(', ')}, not ${spec.name}`;
  if (needsTokens(s) && spec.tokenHeight === undefined) return `${spec.name} has no tokens`;
  return undefined;
}

function requiredHeight(s: Scenario, spec: BackendSpec): number {
  const tokens = needsTokens(s) && spec.tokenHeight !== undefined ? spec.tokenHeight + 1 : 0;
  return Math.max(s.requires.height ?? 0, tokens);
}

/** Unlocked funds the scenario's main wallet needs for its own steps (`requires`, and 1001 SAL1 for a token). */
function ownFunds(s: Scenario, spec: BackendSpec): Map<string, bigint> {
  const need = new Map<string, bigint>(Object.entries(s.requires.unlocked ?? {}));
  if (needsTokens(s) && spec.fundAsset && !need.has(spec.fundAsset)) need.set(spec.fundAsset, 1001n * SAL1);
  return need;
}

/** Everything the scenario needs: its main wallet's funds plus its other wallets' (with a fee margin each). */
function requiredFunds(s: Scenario, spec: BackendSpec): Map<string, bigint> {
  const need = ownFunds(s, spec);
  for (const w of s.wallets) for (const [asset, amt] of Object.entries(w.unlocked ?? {})) need.set(asset, (need.get(asset) ?? 0n) + amt + SAL1);
  return need;
}

/**
 * Funds rounded up to the backend's default times a power of two (1100, 2200, 4400… SAL1), so
 * that suites with slightly different needs share one cached chain state instead of each building
 * their own.
 */
export function fundingBucket(need: bigint, spec: BackendSpec): bigint {
  let b = spec.defaultUnlocked;
  while (b < need) b *= 2n;
  return b;
}

/**
 * The chain state a shared-isolation run of these files needs: the highest required height and
 * every scenario's funds together (bucketed). Files that do not parse are left out (the run reports them).
 */
export async function suiteChain(files: string[], spec: BackendSpec): Promise<{ height: number; unlocked: bigint }> {
  let height = 1;
  let total = 0n;
  for (const f of files) {
    const s = await loadScenario(f).catch(() => undefined);
    if (!s || skipReason(s, spec)) continue;
    height = Math.max(height, requiredHeight(s, spec));
    for (const [a, v] of requiredFunds(s, spec)) if (a === (spec.fundAsset ?? a)) total += v + SAL1;
  }
  return { height, unlocked: fundingBucket(total, spec) };
}

function failed(s: { file: string; name: string }, backend: string, message: string, t0: number): ScenarioResult {
  return { file: s.file, name: s.name, status: 'failed', ms: Date.now() - t0, backend, steps: [], failure: { message } };
}

/** Transfer `amount` of `asset` from one wallet of the testnet to another and wait until it is unlocked there (blocks mined meanwhile go to the main wallet). */
async function fund(t: Testnet, from: WalletHandle, to: WalletHandle, asset: string | undefined, amount: bigint): Promise<void> {
  await fundFromWallet({ daemon: t.daemon.client, spec: t.backend.spec, from: from.client, to, minerAddresses: t.miner.addresses, amount, ...(asset ? { asset } : {}) });
}

interface Prepared {
  testnet: Testnet;
  /** Scenario wallet name → testnet wallet. */
  wallets: Map<string, WalletHandle>;
  /** Stop what was started for this scenario only (fresh isolation: the whole testnet). */
  release(failed: boolean): Promise<void>;
}

async function runOne(s: Scenario, prepare: () => Promise<Prepared>, o: RunnerOptions, backendName: string): Promise<ScenarioResult> {
  const t0 = Date.now();
  o.hooks?.scenarioStart?.({ file: s.file, name: s.name });
  let artifacts: Artifacts | undefined;
  let prepared: Prepared | undefined;
  let metadata: MetadataServer | undefined;
  const endpoints: Endpoint[] = [];
  const result: ScenarioResult = { file: s.file, name: s.name, status: 'passed', ms: 0, backend: backendName, steps: [] };
  try {
    artifacts = createArtifacts(o.artifactsRoot, { file: s.file, name: s.name });
    result.artifactDir = artifacts.dir;
    // The source too, so that `saltnet repro` can run exactly this file again.
    artifacts.writeScenario({ source: readFileSync(s.file, 'utf8'), parsed: s });
    prepared = await prepare();
    const t = prepared.testnet;
    artifacts.writeCommandLines(t.supervisor.processes().map((p) => `${p.name}: ${p.commandLine}`));
    const onExchange = (target: string) => (e: { path: string; request: unknown; status: number; response: unknown; ms: number }) =>
      artifacts!.transcript({ time: new Date().toISOString(), target, ...e });
    // The clients wait out a crash of the program behind them (it is restarted) and repeat what is safe to repeat.
    const daemon = createDaemonClient(t.daemon.url, { onExchange: onExchange('daemon'), recover: t.daemon.recover });
    endpoints.push(daemon.endpoint);
    const wallets = new Map<string, ScenarioWallet>();
    for (const [name, handle] of prepared.wallets) {
      const client = createWalletClient(handle.url, { timeoutMs: 300_000, onExchange: onExchange(`wallet:${name}`), recover: handle.recover, ...(handle.credentials ? { auth: handle.credentials } : {}) });
      endpoints.push(client.endpoint);
      wallets.set(name, { handle, client });
    }
    const ctx: StepContext = {
      testnet: t,
      spec: t.backend.spec,
      daemon,
      wallets,
      scope: {},
      metadata: async () => (metadata ??= await startMetadataServer()),
      baseDir: dirname(s.file),
    };
    await refreshScope(ctx);
    for (const w of wallets.values()) await w.client.raw('refresh');
    for (const step of s.steps) {
      const r = await runStep(ctx, step);
      result.steps.push(r);
      o.hooks?.step?.(r);
      if (r.status === 'failed') {
        result.status = 'failed';
        result.failure = r.failure;
        break;
      }
    }
    for (const st of s.steps.slice(result.steps.length)) result.steps.push({ index: st.index, name: st.name, action: st.action.kind, status: 'skipped', ms: 0 });
  } catch (err) {
    result.status = 'failed';
    result.failure = { message: `setting up the scenario failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    result.ms = Date.now() - t0;
    if (result.status === 'failed' && prepared) {
      result.logTails = {};
      for (const p of prepared.testnet.supervisor.processes()) result.logTails[p.name] = p.tail(20);
    }
    for (const e of endpoints) await e.close().catch(() => undefined);
    await metadata?.close().catch(() => undefined);
    if (prepared && artifacts) {
      const logs: Record<string, string> = {};
      for (const p of prepared.testnet.supervisor.processes()) logs[p.name] = p.logFile;
      try {
        artifacts.copyLogs(logs);
      } catch {
        /* a log that was never written */
      }
    }
    artifacts?.writeResult(result);
    artifacts?.close();
    o.hooks?.scenarioEnd?.(result);
    if (prepared) {
      if (result.status === 'failed' && o.keep && o.isolation === 'fresh') {
        const t = prepared.testnet;
        o.log(`--keep: the testnet of "${s.name}" stays up: daemon ${t.daemon.url}, wallets ${[...prepared.wallets].map(([n, w]) => `${n} ${w.url}`).join(', ')}, workdir ${t.workdir}. Ctrl-C to stop it.`);
        await new Promise<never>(() => undefined);
      }
      await prepared.release(result.status === 'failed');
    }
  }
  return result;
}

/** Run `fn` over the items with at most `workers` at once; `worker` tells which worker (0-based) runs an item. */
async function pool<T, R>(items: T[], workers: number, fn: (item: T, index: number, worker: number) => Promise<R>, stop: () => boolean): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, async (_, worker) => {
      while (next < items.length && !stop()) {
        const i = next++;
        results[i] = await fn(items[i]!, i, worker);
      }
    }),
  );
  return results.filter((r) => r !== undefined);
}

export async function runFiles(files: string[], o: RunnerOptions): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const scenarios: Scenario[] = [];
  for (const file of files) {
    const t0 = Date.now();
    try {
      const s = await loadScenario(file);
      if (!o.filter || o.filter(s)) scenarios.push(s);
    } catch (err) {
      const r = failed({ file, name: file }, o.backend, err instanceof ScenarioError ? err.message : `cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`, t0);
      o.hooks?.scenarioStart?.(r);
      o.hooks?.scenarioEnd?.(r);
      results.push(r);
    }
  }
  if (scenarios.length === 0) return results;
  let bailed = false;
  const stop = (): boolean => o.bail && bailed;
  const base: TestnetOptions = {
    backend: o.backend,
    progress: 'lines',
    log: o.log,
    ...(o.binDir ? { binDir: o.binDir } : {}),
    ...(o.difficulty ? { difficulty: o.difficulty } : {}),
    ...(o.timeoutFactor ? { timeoutFactor: o.timeoutFactor } : {}),
    ...(o.daemonEnv ? { daemonEnv: o.daemonEnv } : {}),
    ...(o.cacheDir ? { cacheDir: o.cacheDir } : {}),
    ...(o.snapshots === false ? { snapshots: false } : {}),
  };
  const record = (r: ScenarioResult): ScenarioResult => {
    if (r.status === 'failed') bailed = true;
    return r;
  };
  const skipped = (s: Scenario, backend: string, why: string): ScenarioResult => {
    const r: ScenarioResult = { file: s.file, name: s.name, status: 'skipped', ms: 0, backend, steps: [], failure: { message: `skipped: ${why}` } };
    o.hooks?.scenarioStart?.(r);
    o.hooks?.scenarioEnd?.(r);
    return r;
  };

  if (o.isolation === 'fresh' && o.testnet) throw new Error('isolation "fresh" starts a testnet per scenario; to run on a testnet of yours, use isolation "shared"');
  if (o.isolation === 'fresh') {
    const out = await pool(scenarios, o.workers, async (s) => {
      const t0 = Date.now();
      let testnet: Testnet;
      try {
        const spec = resolveBackend(o.backend, o.binDir).spec;
        const why = skipReason(s, spec);
        if (why) return skipped(s, spec.name, why);
        const funds = requiredFunds(s, spec);
        const asset = spec.fundAsset;
        const prepare = async (): Promise<Prepared> => {
          const need = asset ? (funds.get(asset) ?? 0n) : (funds.get('XMR') ?? 0n);
          testnet = await startTestnet({ ...base, height: Math.max(requiredHeight(s, spec), 1), unlocked: need > 0n ? fundingBucket(need, spec) : 0n });
          const wallets = new Map<string, WalletHandle>([['main', testnet.wallets().get('main')!]]);
          for (const w of s.wallets) {
            const h = await testnet.addWallet(w.name);
            wallets.set(w.name, h);
            for (const [a, amt] of Object.entries(w.unlocked ?? {})) await fund(testnet, wallets.get('main')!, h, spec.fundAsset ? a : undefined, amt);
          }
          return { testnet, wallets, release: () => testnet.stop() };
        };
        return record(await runOne(s, prepare, o, spec.name));
      } catch (err) {
        return record(failed(s, o.backend, err instanceof Error ? err.message : String(err), t0));
      }
    }, stop);
    return [...results, ...out];
  }

  // Shared: each worker has one testnet (so no block arrives during a scenario unless it mines one),
  // brought to the highest required height; every scenario gets fresh wallets funded from the testnet's own.
  const given = o.testnet;
  const spec = given?.backend.spec ?? resolveBackend(o.backend, o.binDir).spec;
  const runnable = scenarios.filter((s) => !skipReason(s, spec));
  for (const s of scenarios) if (skipReason(s, spec)) results.push(skipped(s, spec.name, skipReason(s, spec)!));
  if (runnable.length === 0) return results;
  const height = Math.max(o.chain?.height ?? 1, ...runnable.map((s) => requiredHeight(s, spec)));
  const asset = spec.fundAsset;
  const workers = given ? 1 : Math.max(1, Math.min(o.workers, runnable.length));
  // Each worker's funder must cover the scenarios it may get: at most all but (workers - 1) of them.
  const needs = runnable.map((s) => [...requiredFunds(s, spec)].reduce((sum, [a, v]) => (a === (asset ?? a) ? sum + v + SAL1 : sum), 0n)).sort((a, b) => (a < b ? 1 : -1));
  const perWorker = needs.slice(0, runnable.length - workers + 1).reduce((a, b) => a + b, 0n);
  const unlocked = fundingBucket(o.chain && o.chain.unlocked > perWorker ? o.chain.unlocked : perWorker, spec);
  // A chain per worker, started when the worker takes its first scenario.
  const chains: Promise<Testnet>[] = [];
  try {
    const out = await pool(runnable, workers, async (s, k, w) => {
      const tn = (chains[w] ??= given
        ? given.daemon.client.height().then(async (h) => (h < height && (await given.mine(height)), given))
        : startTestnet({ ...base, height, unlocked }));
      const prepare = async (): Promise<Prepared> => {
        const t = await tn;
        const funder = t.wallets().get('main')!;
        const wallets = new Map<string, WalletHandle>();
        const main = await t.addWallet(`w${w + 1}s${k + 1}-main`);
        wallets.set('main', main);
        for (const d of s.wallets) wallets.set(d.name, await t.addWallet(`w${w + 1}s${k + 1}-${d.name}`));
        for (const [a, amt] of ownFunds(s, spec)) await fund(t, funder, main, asset ? a : undefined, amt);
        for (const d of s.wallets) for (const [a, amt] of Object.entries(d.unlocked ?? {})) await fund(t, funder, wallets.get(d.name)!, asset ? a : undefined, amt);
        return { testnet: t, wallets, release: async () => undefined };
      };
      return record(await runOne(s, prepare, o, spec.name));
    }, stop);
    return [...results, ...out];
  } finally {
    if (!given) for (const t of chains) await t?.then((x) => x.stop(), () => undefined);
  }
}
