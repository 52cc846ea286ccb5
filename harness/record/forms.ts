// A recorded request as a step: the readable form of its method when that form, filled in by the
// runner, sends exactly the recorded request again (checked by building it: `transferRequest`,
// `sweepRequest`), and `call` otherwise — a request is always replayed byte for byte the same.
import { fundingAsset } from '../testnet/backends.js';
import { isPlainObject } from '../scenario/match-values.js';
import { formatAmountShort } from '../testnet/amounts.js';
import { sweepRequest, transferRequest } from '../scenario/steps/wallet.js';
import type { BackendSpec } from '../testnet/backends.js';
import type { RecordedCall } from './types.js';

/** A step's action: its key (the step kind) and its value. */
export interface ActionDraft {
  key: string;
  value: Record<string, unknown>;
}

/** JSON text with sorted keys, bigints and integral numbers alike: equal requests give equal text. */
export function canonical(v: unknown): string {
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return `#${String(v)}`;
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isPlainObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** Methods whose readable form is the request as written. */
const AS_WRITTEN = new Set(['get_balance', 'getbalance', 'get_transfers', 'get_tokens']);

/** An amount as the readable form writes it: `10 SAL1` for the coin, atomic units otherwise. */
function readableAmount(v: unknown, asset: string, spec: BackendSpec): unknown {
  if (asset !== fundingAsset(spec) || (typeof v !== 'number' && typeof v !== 'bigint')) return v;
  return formatAmountShort(BigInt(v), asset);
}

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

function sweepCandidate(p: Record<string, unknown>, spec: BackendSpec): Record<string, unknown> | undefined {
  const { address, asset_type, ...rest } = p;
  if (typeof address !== 'string') return undefined;
  const coin = fundingAsset(spec);
  return { to: address, ...(asset_type !== undefined && asset_type !== coin ? { asset: asset_type } : {}), ...rest };
}

/** `candidate` when the runner would send exactly `params` for it. */
function verified(
  candidate: Record<string, unknown> | undefined,
  build: (c: Record<string, unknown>) => Record<string, unknown>,
  params: unknown,
): Record<string, unknown> | undefined {
  if (!candidate) return undefined;
  try {
    return canonical(build({ ...candidate })) === canonical(params) ? candidate : undefined;
  } catch {
    return undefined;
  }
}

function readableWallet(c: RecordedCall, spec: BackendSpec): ActionDraft | undefined {
  const m = c.method!;
  const p = c.params;
  if (!isPlainObject(p)) return undefined;
  if (AS_WRITTEN.has(m)) return { key: m, value: p };
  if (m === 'transfer' || m === 'transfer_split') {
    const v = verified(transferCandidate(p, spec), (x) => transferRequest(m, x, spec), p);
    return v && { key: m, value: v };
  }
  if (m === 'sweep_all' || m === 'sweep_single') {
    const v = verified(sweepCandidate(p, spec), (x) => sweepRequest(x, spec), p);
    return v && { key: m, value: v };
  }
  if (m === 'create_token' && 'ticker' in p && 'supply' in p && !('metadata' in p)) return { key: m, value: p };
  return undefined;
}

/** The step action for a recorded call; `readable: false` forces `call`. */
export function actionOf(c: RecordedCall, spec: BackendSpec, readable = true): ActionDraft {
  const hasParams = !(isPlainObject(c.params) && Object.keys(c.params).length === 0) && c.params !== undefined;
  const params = hasParams ? { params: c.params } : {};
  if (c.on === 'daemon')
    return { key: 'call', value: c.path ? { path: c.path, ...params } : { on: 'daemon', method: c.method, ...params } };
  const r = readable ? readableWallet(c, spec) : undefined;
  return r ?? { key: 'call', value: { method: c.method, ...params } };
}
