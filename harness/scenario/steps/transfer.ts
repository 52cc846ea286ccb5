// transfer and transfer_split: {to, amount, asset?} or {destinations: […]}, filled in as the real
// request (destinations in atomic units with asset_type, source/dest asset, tx_type 3).
import { isPlainObject } from '../../common/plain-object.js';
import { z } from 'zod';
import { AMOUNT_FORMS } from '../../coin/amounts.js';
import type { PathSegment } from '../../common/path.js';
import { addressText, amountLeaf } from '../schema/leaves.js';
import { checkAddressValue, ruleProblem, type RuleCtx } from '../schema/rule-kit.js';
import { has } from '../schema/vocabulary.js';
import { fundingAsset, type BackendSpec } from '../../coin/backends.js';
import { readableAmount, verified } from './recorded.js';
import { transferRequest, walletStep } from './wallet.js';

type Method = 'transfer' | 'transfer_split';

const destination = z
  .strictObject({
    to: z.string().describe(addressText).optional(),
    address: z.string().describe(`${addressText} (same as to)`).optional(),
    amount: amountLeaf(true),
    asset: z.string().describe('asset of the amount (default SAL1), e.g. salABCD').optional(),
  })
  .describe('a destination: {to (or address), amount, asset?}')
  .meta({ oneOf: [{ required: ['to'] }, { required: ['address'] }] });

function transferSchema(method: Method): z.ZodType {
  return z
    .looseObject({
      to: z.string().describe(addressText).optional(),
      amount: amountLeaf(true).optional(),
      asset: z
        .string()
        .describe('asset to send (default SAL1), e.g. salABCD; sets source/dest/destination asset_type')
        .optional(),
      destinations: z.array(destination).min(1).describe('several destinations: [{to, amount, asset?}]').optional(),
    })
    .describe(
      `${method}: {to, amount, asset?} or {destinations: [{to, amount, asset?}]}, plus raw ${method} fields (priority, do_not_relay, …) sent as written; tx_type 3 and the assets are filled in`,
    )
    .meta({ anyOf: [{ required: ['to', 'amount'] }, { required: ['destinations'] }] });
}

function checkDestinations(ctx: RuleCtx, list: unknown[], path: PathSegment[]): void {
  list.forEach((d, i) => {
    if (!isPlainObject(d)) return;
    const dp = [...path, 'destinations', i];
    if (has(d, 'to') && has(d, 'address'))
      ruleProblem(ctx, [...dp, 'address'], 'key', 'give either to or address, not both', '{to, amount, asset?}');
    else if (!has(d, 'to') && !has(d, 'address'))
      ruleProblem(ctx, [...dp, 'to'], 'parent', 'missing "to" (the destination address)', addressText);
    checkAddressValue(ctx, d.to, [...dp, 'to']);
    checkAddressValue(ctx, d.address, [...dp, 'address']);
  });
}

function checkTransfer(method: Method, ctx: RuleCtx, v: Record<string, unknown>, path: PathSegment[]): void {
  if (has(v, 'address'))
    ruleProblem(
      ctx,
      [...path, 'address'],
      'key',
      `${method} takes "to" for the destination address (or destinations: [{address, amount}])`,
      'to: <address>',
    );
  if (has(v, 'destinations')) {
    for (const k of ['to', 'amount', 'asset']) {
      if (has(v, k))
        ruleProblem(
          ctx,
          [...path, k],
          'key',
          `"${k}" cannot be combined with destinations; give each destination its own ${k}`,
          '{destinations: [{to, amount, asset?}]}',
        );
    }
    if (Array.isArray(v.destinations)) checkDestinations(ctx, v.destinations, path);
  } else {
    if (!has(v, 'to') && !has(v, 'address'))
      ruleProblem(
        ctx,
        [...path, 'to'],
        'parent',
        `missing "to" (the destination address)`,
        `{to, amount, asset?} or {destinations: [{to, amount, asset?}]}`,
      );
    if (!has(v, 'amount')) ruleProblem(ctx, [...path, 'amount'], 'parent', 'missing "amount"', `${AMOUNT_FORMS}`);
  }
  checkAddressValue(ctx, v.to, [...path, 'to']);
}

