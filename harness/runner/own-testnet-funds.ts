// A scenario's own testnet (fresh isolation, or a scenario of several nodes in a shared run) above
// difficulty 1. Paying the scenario's wallets as it came up, at the served difficulty, would cost on
// real Salvium at 500 about twelve blocks per funded wallet, the first of them after the daemon's
// RandomX dataset (about a minute). So its wallets are paid once per machine at the prefix difficulty
// (1) into a cached state of their own (funded-state-cache.ts), and every later run restores it and only
// opens them. A scenario whose steps begin by bringing the chain to a height (`mine: {to: N}`, to
// start at the same height on every run whatever the funding took) gets that height in the state
// too: those blocks are mined at 1 with the funding, as the prefix below `requires.height` is, and
// the step then finds the chain there. Its blocks at the served difficulty are then only what its
// other steps mine, which can make light RandomX the cheaper mode (randomx-choice.ts).
import type { BackendSpec } from '../coin/backends.js';
import type { TestnetOptions } from '../testnet/types.js';
import { aheadState, restOf } from './funded-state-cache.js';
import { fundsAhead, scenarioPayments, type AheadPayment, type AheadWords } from './prepaid-wallets.js';
import { messageOf } from './infrastructure.js';
import type { Scenario } from '../scenario/model.js';
import { counted } from '../common/describe.js';

/** What a scenario's own testnet starts from: its options, and what is in the state it restores. */
export interface FreshStart {
  options: TestnetOptions;
  /** The scenario's wallets paid ahead (by name): it only opens them. */
  ahead: ReadonlySet<string>;
  /** The height its steps begin by mining to, reached in the state. */
  to?: number;
}

/** What is done ahead for a scenario on a testnet of its own: its wallets' payments, and its leading height. */
export interface FreshPlan {
  pays: AheadPayment[];
  to?: number;
}

/** The height a scenario's steps begin by mining to (its first step `mine: {to: N}`), if they do. */
export function leadingHeight(s: Scenario): number | undefined {
  const a = s.steps[0]?.action as { kind: string; to?: number } | undefined;
  return a?.kind === 'mine' ? a.to : undefined;
}

/** What its own testnet's state holds ahead for the scenario above difficulty 1 (nothing at 1). */
export function freshPlan(s: Scenario, spec: BackendSpec, difficulty: number): FreshPlan {
  if (!fundsAhead(difficulty)) return { pays: [] };
  // Its own testnet's main wallet is the scenario's: what main needs is the testnet's `unlocked`, not a payment.
  const pays = scenarioPayments(s, spec, (w) => w).filter((p) => p.wallet !== 'main');
  const to = leadingHeight(s);
  return { pays, ...(to !== undefined ? { to } : {}) };
}

const words = (s: Scenario): AheadWords => ({
  wallets: (n) => `${counted(n, 'wallet')} of "${s.name}"`,
  the: `the wallets of "${s.name}"`,
  otherwise: 'as the scenario starts',
  later: 'later runs of this scenario start with its wallets funded',
});

/**
 * The options that start the scenario's testnet on its state paid ahead (built here, once per machine, when missing),
 * or `options` as they are where nothing is done ahead or no state can be kept (funded-state-cache.ts, aheadState).
 */
export async function freshStart(
  s: Scenario,
  spec: BackendSpec,
  options: TestnetOptions,
  o: { log: (line: string) => void; signal?: AbortSignal },
): Promise<FreshStart> {
  const plan = freshPlan(s, spec, options.difficulty ?? spec.difficulty);
  if (plan.pays.length === 0 && plan.to === undefined) return { options, ahead: new Set() };
  let key: string | undefined;
  try {
    key = await aheadState(options, plan.pays, {
      log: o.log,
      words: words(s),
      ...(o.signal ? { signal: o.signal } : {}),
      ...(plan.to !== undefined ? { to: plan.to } : {}),
    });
  } catch (err) {
    if (o.signal?.aborted) throw err;
    o.log(`saltnet: could not fund the wallets of "${s.name}" ahead (${messageOf(err)}); they are funded as it starts`);
  }
  if (!key) return { options, ahead: new Set() };
  return {
    options: { ...options, snapshotKey: key, unlocked: restOf(options, plan.pays, spec.feeMargin) },
    ahead: new Set(plan.pays.map((p) => p.wallet)),
    ...(plan.to !== undefined ? { to: plan.to } : {}),
  };
}
