// What scenarios need of a chain: whether they can run on a backend at all, the height they need, and
// the unlocked funds of their wallets, alone and for a whole suite (rounded so that suites share cached
// chain states).
import { needsTokens as stepNeedsTokens } from './steps/registry.js';
import type { BackendSpec } from '../coin/backends.js';
import type { WalletHandle } from '../testnet/testnet.js';
import { maxFundable } from './fund-limits.js';
import { loadScenario } from './parse.js';
import type { HeldToken, Scenario, WalletDecl } from './model.js';

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

/**
 * A token a wallet asks for under `unlocked`, paid before the steps by the wallet that makes it (`requires.tokens`
 * or `wallets.<name>.tokens`) out of its supply, once it is made. A wallet asking for its own token holds it already.
 */
export interface TokenPayment {
  from: string;
  to: string;
  asset: string;
  amount: bigint;
}

/** The `sal<ticker>` of every token made before the steps → the wallet that makes it. */
function tokenMakers(s: Scenario): Map<string, string> {
  return new Map(heldTokens(s).map(({ wallet, token }) => [`sal${token.ticker}`, wallet]));
}

/** Each wallet's `unlocked` (main's is `requires.unlocked`), in order. */
function asks(s: Scenario): { wallet: string; unlocked: Record<string, bigint> }[] {
  return [
    { wallet: 'main', unlocked: s.requires.unlocked ?? {} },
    ...s.wallets.map((d) => ({ wallet: d.name, unlocked: d.unlocked ?? {} })),
  ];
}

/** The token payments between the scenario's wallets, made after its held tokens (held-tokens.ts: payHeldTokens). */
export function tokenPayments(s: Scenario): TokenPayment[] {
  const makers = tokenMakers(s);
  return asks(s).flatMap(({ wallet, unlocked }) =>
    Object.entries(unlocked).flatMap(([asset, amount]) => {
      const from = makers.get(asset);
      return from !== undefined && from !== wallet ? [{ from, to: wallet, asset, amount }] : [];
    }),
  );
}

/**
 * A wallet's funding from main: its `unlocked` without the tokens made before the steps (their makers pay them),
 * with what its own tokens cost and a fee margin for each token payment it makes, in the funding asset.
 */
function funding(s: Scenario, wallet: string, spec: BackendSpec): Map<string, bigint> {
  const makers = tokenMakers(s);
  const unlocked = asks(s).find((a) => a.wallet === wallet)?.unlocked ?? {};
  const need = new Map(Object.entries(unlocked).filter(([asset]) => !makers.has(asset)));
  const asset = spec.fundAsset;
  const pays = tokenPayments(s).filter((p) => p.from === wallet).length;
  const extra = heldCost(s, wallet, spec) + BigInt(pays) * spec.feeMargin;
  if (asset && extra > 0n) need.set(asset, (need.get(asset) ?? 0n) + extra);
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
  const need = funding(s, 'main', spec);
  const asset = spec.fundAsset;
  if (stepsNeedTokens(s) && asset && spec.tokenCost && !Object.hasOwn(s.requires.unlocked ?? {}, asset))
    need.set(asset, (need.get(asset) ?? 0n) + spec.tokenCost + spec.feeMargin);
  return need;
}

/** What a declared wallet is paid from main: its `unlocked` (less tokens made before the steps), its tokens' cost. */
export function declaredFunds(s: Scenario, d: WalletDecl, spec: BackendSpec): Map<string, bigint> {
  return funding(s, d.name, spec);
}

/** The payments that fund a scenario's wallets, in order: its main wallet's (ownFunds), then each other wallet's. */
export function walletPayments(s: Scenario, spec: BackendSpec): { wallet: string; asset: string; amount: bigint }[] {
  return [
    ...[...ownFunds(s, spec)].map(([asset, amount]) => ({ wallet: 'main', asset, amount })),
    ...s.wallets.flatMap((d) =>
      [...declaredFunds(s, d, spec)].map(([asset, amount]) => ({ wallet: d.name, asset, amount })),
    ),
  ];
}

/** Everything the scenario needs: its main wallet's funds plus its other wallets' (with a fee margin each). */
export function requiredFunds(s: Scenario, spec: BackendSpec): Map<string, bigint> {
  const need = ownFunds(s, spec);
  for (const w of s.wallets)
    for (const [asset, amt] of declaredFunds(s, w, spec))
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
