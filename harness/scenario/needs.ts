// What scenarios need of a chain: whether they can run on a backend at all, the height they need, and
// the unlocked funds of their wallets, alone and for a whole suite (rounded so that suites share cached
// chain states).
import { needsTokens as stepNeedsTokens } from './steps/registry.js';
import type { BackendSpec } from '../testnet/backends.js';
import { maxFundable } from './fund-limits.js';
import { loadScenario } from './parse.js';
import type { Scenario } from './types.js';

function needsTokens(s: Scenario): boolean {
  return s.steps.some((st) => stepNeedsTokens(st.action));
}

/** Why a scenario cannot run on this backend, or undefined. */
export function skipReason(s: Scenario, spec: BackendSpec): string | undefined {
  if (s.backends && !s.backends.includes(spec.name)) return `written for ${s.backends.join(', ')}, not ${spec.name}`;
  if (needsTokens(s) && spec.tokenHeight === undefined) return `${spec.name} has no tokens`;
  return undefined;
}

export function requiredHeight(s: Scenario, spec: BackendSpec): number {
  const tokens = needsTokens(s) && spec.tokenHeight !== undefined ? spec.tokenHeight + 1 : 0;
  return Math.max(s.requires.height ?? 0, tokens);
}

/**
 * Unlocked funds the scenario's main wallet needs for its own steps (`requires`, and a token's cost plus one coin for
 * its fee).
 */
export function ownFunds(s: Scenario, spec: BackendSpec): Map<string, bigint> {
  const need = new Map<string, bigint>(Object.entries(s.requires.unlocked ?? {}));
  if (needsTokens(s) && spec.fundAsset && spec.tokenCost && !need.has(spec.fundAsset))
    need.set(spec.fundAsset, spec.tokenCost + spec.feeMargin);
  return need;
}

/** The payments that fund a scenario's wallets, in order: its main wallet's (ownFunds), then each other wallet's. */
export function walletPayments(s: Scenario, spec: BackendSpec): { wallet: string; asset: string; amount: bigint }[] {
  return [
    ...[...ownFunds(s, spec)].map(([asset, amount]) => ({ wallet: 'main', asset, amount })),
    ...s.wallets.flatMap((d) =>
      Object.entries(d.unlocked ?? {}).map(([asset, amount]) => ({ wallet: d.name, asset, amount })),
    ),
  ];
}

/** Everything the scenario needs: its main wallet's funds plus its other wallets' (with a fee margin each). */
export function requiredFunds(s: Scenario, spec: BackendSpec): Map<string, bigint> {
  const need = ownFunds(s, spec);
  for (const w of s.wallets)
    for (const [asset, amt] of Object.entries(w.unlocked ?? {}))
      need.set(asset, (need.get(asset) ?? 0n) + amt + spec.feeMargin);
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
  // Rounding up never goes past what funding can give below the height limit (limits.ts).
  const cap = maxFundable(spec);
  return b > cap ? (need > cap ? need : cap) : b;
}

/**
 * The chain state a shared-isolation run of these files needs: the highest required height and
 * every scenario's funds together (bucketed). Files that do not parse are left out (the run reports them).
 */
export async function suiteChain(files: string[], spec: BackendSpec): Promise<{ height: number; unlocked: bigint }> {
  const parsed = await Promise.all(files.map((f) => loadScenario(f).catch(() => undefined)));
  return chainOf(
    parsed.filter((s): s is Scenario => s !== undefined),
    spec,
  );
}

/** The chain state of these scenarios together (suiteChain, for scenarios already parsed). */
export function chainOf(scenarios: readonly Scenario[], spec: BackendSpec): { height: number; unlocked: bigint } {
  let height = 1;
  let total = 0n;
  for (const s of scenarios) {
    if (skipReason(s, spec)) continue;
    height = Math.max(height, requiredHeight(s, spec));
    for (const [a, v] of requiredFunds(s, spec)) if (a === (spec.fundAsset ?? a)) total += v + spec.feeMargin;
  }
  return { height, unlocked: fundingBucket(total, spec) };
}
