// The funds a scenario asks for, bounded: never more than its asset's whole supply (the coin's,
// BACKENDS), and the fund asset in all (with what each held token costs) no more than MAX_FUNDING_BLOCKS
// blocks of mining pay: every unit a scenario's wallets get is mined first.
import { amountUnits, backendOfUnit, BACKENDS, fundingAsset, type BackendSpec } from '../coin/backends.js';
import { isPlainObject } from '../common/plain-object.js';
import { fundingBlocks } from '../testnet/mining/funding.js';
import { formatAmountShort, parseAmount } from '../coin/amounts.js';
import type { PathSegment } from '../common/path.js';
import { MAX_FUNDING_BLOCKS } from './bounds.js';
import { problem, type Obj, type SchemaProblem } from './schema/problem.js';
import { counted } from '../common/describe.js';

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
 * The most of its fund asset that `blocks` blocks of funding give (testnet/mining/funding.ts fundingBlocks: a block of
 * `typicalReward` each, and one of margin).
 */
export function maxFundable(spec: BackendSpec, blocks = MAX_FUNDING_BLOCKS): bigint {
  return BigInt(Math.max(blocks - 1, 0)) * spec.typicalReward;
}

const fundableCache = new Map<string, bigint>();
export function fundable(spec: BackendSpec): bigint {
  let v = fundableCache.get(spec.name);
  if (v === undefined) fundableCache.set(spec.name, (v = maxFundable(spec)));
  return v;
}

export const showAmount = (atomic: bigint, asset: string): string =>
  amountUnits().has(asset) ? formatAmountShort(atomic, asset) : `${atomic} atomic units of ${asset}`;

/** The backend whose tokens a scenario's `tokens:` hold, with what one costs its wallet (the burn and a fee margin). */
function tokenCost(): { spec: BackendSpec; cost: bigint } | undefined {
  const spec = Object.values(BACKENDS).find((b) => b.tokenCost !== undefined && b.fundAsset !== undefined);
  return spec ? { spec, cost: spec.tokenCost! + spec.feeMargin } : undefined;
}

interface Asked {
  asset: string;
  amount: bigint;
  path: PathSegment[];
  /** What a held token costs (`tokens:`), not an amount the file wrote. */
  token?: boolean;
}

/**
 * Every amount of `requires.unlocked` and `wallets.<name>.unlocked` with its path, and what each held token of
 * `requires.tokens` and `wallets.<name>.tokens` costs its wallet in the fund asset.
 */
function fundsAsked(doc: Obj): Asked[] {
  const holders: { d: Obj; path: PathSegment[] }[] = [];
  if (isPlainObject(doc.requires)) holders.push({ d: doc.requires, path: ['requires'] });
  if (isPlainObject(doc.wallets))
    for (const [w, d] of Object.entries(doc.wallets)) if (isPlainObject(d)) holders.push({ d, path: ['wallets', w] });
  const tokens = tokenCost();
  const out: Asked[] = [];
  for (const { d, path } of holders) {
    if (isPlainObject(d.unlocked))
      for (const [asset, v] of Object.entries(d.unlocked)) {
        try {
          out.push({ asset, amount: parseAmount(v), path: [...path, 'unlocked', asset] });
        } catch {
          /* not an amount: the schema says so */
        }
      }
    if (isPlainObject(d.tokens) && tokens)
      for (const ticker of Object.keys(d.tokens))
        out.push({
          asset: fundingAsset(tokens.spec),
          amount: tokens.cost,
          path: [...path, 'tokens', ticker],
          token: true,
        });
  }
  return out;
}

/**
 * Funds above the supply of their asset, or (the fund asset, held tokens' costs included) more than MAX_FUNDING_BLOCKS
 * blocks of mining pay.
 */
export function fundProblems(doc: Obj): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const totals = new Map<string, bigint>();
  const tokens = tokenCost();
  const asked = fundsAsked(doc);
  for (const f of asked) {
    const supply = supplyOf(f.asset);
    if (!f.token && f.amount > supply) {
      out.push(
        problem(
          f.path,
          `${showAmount(f.amount, f.asset)} is more than the chain can ever mint: the whole supply is ${showAmount(supply, f.asset)}`,
          `at most ${showAmount(supply, f.asset)}`,
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
      const alone = !f.token && total === f.amount;
      const tokenNote =
        tokens && asked.some((x) => x.token) ? `, ${showAmount(tokens.cost, f.asset)} for each held token` : '';
      const what = alone
        ? showAmount(f.amount, f.asset)
        : `${showAmount(total, f.asset)} in all (requires and wallets together${tokenNote})`;
      out.push(
        problem(
          f.path,
          `funding ${what} costs ${counted(fundingBlocks(total, spec.typicalReward), 'block')} of mining (${showAmount(spec.typicalReward, f.asset)} a block); a scenario's funding is at most ${MAX_FUNDING_BLOCKS} blocks, so at most ${showAmount(max, f.asset)} in all`,
          `at most ${showAmount(max, f.asset)} in all`,
        ),
      );
      totals.set(f.asset, -(2n ** 200n)); // one problem per asset
    }
  }
  return out;
}
