// Funded wallets in the cache. Above difficulty 1 a shared run pays its scenarios' wallets
// ahead (prepaid-wallets.ts). Done at the served difficulty, that costs eleven blocks there, and on real
// Salvium at 500 the first of them waits for the daemon's RandomX dataset (about a minute). So the
// payments are made once per machine at the prefix difficulty (1), where a block costs a hash, and the
// state is saved as a chain state of its own: the run's key, `-ahead-` and a digest of the payments.
// A later run of the same scenarios restores it, finds every wallet funded and unlocked, and mines
// nothing before its first scenario. Where the state cannot be kept (no cache, a workdir of the user's,
// a prefix mined at the served difficulty) or is not whole, the run funds its wallets ahead as it starts.
import { createHash } from 'node:crypto';
import { cacheDir as resolveCacheDir } from '../common/cache-dir.js';
import { acquireKeyLock } from '../snapshot/lock.js';
import { listSnapshots } from '../snapshot/store.js';
import { resolveBackend } from '../testnet/programs/binaries.js';
import { chainKey, chainSpecFor } from '../testnet/chain/chain-cache.js';
import { startTestnet, type Testnet, type TestnetOptions } from '../testnet/testnet.js';
import type { BackendSpec } from '../coin/backends.js';
import {
  aheadPayments,
  fundAhead,
  fundsAhead,
  SCENARIO_WORDS,
  type AheadPayment,
  type AheadWords,
} from './prepaid-wallets.js';
import { chainOf, fundingBucket, requiredFunds, requiredHeight, skipReason } from '../scenario/needs.js';
import { loadScenario } from '../scenario/parse.js';
import type { Scenario } from '../scenario/model.js';
import { messageOf } from './infrastructure.js';
import { tokensAhead } from './held-tokens.js';
import { sharedMineTo } from './shared-height.js';

/** A change to how payments ahead are made (prepaid-wallets.ts, sendFunding) makes every saved one another state. */
const AHEAD_FORMAT = 1;

export interface FundedTestnet {
  t: Testnet;
  /** The wallets paid ahead: their scenarios only open them. */
  ahead: ReadonlySet<string>;
  /** Restored from a cached state: the options that start another testnet on it, the same wallets paid ahead. */
  from?: { snapshotKey: string; unlocked: bigint };
}

/** The key of the state with these payments made on the state `base`. */
export function aheadKey(
  base: string,
  pays: AheadPayment[],
  spendableAge: number,
  lookahead = false,
  to?: number,
): string {
  const what = JSON.stringify({
    format: AHEAD_FORMAT,
    spendableAge,
    // The height mined to after the payments, only where there is one: the keys of earlier states stay as they were.
    ...(to !== undefined ? { to } : {}),
    // Wallets created with the chain's subaddress lookahead are other files (the default keeps the keys made before).
    ...(lookahead ? { lookahead } : {}),
    // A payment's tokens (held-tokens.ts) only where it has some: the keys of payments made before stay as they were.
    pays: pays.map((p) => [p.wallet, p.asset ?? '', p.amount.toString(), ...(p.tokens?.length ? [p.tokens] : [])]),
  });
  return `${base}-ahead-${createHash('sha256').update(what).digest('hex').slice(0, 12)}`;
}

/** What the payments ahead take from main: each amount and its fee margin. */
export function paidAhead(pays: AheadPayment[], feeMargin: bigint): bigint {
  return pays.reduce((sum, p) => sum + p.amount + feeMargin, 0n);
}

/** What main must still hold once the payments ahead are made: the rest of what the run asked for. */
export function restOf(base: TestnetOptions, pays: AheadPayment[], feeMargin: bigint): bigint {
  const rest = (base.unlocked ?? 0n) - paidAhead(pays, feeMargin);
  return rest > 0n ? rest : 0n;
}

