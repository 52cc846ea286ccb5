// The funds a scenario asks for, bounded: never more than its asset's whole supply (the coin's,
// BACKENDS), and in all at most what the runner's funding can mine below MAX_HEIGHT.
import { MAX_HEIGHT } from '../limits.js';
import { amountUnits, backendOfUnit, BACKENDS, fundingAsset, type BackendSpec } from '../testnet/backends.js';
import { planMining } from '../testnet/funding.js';
import { formatAmountShort, parseAmount } from '../testnet/amounts.js';
import type { PathSegment } from '../common/path.js';
import type { SchemaProblem } from './schema.js';
import { isObj, problem, type Obj } from './schema/problem.js';

/**
 * Atomic units of the whole supply of an asset: its coin's (BACKENDS); a token's is bounded by Salvium's money supply,
 * the coin it is created on.
 */
function supplyOf(asset: string): bigint {
  return (backendOfUnit(asset) ?? BACKENDS.salvium).coin.supply;
}

/** The backend that funds a wallet in this asset by mining (the runner's funding plan), if one does. */
function fundingBackend(asset: string): BackendSpec | undefined {
  return Object.values(BACKENDS).find((b) => fundingAsset(b) === asset);
}

/**
 * The most of its fund asset that the runner's funding plan (testnet/funding.ts planMining: blocks
 * of `typicalReward` each, unlocked `coinbaseUnlock` blocks later) can give a wallet with the chain
 * no taller than MAX_HEIGHT.
 */
export function maxFundable(spec: BackendSpec, height = MAX_HEIGHT): bigint {
  const fits = (need: bigint): boolean => {
    const plan = planMining({
      height: 0,
      target: height,
      need,
      fundFromHeight: spec.fundFromHeight,
      typicalReward: spec.typicalReward,
      coinbaseUnlock: spec.coinbaseUnlock,
      minFundBlocks: spec.minFundBlocks,
    });
    return plan.fundedTo + spec.coinbaseUnlock + 2 <= height;
  };
  // planMining gives need/typicalReward + 1 blocks; the plan ends in time while its blocks fit below the height.
  let blocks = BigInt(height - spec.fundFromHeight - spec.coinbaseUnlock - 2 - 1);
  while (blocks > 0n && !fits(blocks * spec.typicalReward)) blocks--;
  return blocks > 0n ? blocks * spec.typicalReward : 0n;
}

const fundableCache = new Map<string, bigint>();
export function fundable(spec: BackendSpec): bigint {
  let v = fundableCache.get(spec.name);
  if (v === undefined) fundableCache.set(spec.name, (v = maxFundable(spec)));
  return v;
}

export const show = (atomic: bigint, asset: string): string =>
  amountUnits().has(asset) ? formatAmountShort(atomic, asset) : `${atomic} atomic units of ${asset}`;

/** Every amount of `requires.unlocked` and `wallets.<name>.unlocked`, with its path. */
function fundsAsked(doc: Obj): { asset: string; amount: bigint; path: PathSegment[] }[] {
  const maps: { m: unknown; path: PathSegment[] }[] = [];
  if (isObj(doc.requires)) maps.push({ m: doc.requires.unlocked, path: ['requires', 'unlocked'] });
  if (isObj(doc.wallets))
    for (const [w, d] of Object.entries(doc.wallets))
      if (isObj(d)) maps.push({ m: d.unlocked, path: ['wallets', w, 'unlocked'] });
  const out: { asset: string; amount: bigint; path: PathSegment[] }[] = [];
  for (const { m, path } of maps) {
    if (!isObj(m)) continue;
    for (const [asset, v] of Object.entries(m)) {
      try {
        out.push({ asset, amount: parseAmount(v), path: [...path, asset] });
      } catch {
        /* not an amount: the schema says so */
      }
    }
  }
  return out;
}

/** Funds above the supply of their asset, or (the fund asset) more than mining to MAX_HEIGHT can give. */
export function fundProblems(doc: Obj): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const totals = new Map<string, bigint>();
  for (const f of fundsAsked(doc)) {
    const supply = supplyOf(f.asset);
    if (f.amount > supply) {
      out.push(
        problem(
          f.path,
          `${show(f.amount, f.asset)} is more than the chain can ever mint: the whole supply is ${show(supply, f.asset)}`,
          `at most ${show(supply, f.asset)}`,
        ),
      );
      continue;
    }
    const spec = fundingBackend(f.asset);
    if (!spec) continue;
    const total = (totals.get(f.asset) ?? 0n) + f.amount;
    totals.set(f.asset, total);
    const max = fundable(spec);
    if (total > max) {
      const what =
        total === f.amount ? show(f.amount, f.asset) : `${show(total, f.asset)} in all (requires and wallets together)`;
      out.push(
        problem(
          f.path,
          `funding ${what} needs more blocks than a chain of height ${MAX_HEIGHT} has: the runner mines ${show(spec.typicalReward, f.asset)} a block to the test wallet, so at most ${show(max, f.asset)} can be funded`,
          `at most ${show(max, f.asset)} in all`,
        ),
      );
      totals.set(f.asset, -(2n ** 200n)); // one problem per asset
    }
  }
  return out;
}
