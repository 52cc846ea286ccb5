// The RandomX mode of a testnet of one scenario (fresh isolation, or a scenario of several nodes),
// when the run leaves it to `auto`. Full mode mines ~5x faster but builds a 2 GiB dataset at every
// daemon start, ~55 s of both cores, before its first block (docs/difficulty.md). On two cores at
// difficulty 500 a light-mode block takes ~6 s more than a full-mode one, so the dataset pays for
// itself from about 11 blocks on. A scenario's blocks at the served difficulty are counted from its
// steps and its wallets' funding: fewer than that, and every node of its testnet runs light; a
// step that mines by itself (automine, or a wait that mines) counts as many. What the state its testnet
// restores did ahead (wallets paid, a height reached: own-testnet-funds.ts) is not counted.
import { FULL_RANDOMX_FROM, type BackendSpec, type MinerChoice, type RandomxChoice } from '../coin/backends.js';
import { loadRandomx } from '../randomx/library.js';
import { heldTokens, requiredHeight, tokenPayments } from '../scenario/needs.js';
import type { Scenario } from '../scenario/model.js';

/** Blocks from which full mode pays for its dataset (see the header). */
export const FULL_MODE_BLOCKS = 11;

/** What the state a scenario's testnet restores did ahead (own-testnet-funds.ts): wallets paid, a height reached. */
export interface DoneAhead {
  ahead: ReadonlySet<string>;
  to?: number;
}

/** The blocks a scenario mines after its testnet is ready, at most (Infinity: a step mines by itself). */
export function blocksMined(s: Scenario, spec: BackendSpec, done?: DoneAhead): number {
  let height = Math.max(requiredHeight(s, spec), done?.to ?? 0);
  const paid = (w: string): boolean => done?.ahead.has(w) === true;
  // Each funded wallet not paid ahead: its payment confirmed, then the blocks until it is spendable.
  const funded = s.wallets.filter(
    (w) => !paid(w.name) && (Object.keys(w.unlocked ?? {}).length > 0 || (w.tokens?.length ?? 0) > 0),
  );
  let blocks = funded.length * ((spec.spendableAge ?? 10) + 2);
  // Tokens held before the steps (and not made ahead): their supply unlocks coinbaseUnlock blocks after their block.
  if (heldTokens(s).some((h) => !paid(h.wallet))) blocks += spec.coinbaseUnlock + 1;
  // Tokens paid from their maker to the wallets that ask for them (never ahead): each confirmed, then unlocked.
  blocks += tokenPayments(s).length * ((spec.spendableAge ?? 10) + 2);
  for (const step of s.steps) {
    const a = step.action as { kind: string; blocks?: number; to?: number; mine?: boolean };
    if (a.kind === 'automine' || (a.kind === 'wait' && a.mine)) return Infinity;
    if (a.kind !== 'mine') continue;
    const n = a.to !== undefined ? Math.max(0, a.to - height) : (a.blocks ?? 1);
    blocks += n;
    height += n;
  }
  return blocks;
}

/**
 * Whether `auto` picks the daemon's mode here: a backend with RandomX whose daemon mines (saltnet's own miner picks
 * the mode of each job by cost, and keeps its dataset in the cache folder), no mode given, a difficulty where full
 * mode can pay.
 */
function autoDecides(
  spec: BackendSpec,
  o: { randomx?: RandomxChoice; miner?: MinerChoice; difficulty?: number },
): boolean {
  const daemonMines = o.miner === 'daemon' || (o.miner !== 'saltnet' && 'missing' in loadRandomx());
  return (
    !!spec.randomx &&
    daemonMines &&
    (o.randomx ?? 'auto') === 'auto' &&
    (o.difficulty ?? spec.difficulty) >= FULL_RANDOMX_FROM
  );
}

/** The mode for the scenario's own testnet: light when `auto` would run full for fewer blocks than pay for it. */
export function scenarioRandomx(
  s: Scenario,
  spec: BackendSpec,
  o: { randomx?: RandomxChoice; miner?: MinerChoice; difficulty?: number },
  done?: DoneAhead,
): RandomxChoice | undefined {
  if (!autoDecides(spec, o)) return o.randomx;
  return blocksMined(s, spec, done) < FULL_MODE_BLOCKS ? 'light' : o.randomx;
}

/**
 * The mode for a shared run's testnet (one node, its scenarios' wallets and tokens paid ahead): light when `auto`
 * would run full for fewer blocks, in all its scenarios together, than pay for the dataset. A bug report's one
 * scenario that mines a block or two then never waits for a dataset.
 */
export function sharedRandomx(
  scenarios: readonly Scenario[],
  spec: BackendSpec,
  o: { randomx?: RandomxChoice; miner?: MinerChoice; difficulty?: number },
): RandomxChoice | undefined {
  if (!autoDecides(spec, o)) return o.randomx;
  let blocks = 0;
  for (const s of scenarios) {
    const ahead = new Set([...s.wallets.map((w) => w.name), ...heldTokens(s).map((h) => h.wallet)]);
    blocks += blocksMined(s, spec, { ahead });
    if (blocks >= FULL_MODE_BLOCKS) return o.randomx;
  }
  return 'light';
}
