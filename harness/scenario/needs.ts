// What scenarios need of a chain: whether they can run on a backend at all, the height they need, and
// the unlocked funds of their wallets, alone and for a whole suite (rounded so that suites share cached
// chain states).
import { needsTokens as stepNeedsTokens } from './steps/registry.js';
import type { BackendSpec } from '../testnet/backends.js';
import type { WalletHandle } from '../testnet/testnet.js';
import { maxFundable } from './fund-limits.js';
import { loadScenario } from './parse.js';
import type { HeldToken, Scenario, WalletDecl } from './types.js';

/** Whether a step of the scenario needs tokens on the chain (create_token…). */
function stepsNeedTokens(s: Scenario): boolean {
  return s.steps.some((st) => stepNeedsTokens(st.action));
}

/** The tokens the scenario's wallets created before its steps, each with its wallet (`main`: `requires.tokens`). */
export function heldTokens(s: Scenario): { wallet: string; token: HeldToken }[] {
  return [
    ...(s.requires.tokens ?? []).map((token) => ({ wallet: 'main', token })),
    ...s.wallets.flatMap((d) => (d.tokens ?? []).map((token) => ({ wallet: d.name, token }))),
  ];
}

/** The scenario's held tokens with the handle of each one's wallet (opened by the runner). */
export function heldBy(
  s: Scenario,
  wallets: ReadonlyMap<string, WalletHandle>,
): { h: WalletHandle; token: HeldToken }[] {
  return heldTokens(s).map(({ wallet, token }) => ({ h: wallets.get(wallet)!, token }));
}

function needsTokens(s: Scenario): boolean {
  return stepsNeedTokens(s) || heldTokens(s).length > 0;
}

/** What `n` tokens made before the steps cost their wallet: each token's cost and a fee margin. */
function tokensCost(n: number, spec: BackendSpec): bigint {
  return spec.tokenCost ? BigInt(n) * (spec.tokenCost + spec.feeMargin) : 0n;
}

/** What the tokens a wallet holds before the steps cost it (0 without any): the part of its funding they spend. */
export function heldCost(s: Scenario, wallet: string, spec: BackendSpec): bigint {
  return tokensCost(heldTokens(s).filter((w) => w.wallet === wallet).length, spec);
}

/** `need` (a wallet's funding) with what its tokens cost added, in the funding asset. */
function withTokenCosts(
  need: Map<string, bigint>,
  tokens: readonly HeldToken[] | undefined,
  spec: BackendSpec,
): Map<string, bigint> {
  const asset = spec.fundAsset;
  if (tokens?.length && asset && spec.tokenCost)
    need.set(asset, (need.get(asset) ?? 0n) + tokensCost(tokens.length, spec));
  return need;
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
  if (stepsNeedTokens(s) && spec.fundAsset && spec.tokenCost && !need.has(spec.fundAsset))
    need.set(spec.fundAsset, spec.tokenCost + spec.feeMargin);
  return withTokenCosts(need, s.requires.tokens, spec);
}

/** What a declared wallet is paid from main: its `unlocked`, and what its tokens cost. */
export function declaredFunds(d: WalletDecl, spec: BackendSpec): Map<string, bigint> {
  return withTokenCosts(new Map(Object.entries(d.unlocked ?? {})), d.tokens, spec);
}

/** The payments that fund a scenario's wallets, in order: its main wallet's (ownFunds), then each other wallet's. */
export function walletPayments(s: Scenario, spec: BackendSpec): { wallet: string; asset: string; amount: bigint }[] {
  return [
    ...[...ownFunds(s, spec)].map(([asset, amount]) => ({ wallet: 'main', asset, amount })),
    ...s.wallets.flatMap((d) =>
      [...declaredFunds(d, spec)].map(([asset, amount]) => ({ wallet: d.name, asset, amount })),
    ),
  ];
}

/** Everything the scenario needs: its main wallet's funds plus its other wallets' (with a fee margin each). */
export function requiredFunds(s: Scenario, spec: BackendSpec): Map<string, bigint> {
  const need = ownFunds(s, spec);
  for (const w of s.wallets)
    for (const [asset, amt] of declaredFunds(w, spec)) need.set(asset, (need.get(asset) ?? 0n) + amt + spec.feeMargin);
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
