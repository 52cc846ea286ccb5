// create_token: {ticker, supply, name?, url?, hash?, size?, metadata?} — `metadata: <name>` fills in
// the url, hash and size an earlier metadata step serves.
import { z } from 'zod';
import type { PathSegment } from '../../common/path.js';
import { suggest } from '../../common/suggest.js';
import { integerLeaf, nameLeaf } from '../schema/leaves.js';
import { ruleProblem, type RuleArgs, type RuleCtx } from '../schema/rule-kit.js';
import { NAME_RE, didYouMean, has } from '../schema/vocabulary.js';
import { fail, type StepContext } from './context.js';
import { walletStep } from './wallet.js';

const schema = z
  .looseObject({
    ticker: z
      .string()
      .describe('the ticker (4 characters A–Z 0–9; the wallet upper-cases it). Quote all-digit tickers: "1234"'),
    supply: integerLeaf('supply in whole tokens'),
    name: z.string().describe('token name').optional(),
    url: z.string().describe('metadata URL').optional(),
    hash: z.string().describe('metadata SHA-256 (64 hex characters)').optional(),
    size: integerLeaf('metadata size in bytes').optional(),
    metadata: nameLeaf('metadata name', 'rich')
      .describe('name of an earlier metadata step: fills in url, hash and size')
      .optional(),
    token_metadata_hex: z.string().describe('raw metadata JSON, hex-encoded (replaces name/url/hash/size)').optional(),
  })
  .describe(
    'create_token: {ticker, supply, name?, url?, hash?, size?, metadata?: <metadata name>} or {ticker, supply, token_metadata_hex}, plus raw create_token fields',
  );

function check(ctx: RuleCtx, v: Record<string, unknown>, path: PathSegment[], args: RuleArgs): void {
  if (!has(v, 'metadata')) return;
  for (const k of ['token_metadata_hex', 'url', 'hash', 'size']) {
    if (has(v, k))
      ruleProblem(
        ctx,
        [...path, k],
        'key',
        `"${k}" cannot be combined with metadata (the metadata step provides url, hash and size)`,
        '{ticker, supply, name?, metadata: <name>}',
      );
  }
  const m = v.metadata;
  if (typeof m !== 'string' || !NAME_RE.test(m) || args.metadataNames.has(m)) return;
  const later = args.metadataLater.get(m);
  const message =
    later !== undefined
      ? `metadata "${m}" is built by step ${later + 1}, which runs after this one`
      : `no earlier metadata step is named "${m}"${didYouMean(suggest(m, [...args.metadataNames]))}`;
  ruleProblem(ctx, [...path, 'metadata'], 'value', message, 'the name of an earlier metadata step');
}

/** `metadata: <name>` → the url, hash and size that metadata step serves. */
function request(p: Record<string, unknown>, ctx: StepContext): Record<string, unknown> {
  if (typeof p.metadata !== 'string') return p;
  const m = (ctx.scope.metadata as Record<string, { url: string; sha256: string; size: number }> | undefined)?.[
    p.metadata
  ];
  if (!m) return fail(`create_token: no metadata named "${p.metadata}" (add a metadata step before it)`);
  const { metadata: _m, ...rest } = p;
  return { url: m.url, hash: m.sha256, size: m.size, ...rest };
}

export const createToken = walletStep({
  method: 'create_token',
  needsTokens: true,
  // a recorded creation with metadata given raw is written as sent; `metadata: <name>` is a step's own
  fromRecorded: (p) => ('ticker' in p && 'supply' in p && !('metadata' in p) ? p : undefined),
  schema,
  known: [
    'ticker',
    'supply',
    'name',
    'url',
    'hash',
    'size',
    'metadata',
    'token_metadata_hex',
    'account_index',
    'subaddr_indices',
    'get_tx_keys',
    'do_not_relay',
    'get_tx_hex',
    'get_tx_metadata',
  ],
  check: (ctx, v, path, args) => check(ctx, v as Record<string, unknown>, path, args),
  request,
  docs: {
    note: "Needs the daemon's next block to be hard fork 11 or later (height ≥ 1200 on testnet) and burns 1000 SAL1 (10000 for premium tickers) plus the fee, so the runner brings a scenario with a `create_token` step to height 1201 and 1001 unlocked SAL1 unless `requires` asks for more. The wallet upper-cases the ticker; the token is listed as `sal` + ticker (e.g. `salABCD`) by `get_tokens` one block after creation. With `metadata: <name>`, the `url`, `hash` and `size` of that earlier `metadata` step are filled in.",
  },
});
