// sweep_all and sweep_single: `to` becomes `address`, `asset` becomes `asset_type`.
import { z } from 'zod';
import type { PathSegment } from '../../common/path.js';
import { addressText, amountLeaf } from '../schema/leaves.js';
import { checkAddressValue, ruleProblem, type RuleCtx } from '../schema/rule-kit.js';
import { has } from '../schema/vocabulary.js';
import { fundingAsset, type BackendSpec } from '../../coin/backends.js';
import { verified } from './recorded.js';
import { sweepRequest, walletStep } from './wallet.js';

type Method = 'sweep_all' | 'sweep_single';

function sweepSchema(method: Method): z.ZodType {
  const shape: Record<string, z.ZodType> = {
    to: z.string().describe(addressText).optional(),
    address: z.string().describe(`${addressText} (same as to)`).optional(),
    asset: z.string().describe('asset to sweep (default SAL1)').optional(),
  };
  if (method === 'sweep_all') shape.below_amount = amountLeaf(true).optional();
  if (method === 'sweep_single')
    shape.key_image = z.string().describe('key image (hex) of the output to sweep').optional();
  return z
    .looseObject(shape)
    .describe(
      `${method}: {to (or address), ${method === 'sweep_single' ? 'key_image, ' : ''}asset?}, plus raw ${method} fields sent as written`,
    )
    .meta({ oneOf: [{ required: ['to'] }, { required: ['address'] }] });
}

function checkSweep(ctx: RuleCtx, v: Record<string, unknown>, path: PathSegment[]): void {
  if (has(v, 'to') && has(v, 'address'))
    ruleProblem(ctx, [...path, 'address'], 'key', 'give either to or address, not both', addressText);
  else if (!has(v, 'to') && !has(v, 'address'))
    ruleProblem(ctx, [...path, 'to'], 'parent', 'missing "to" (the destination address)', addressText);
  checkAddressValue(ctx, v.to, [...path, 'to']);
  checkAddressValue(ctx, v.address, [...path, 'address']);
}

/** A recorded sweep request as the readable form: `address` as `to`, `asset_type` as `asset`. */
function sweepCandidate(p: Record<string, unknown>, spec: BackendSpec): Record<string, unknown> | undefined {
  const { address, asset_type, ...rest } = p;
  if (typeof address !== 'string') return undefined;
  const coin = fundingAsset(spec);
  return { to: address, ...(asset_type !== undefined && asset_type !== coin ? { asset: asset_type } : {}), ...rest };
}

export const sweepAll = walletStep({
  method: 'sweep_all',
  schema: sweepSchema('sweep_all'),
  known: [
    'to',
    'address',
    'asset',
    'account_index',
    'subaddr_indices',
    'subaddr_indices_all',
    'priority',
    'ring_size',
    'outputs',
    'unlock_time',
    'payment_id',
    'get_tx_keys',
    'below_amount',
    'do_not_relay',
    'get_tx_hex',
    'get_tx_metadata',
    'asset_type',
  ],
  check: (ctx, v, path) => checkSweep(ctx, v as Record<string, unknown>, path),
  request: (p, ctx) => sweepRequest(p, ctx.spec),
  fromRecorded: (p, spec) => verified(sweepCandidate(p, spec), (x) => sweepRequest(x, spec), p),
  docs: {
    note: '`to` is sent as `address`, `asset` as `asset_type` (SAL1 unless given). The answer has lists (`tx_hash_list`, `amount_list`, …) like `transfer_split`.',
  },
});

export const sweepSingle = walletStep({
  method: 'sweep_single',
  schema: sweepSchema('sweep_single'),
  known: [
    'to',
    'address',
    'asset',
    'priority',
    'ring_size',
    'outputs',
    'unlock_time',
    'payment_id',
    'get_tx_key',
    'key_image',
    'do_not_relay',
    'get_tx_hex',
    'get_tx_metadata',
    'asset_type',
  ],
  check: (ctx, v, path) => checkSweep(ctx, v as Record<string, unknown>, path),
  request: (p, ctx) => sweepRequest(p, ctx.spec),
  fromRecorded: (p, spec) => verified(sweepCandidate(p, spec), (x) => sweepRequest(x, spec), p),
  docs: {
    note: '`to` is sent as `address`, `asset` as `asset_type` (SAL1 unless given). Find a key image with `call: { method: incoming_transfers, params: { transfer_type: available } }` and `save` it.',
  },
});