export interface AheadOptions {
  log: (line: string) => void;
  signal?: AbortSignal;
  /** How the log lines name the wallets (default: a run's scenarios'). */
  words?: AheadWords;
  /** Create the wallets with the testnet's subaddress lookahead, not the wallet RPC's 50:200 (fresh wallets). */
  lookahead?: boolean;
  /**
   * Once the payments are made, mine to this height (a scenario's own testnet whose steps begin with `mine: {to: N}`:
   * own-testnet-funds.ts). Part of the state's key.
   */
  to?: number;
}

export interface SharedPlan {
  /** The height and main's unlocked funds of each worker's testnet. */
  height: number;
  unlocked: bigint;
  /**
   * The wallet names' prefix of each scenario run (`s<n>`, n its place among the plan's scenarios: the same on every
   * worker and every shard), in the order they are asked for: a file the plan holds twice gets its places in turn.
   */
  prefixes(run: Scenario[]): string[];
  /** What is paid ahead above difficulty 1 (prepaid-wallets.ts). */
  pays: AheadPayment[];
  /**
   * What the state paid ahead holds besides the payments: the wallets made with the testnet's subaddress lookahead (as
   * main is; opening one then costs a fraction of a 50:200 wallet's rebuilt map), and the chain mined to the highest
   * `mine: {to: N}` of the plan's scenarios of one node, where that is above `height` (shared-height.ts).
   */
  extras: Pick<AheadOptions, 'lookahead' | 'to'>;
}

/**
 * The testnet a shared run of these (runnable) scenarios starts on each worker: at least the suite's chain (`suite`),
 * high enough for each, main holding what they all need (any scenario may come to any worker, and above difficulty 1
 * each worker's testnet funds every scenario's wallets ahead).
 */
export function sharedPlan(
  runnable: Scenario[],
  spec: BackendSpec,
  suite?: { height: number; unlocked: bigint },
): SharedPlan {
  const asset = spec.fundAsset;
  const height = Math.max(suite?.height ?? 1, ...runnable.map((s) => requiredHeight(s, spec)));
  const total = runnable
    .map((s) =>
      [...requiredFunds(s, spec)].reduce((sum, [a, v]) => (a === (asset ?? a) ? sum + v + spec.feeMargin : sum), 0n),
    )
    .reduce((a, b) => a + b, 0n);
  const unlocked = fundingBucket(suite && suite.unlocked > total ? suite.unlocked : total, spec);
  const pays = aheadPayments(
    runnable.map((s, k) => ({ s, prefix: `s${k + 1}` })),
    spec,
  );
  const prefixes = (run: Scenario[]): string[] => {
    const places = new Map<string, number[]>();
    runnable.forEach((s, k) => places.set(s.file, [...(places.get(s.file) ?? []), k]));
    // One the plan does not hold (it cannot be paid ahead): a name of its own, after the plan's.
    return run.map((s, k) => {
      const at = places.get(s.file)?.shift();
      return at === undefined ? `s${runnable.length + k + 1}` : `s${at + 1}`;
    });
  };
  const to = sharedMineTo(runnable, height);
  return { height, unlocked, prefixes, pays, extras: { lookahead: true, ...(to !== undefined ? { to } : {}) } };
}

/** The plan of a shared run of these files, as `saltnet run` makes it (a file that does not parse is left out). */
export async function planOfFiles(files: string[], spec: BackendSpec): Promise<SharedPlan> {
  const parsed = await Promise.all(files.map((f) => loadScenario(f).catch(() => undefined)));
  const runnable = parsed.filter((s): s is Scenario => s !== undefined && !skipReason(s, spec));
  return sharedPlan(runnable, spec, chainOf(runnable, spec));
}

/**
 * The key of the cached state holding `base`'s chain with these payments made, built here (at the prefix difficulty)
 * when it is missing; undefined where none is kept: at difficulty 1, without a cache, on a workdir or snapshot of the
 * user's, on a prefix mined at the served difficulty, or when not every payment could be made.
 */
