// Tokens held before the steps (`requires.tokens`, `wallets.<name>.tokens`): a ticker is made once on a chain, so
// two declarations of one ticker, or a create_token step of a ticker already made before the steps, cannot both
// hold. Said here, at the line, rather than by create_token's refusal as the scenario starts.
import { formatPath, type PathSegment } from '../../common/path.js';
import { problem, type RuleCtx } from './rule-kit.js';
import { isPlainObject } from './vocabulary.js';

/** Every declared ticker, with the path of its declaration. */
function declared(doc: Record<string, unknown>): { ticker: string; path: PathSegment[] }[] {
  const maps: { m: unknown; path: PathSegment[] }[] = [];
  if (isPlainObject(doc.requires)) maps.push({ m: doc.requires.tokens, path: ['requires', 'tokens'] });
  if (isPlainObject(doc.wallets))
    for (const [w, d] of Object.entries(doc.wallets))
      if (isPlainObject(d)) maps.push({ m: d.tokens, path: ['wallets', w, 'tokens'] });
  return maps.flatMap(({ m, path }) =>
    isPlainObject(m) ? Object.keys(m).map((ticker) => ({ ticker, path: [...path, ticker] })) : [],
  );
}

export function checkHeldTickers(ctx: RuleCtx, doc: Record<string, unknown>): void {
  const first = new Map<string, PathSegment[]>();
  for (const d of declared(doc)) {
    const before = first.get(d.ticker);
    if (before)
      problem(
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
      problem(
        ctx,
        ['steps', i, 'create_token', 'ticker'],
        'value',
        `token ${ticker} is made before the steps (${formatPath(before)}): creating it again is refused`,
        'a ticker not declared under tokens',
      );
  });
}