/** A recorded transfer request as the readable form: {to, amount, asset?} or {destinations}, the rest as written. */
function transferCandidate(p: Record<string, unknown>, spec: BackendSpec): Record<string, unknown> | undefined {
  const { destinations, source_asset: _s, dest_asset: _d, tx_type: _t, ...rest } = p;
  if (!Array.isArray(destinations) || destinations.length === 0 || !destinations.every(isPlainObject)) return undefined;
  const coin = fundingAsset(spec);
  const asset = String(p.source_asset ?? destinations[0]!.asset_type ?? coin);
  const dests = destinations.map((d) => {
    const a = String(d.asset_type ?? asset);
    return { to: d.address, amount: readableAmount(d.amount, a, spec), ...(a !== asset ? { asset: a } : {}) };
  });
  const assetField = asset !== coin ? { asset } : {};
  if (dests.length === 1) return { to: dests[0]!.to, amount: dests[0]!.amount, ...assetField, ...rest };
  return { destinations: dests, ...assetField, ...rest };
}

export const transfer = walletStep({
  method: 'transfer',
  schema: transferSchema('transfer'),
  known: [
    'to',
    'amount',
    'asset',
    'destinations',
    'source_asset',
    'dest_asset',
    'tx_type',
    'account_index',
    'subaddr_indices',
    'subtract_fee_from_outputs',
    'priority',
    'ring_size',
    'unlock_time',
    'payment_id',
    'get_tx_key',
    'do_not_relay',
    'get_tx_hex',
    'get_tx_metadata',
  ],
  check: (ctx, v, path) => checkTransfer('transfer', ctx, v as Record<string, unknown>, path),
  request: (p, ctx) => transferRequest('transfer', p, ctx.spec),
  fromRecorded: (p, spec) => verified(transferCandidate(p, spec), (x) => transferRequest('transfer', x, spec), p),
  docs: {
    note: 'The readable form becomes the real request: each destination gets `address` and `amount` (atomic units) and `asset_type`; `source_asset` and `dest_asset` are set to the asset (SAL1 unless `asset:` says otherwise) and `tx_type` to 3 (TRANSFER). On the `monero` backend no asset fields are added. Any other key (e.g. `priority`, `do_not_relay`) is passed on unchanged. One transaction carries at most 7 destinations (more is refused with `-18`: use `transfer_split`) and spends at most 64 inputs (a payment that the 64 largest outputs cannot fund is refused with `-4 Not enough usable money in top 64 inputs …`, by `transfer_split` too). Token transfers also need `transfer_split` (a token transfer is two transactions).',
  },
});

export const transferSplit = walletStep({
  method: 'transfer_split',
  schema: transferSchema('transfer_split'),
  known: [
    'to',
    'amount',
    'asset',
    'destinations',
    'source_asset',
    'dest_asset',
    'tx_type',
    'account_index',
    'subaddr_indices',
    'priority',
    'ring_size',
    'unlock_time',
    'payment_id',
    'get_tx_keys',
    'do_not_relay',
    'get_tx_hex',
    'get_tx_metadata',
  ],
  check: (ctx, v, path) => checkTransfer('transfer_split', ctx, v as Record<string, unknown>, path),
  request: (p, ctx) => transferRequest('transfer_split', p, ctx.spec),
  fromRecorded: (p, spec) => verified(transferCandidate(p, spec), (x) => transferRequest('transfer_split', x, spec), p),
  docs: {
    note: 'Filled in as for `transfer`. The answer has lists: `tx_hash_list`, `fee_list`, `amount_list`, …, one entry per transaction.',
  },
});