export async function aheadState(
  base: TestnetOptions,
  pays: AheadPayment[],
  o: AheadOptions,
): Promise<string | undefined> {
  const be = resolveBackend(base.backend ?? 'auto', base.binDir);
  const chain = chainSpecFor(be, base);
  if (!fundsAhead(chain.difficulty) || (pays.length === 0 && o.to === undefined)) return undefined;
  if (base.snapshots === false || base.workdir || base.snapshotKey) return undefined;
  if (chain.prefixDifficulty >= chain.difficulty) return undefined;
  const key = aheadKey(await chainKey(be, chain), pays, be.spec.spendableAge ?? 10, o.lookahead, o.to);
  const cacheDir = resolveCacheDir(base.cacheDir ? { cacheDir: base.cacheDir } : {});
  const release = await acquireKeyLock(cacheDir, key, {
    ...(o.signal ? { signal: o.signal } : {}),
    onWait: () => o.log(`saltnet: another saltnet is building snapshot ${key}; waiting for it`),
  });
  try {
    if (listSnapshots(cacheDir).some((s) => s.key === key)) return key;
    return (await buildAhead(base, chain.prefixDifficulty, pays, key, o)) ? key : undefined;
  } finally {
    await release();
  }
}

/**
 * A shared run's testnet. Above difficulty 1 its wallets are paid ahead: restored from the cached state that holds
 * them (aheadState), else paid on the testnet as it comes up.
 */
export async function startShared(base: TestnetOptions, pays: AheadPayment[], o: AheadOptions): Promise<FundedTestnet> {
  const words = o.words ?? SCENARIO_WORDS;
  const be = resolveBackend(base.backend ?? 'auto', base.binDir);
  if (!fundsAhead(chainSpecFor(be, base).difficulty)) return { t: await startTestnet(base), ahead: new Set() };
  const key = await aheadState(base, pays, o);
  if (key) {
    try {
      const from = { snapshotKey: key, unlocked: restOf(base, pays, be.spec.feeMargin) };
      const t = await startTestnet({ ...base, ...from });
      o.log(`saltnet: funded ${words.wallets(pays.length)} ahead: restored with snapshot ${key}`);
      return { t, ahead: new Set(pays.map((p) => p.wallet)), from };
    } catch (err) {
      if (o.signal?.aborted) throw err;
      o.log(`saltnet: could not start from snapshot ${key} (${messageOf(err)}); funding the wallets ahead here`);
    }
  }
  const t = await startTestnet(base);
  const ahead = await fundAhead(t, pays, o.log, words, o.lookahead);
  await tokensAhead(t, pays, ahead, o.log);
  return { t, ahead };
}

/**
 * The run's state at the prefix difficulty (light RandomX), its wallets paid ahead there, saved under `key`. False
 * (nothing saved) when not every payment was made or the save failed.
 */
async function buildAhead(
  base: TestnetOptions,
  difficulty: number,
  pays: AheadPayment[],
  key: string,
  o: AheadOptions,
): Promise<boolean> {
  const { log } = o;
  const words = o.words ?? SCENARIO_WORDS;
  log(`saltnet: no snapshot ${key}: funding ${words.the} at difficulty ${difficulty} (once per machine)`);
  // One node: every node of a testnet restored from it starts from a copy of n0's chain.
  const t = await startTestnet({ ...base, difficulty, randomx: 'light', nodes: 1 });
  try {
    const paid = await fundAhead(t, pays, log, words, o.lookahead);
    if (paid.size < pays.length || (await tokensAhead(t, pays, paid, log)) > 0) return false;
    if (o.to !== undefined && (await t.daemon.client.height()) < o.to) {
      const t0 = Date.now();
      await t.mine({ to: o.to });
      log(
        `saltnet: mined to height ${o.to} ahead in ${((Date.now() - t0) / 1000).toFixed(1)} s (a mine: {to: ${o.to}} step)`,
      );
    }
    await t.saveSnapshot(key);
    log(`saltnet: saved snapshot ${key}: ${words.later}`);
    return true;
  } catch (err) {
    log(`saltnet: could not save snapshot ${key} (${messageOf(err)})`);
    return false;
  } finally {
    await t.stop();
  }
}
