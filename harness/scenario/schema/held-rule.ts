// Tokens held before the steps (`requires.tokens`, `wallets.<name>.tokens`): a ticker is made once on a chain, so
// two declarations of one ticker, or a create_token step of a ticker already made before the steps, cannot both
// hold; and a token a wallet asks for under `unlocked` is paid by the wallet that makes it, out of its supply. Said
// here, at the line, rather than by a refusal as the scenario starts.
import { formatPath, type PathSegment } from '../../common/path.js';
import { isPlainObject } from '../../common/plain-object.js';
import { amountError, parseAmount } from '../../coin/amounts.js';
import { ruleProblem, type RuleCtx } from './rule-kit.js';

/** A mapping under `requires` (the main wallet's) and under each declared wallet: `tokens` or `unlocked`. */
function walletMaps(
  doc: Record<string, unknown>,
  key: 'tokens' | 'unlocked',
): { m: Record<string, unknown>; path: PathSegment[] }[] {
  const maps: { m: unknown; path: PathSegment[] }[] = [];
  if (isPlainObject(doc.requires)) maps.push({ m: doc.requires[key], path: ['requires', key] });
  if (isPlainObject(doc.wallets))
    for (const [w, d] of Object.entries(doc.wallets))
      if (isPlainObject(d)) maps.push({ m: d[key], path: ['wallets', w, key] });
  return maps.flatMap(({ m, path }) => (isPlainObject(m) ? [{ m, path }] : []));
}

/** Every declared ticker, with the path of its declaration and its supply as written. */
function declared(doc: Record<string, unknown>): { ticker: string; path: PathSegment[]; supply: unknown }[] {
  return walletMaps(doc, 'tokens').flatMap(({ m, path }) =>
    Object.entries(m).map(([ticker, d]) => ({
      ticker,
      path: [...path, ticker],
      supply: isPlainObject(d) ? d.supply : undefined,
    })),
  );
}

/**
 * A token under `unlocked` is one a wallet of the scenario makes before the steps (its maker pays it), and the
 * wallets together ask for no more than its supply.
 */
function checkHeldPayments(ctx: RuleCtx, doc: Record<string, unknown>): void {
  const made = new Map(declared(doc).map((d) => [`sal${d.ticker}`, d]));
  const asked = new Map<string, bigint>();
  for (const { m, path } of walletMaps(doc, 'unlocked'))
    for (const [asset, v] of Object.entries(m)) {
      if (!/^(sal|erc)[0-9A-Z]{4}$/.test(asset)) continue;
      const maker = made.get(asset);
      if (!maker) {
        ruleProblem(
          ctx,
          [...path, asset],
          'key',
          `${asset} is not made before the steps by a wallet of this scenario, so no wallet can pay it: declare ` +
            `${asset.slice(3)} under requires.tokens or wallets.<name>.tokens (its maker pays it)`,
          'the funding asset, or a token declared under tokens',
        );
        continue;
      }
      const supply = maker.supply;
      if (amountError(v) !== undefined || typeof supply !== 'number' || !Number.isSafeInteger(supply)) continue;
      // A token's amounts are written as SAL1's (8 decimals).
      const total = (asked.get(asset) ?? 0n) + parseAmount(v);
      asked.set(asset, total);
      if (total > parseAmount(`${supply} SAL1`))
        ruleProblem(
          ctx,
          [...path, asset],
          'value',
          `the wallets ask for more ${asset} than its supply of ${supply} (${formatPath(maker.path)})`,
          `at most ${supply} ${asset} in all`,
        );
    }
}

export function checkHeldTickers(ctx: RuleCtx, doc: Record<string, unknown>): void {
  checkHeldPayments(ctx, doc);
  const first = new Map<string, PathSegment[]>();
  for (const d of declared(doc)) {
    const before = first.get(d.ticker);
    if (before)
      ruleProblem(
        ctx,
        d.path,
        'key',
        `token ${d.ticker} is already made before the steps by ${formatPath(before)}: a ticker is made once`,
        'a ticker of its own',
      );
    else first.set(d.ticker, d.path);
  }
  const steps = Array.isArray(doc.steps) ? doc.steps : [];
  steps.forEach((st, i) => {
    const c = isPlainObject(st) && isPlainObject(st.create_token) ? st.create_token : undefined;
    const ticker = typeof c?.ticker === 'string' ? c.ticker.toUpperCase() : undefined;
    const before = ticker === undefined ? undefined : first.get(ticker);
    if (before)
      ruleProblem(
        ctx,
        ['steps', i, 'create_token', 'ticker'],
        'value',
        `token ${ticker} is made before the steps (${formatPath(before)}): creating it again is refused`,
        'a ticker not declared under tokens',
      );
  });
}
