// The readable wallet forms (get_balance, transfer, create_token, …): one factory, so each form's
// module says only what is its own — schema, the request fields it knows, rules, docs, and how its
// readable fields become the real request.
import { isPlainObject } from '../../common/plain-object.js';
import type { z } from 'zod';
import type { BackendSpec } from '../../coin/backends.js';
import { interpolate } from '../interpolate.js';
import { checkRawKeys } from '../schema/rule-kit.js';

import type { StepCommon } from '../types.js';
import { amount, fail, replayOf, walletOf, type StepContext } from './context.js';
import { defineStep, type StepDocs, type StepExchange, type StepKind } from './kind.js';
import { assetTransfer } from '../../coin/transactions.js';

/** A readable wallet form: `params` is what the user wrote; the runner fills in the rest. */
export interface WalletAction<M extends string = string> {
  kind: 'wallet';
  method: M;
  params: unknown;
}

export interface WalletForm<M extends string> {
  method: M;
  schema: z.ZodType;
  /**
   * Request fields the form knows (its own keys and the raw RPC fields): a key that looks like a misspelling of one is
   * an error.
   */
  known: readonly string[];
  check?: StepKind['check'];
  /** The real request from the interpolated readable one. */
  request?(params: Record<string, unknown>, ctx: StepContext): Record<string, unknown>;
  docs: StepDocs;
  /** The method needs tokens on the chain (StepKind.needsTokens). */
  needsTokens?: true;
  /** The readable value that sends exactly this recorded request (StepKind.fromRecorded; recorded.ts). */
  fromRecorded?: StepKind['fromRecorded'];
}

/** A readable wallet form as a step kind. */
export function walletStep<M extends string>(
  form: WalletForm<M>,
): StepKind<M, WalletAction<M>> & { known: readonly string[] } {
  return {
    ...defineStep<M, WalletAction<M>>({
      key: form.method,
      schema: form.schema,
      answersRpc: true,
      build: (v) => ({ kind: 'wallet', method: form.method, params: v ?? {} }),
      defaultName: (a) => a.method,
      check(ctx, v, path, args) {
        if (!isPlainObject(v)) return;
        form.check?.(ctx, v, path, args);
        checkRawKeys(ctx, v, form.method, form.known, path);
      },
      run: (ctx, step, a) => invokeWallet(ctx, step, a, form.request),
      docs: form.docs,
      ...(form.needsTokens ? { needsTokens: () => true } : {}),
      ...(form.fromRecorded ? { fromRecorded: form.fromRecorded } : {}),
    }),
    known: form.known,
  };
}

async function invokeWallet(
  ctx: StepContext,
  step: StepCommon,
  a: WalletAction,
  request: WalletForm<string>['request'],
): Promise<StepExchange> {
  const params = (interpolate(a.params, ctx.scope) ?? {}) as Record<string, unknown>;
  const built = request ? request({ ...params }, ctx) : params;
  const w = walletOf(ctx, step.wallet);
  return {
    request: { wallet: step.wallet, method: a.method, params: built },
    response: await w.client.raw(a.method, built, replayOf(ctx, step)),
  };
}

const hasAssets = (spec: BackendSpec): boolean => spec.fundAsset !== undefined;

/** transfer / transfer_split: destinations with atomic amounts and assets, tx_type 3 (reference §6). */
export function transferRequest(
  method: string,
  p: Record<string, unknown>,
  spec: BackendSpec,
): Record<string, unknown> {
  const defaultAsset = spec.fundAsset ?? '';
  const { to, amount: amt, asset, destinations, ...rest } = p;
  if (destinations !== undefined && (to !== undefined || amt !== undefined))
    fail(`${method}: give either to/amount or destinations, not both`);
  const list = (destinations ?? [{ to, amount: amt, asset }]) as Record<string, unknown>[];
  if (!Array.isArray(list)) fail(`${method}: destinations must be a list`);
  const dests = list.map((d, i) => {
    const a = (d.asset ?? d.asset_type ?? asset ?? defaultAsset) as string;
    const address = d.to ?? d.address;
    if (address === undefined) fail(`${method}: destination ${i} has no address (to:)`);
    return {
      address,
      amount: amount(d.amount, `${method}.destinations[${i}].amount`),
      ...(hasAssets(spec) ? { asset_type: a } : {}),
    };
  });
  const a = (asset ?? dests[0]?.asset_type ?? defaultAsset) as string;
  return hasAssets(spec) ? { ...assetTransfer(dests, a), ...rest } : { destinations: dests, ...rest };
}

/** sweep_all / sweep_single: `to` as address, `asset` as asset_type (reference §7). */
export function sweepRequest(p: Record<string, unknown>, spec: BackendSpec): Record<string, unknown> {
  const { to, asset, ...rest } = p;
  const assetType = asset ?? rest.asset_type ?? (hasAssets(spec) ? (spec.fundAsset ?? '') : undefined);
  return {
    ...(to !== undefined ? { address: to } : {}),
    ...rest,
    ...(assetType !== undefined ? { asset_type: assetType } : {}),
  };
}
