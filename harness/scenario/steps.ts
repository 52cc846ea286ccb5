// Executing one scenario step against a testnet: resolve templates, build the real request from
// the readable forms, call, check expectations, save values.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DaemonClient } from '../rpc/daemon.js';
import { HttpStatusError } from '../rpc/errors.js';
import type { JsonRpcAnswer } from '../rpc/jsonrpc.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { BackendSpec } from '../testnet/backends.js';
import { addressAt, type Testnet, type WalletHandle } from '../testnet/testnet.js';
import { parseAmount } from '../common/amounts.js';
import { interpolate, type Scope } from './interpolate.js';
import { checkError, checkExpectations, getPath } from './match.js';
import { FileRefused, metadataFileProblem, readMetadataFile } from './files.js';
import { MAX_BLOCKS_PER_STEP, MAX_WAIT_SECONDS } from './limits.js';
import { buildMetadata, type MetadataServer } from './metadata.js';
import type { Action, SourcePos, Step, StepFailure, StepResult } from './types.js';

export interface ScenarioWallet {
  handle: WalletHandle;
  /** A client of this scenario's own, so its exchanges go to this scenario's transcript. */
  client: WalletClient;
}

export interface StepContext {
  testnet: Testnet;
  spec: BackendSpec;
  daemon: DaemonClient;
  /** Scenario wallet name → its testnet wallet. */
  wallets: Map<string, ScenarioWallet>;
  scope: Scope;
  metadata: () => Promise<MetadataServer>;
  /** Folder the scenario file is in (metadata files are found relative to it, then to the cwd). */
  baseDir: string;
  /** Serve metadata files outside baseDir and the working directory (`--allow-files-outside`). */
  allowFilesOutside?: boolean;
}

type Response = JsonRpcAnswer;

class StepFailed extends Error {
  constructor(readonly failure: StepFailure) {
    super(failure.message);
  }
}

const fail = (message: string, extra: Partial<StepFailure> = {}): never => {
  throw new StepFailed({ message, ...extra });
};

function walletOf(ctx: StepContext, name: string): ScenarioWallet {
  const w = ctx.wallets.get(name);
  if (!w) return fail(`no wallet named "${name}" in this scenario (declare it under wallets:)`);
  return w;
}

/** Refresh the scope's view of wallets and height before templates are resolved. */
export async function refreshScope(ctx: StepContext): Promise<void> {
  const height = await ctx.daemon.height();
  ctx.scope.height = height;
  const wallets: Record<string, unknown> = {};
  for (const [name, w] of ctx.wallets) {
    const view = { address: addressAt(ctx.spec, w.handle.addresses, height), cn: w.handle.addresses.cn, carrot: w.handle.addresses.carrot ?? '' };
    wallets[name] = view;
    ctx.scope[name] = view;
  }
  ctx.scope.wallets = wallets;
}

const amount = (v: unknown, where: string): bigint => {
  try {
    return parseAmount(v, where);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err));
  }
};

const hasAssets = (spec: BackendSpec): boolean => spec.fundAsset !== undefined;

/** Turn the readable forms into the real request parameters (reference §6, §7). */
export function buildWalletParams(method: string, raw: unknown, spec: BackendSpec): Record<string, unknown> {
  const p = { ...((raw ?? {}) as Record<string, unknown>) };
  const defaultAsset = spec.fundAsset ?? '';
  if (method === 'transfer' || method === 'transfer_split') {
    const { to, amount: amt, asset, destinations, ...rest } = p;
    if (destinations !== undefined && (to !== undefined || amt !== undefined)) fail(`${method}: give either to/amount or destinations, not both`);
    const list = (destinations ?? [{ to, amount: amt, asset }]) as Record<string, unknown>[];
    if (!Array.isArray(list)) fail(`${method}: destinations must be a list`);
    const dests = list.map((d, i) => {
      const a = (d.asset ?? d.asset_type ?? asset ?? defaultAsset) as string;
      const address = d.to ?? d.address;
      if (address === undefined) fail(`${method}: destination ${i} has no address (to:)`);
      return { address, amount: amount(d.amount, `${method}.destinations[${i}].amount`), ...(hasAssets(spec) ? { asset_type: a } : {}) };
    });
    const a = (asset ?? dests[0]?.asset_type ?? defaultAsset) as string;
    return hasAssets(spec) ? { destinations: dests, source_asset: a, dest_asset: a, tx_type: 3, ...rest } : { destinations: dests, ...rest };
  }
  if (method === 'sweep_all' || method === 'sweep_single') {
    const { to, asset, ...rest } = p;
    const assetType = asset ?? rest.asset_type ?? (hasAssets(spec) ? defaultAsset : undefined);
    return { ...(to !== undefined ? { address: to } : {}), ...rest, ...(assetType !== undefined ? { asset_type: assetType } : {}) };
  }
  return p;
}

async function callDaemon(ctx: StepContext, a: Extract<Action, { kind: 'call' }>, params: unknown): Promise<Response> {
  if (a.path) {
    try {
      return { result: (await ctx.daemon.post(a.path, params ?? {})) as Record<string, unknown> };
    } catch (err) {
      if (err instanceof HttpStatusError) return { error: { code: err.status, message: `HTTP ${err.status}` } };
      throw err;
    }
  }
  return ctx.daemon.endpoint.post('/json_rpc', { jsonrpc: '2.0', id: '0', method: a.method, ...(params === undefined ? {} : { params }) }) as Promise<Response>;
}

/** Run a call-like action (generic call or readable wallet form). */
async function invoke(ctx: StepContext, step: Step, a: Extract<Action, { kind: 'call' | 'wallet' }>): Promise<{ request: unknown; response: Response }> {
  const params = interpolate(a.params, ctx.scope);
  if (a.kind === 'call') {
    if (a.on === 'daemon') return { request: { on: 'daemon', ...(a.path ? { path: a.path } : { method: a.method }), params }, response: await callDaemon(ctx, a, params) };
    const w = walletOf(ctx, step.wallet);
    return { request: { wallet: step.wallet, method: a.method, params }, response: await w.client.raw(a.method!, params) };
  }
  let built: Record<string, unknown> = buildWalletParams(a.method, params, ctx.spec);
  if (a.method === 'create_token' && typeof built.metadata === 'string') {
    const m = (ctx.scope.metadata as Record<string, { url: string; sha256: string; size: number }> | undefined)?.[built.metadata];
    if (!m) fail(`create_token: no metadata named "${built.metadata}" (add a metadata step before it)`);
    const { metadata: _m, ...rest } = built;
    built = { url: m!.url, hash: m!.sha256, size: m!.size, ...rest };
  }
  const w = walletOf(ctx, step.wallet);
  return { request: { wallet: step.wallet, method: a.method, params: built }, response: await w.client.raw(a.method, built) };
}

function verify(step: Step, response: Response, scope: Scope): StepFailure | undefined {
  if (step.expect_error) return checkError(response, step.expect_error);
  if (response.error) {
    return { message: `unexpected error ${response.error.code}: ${response.error.message}`, actual: JSON.stringify(response.error), expected: 'a result (add expect_error to expect this error)' };
  }
  if (step.expect) return checkExpectations(response, step.expect, scope);
  return undefined;
}

function save(step: Step, response: Response, scope: Scope): void {
  for (const [name, path] of Object.entries(step.save ?? {})) {
    const got = getPath(response, path);
    if (!got.found) fail(`save ${name}: nothing at ${path} in the response`, { path });
    scope[name] = got.value;
  }
}

/** What a wait's last try sent and got (reported when the wait fails). */
interface Seen {
  request?: unknown;
  response?: unknown;
}

/**
 * Repeat the wait's call until its `until` holds, or fail once its bound is reached. Every wait ends
 * within MAX_WAIT_SECONDS and a mining one after MAX_BLOCKS_PER_STEP blocks, whatever it says: a wait
 * with only `blocks` and no `mine` would otherwise wait for ever for blocks nobody mines.
 */
async function runWait(ctx: StepContext, step: Step, a: Extract<Action, { kind: 'wait' }>, seen: Seen): Promise<void> {
  const started = Date.now();
  const startHeight = await ctx.daemon.height();
  const seconds = Math.min(a.seconds ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS);
  const blocks = a.mine ? Math.min(a.blocks ?? MAX_BLOCKS_PER_STEP, MAX_BLOCKS_PER_STEP) : a.blocks;
  for (let tries = 1; ; tries++) {
    await refreshScope(ctx);
    const r = await invoke(ctx, step, a.call);
    seen.request = r.request;
    seen.response = r.response;
    const failure = r.response.error ? { message: `error ${r.response.error.code}: ${r.response.error.message}` } : checkExpectations(r.response, a.until, ctx.scope);
    if (!failure) return save(step, r.response, ctx.scope);
    const h = await ctx.daemon.height();
    const outOfTime = Date.now() - started > seconds * 1000;
    const outOfBlocks = blocks !== undefined && h - startHeight >= blocks;
    if (outOfTime || outOfBlocks) {
      fail(`wait: still not true after ${tries} tries, ${Math.round((Date.now() - started) / 1000)} s and ${h - startHeight} blocks: ${failure.message}`, { ...failure, pos: step.pos });
    }
    if (a.mine) await ctx.testnet.mine(h + 1);
    else await sleep(250);
    // A wallet only sees new blocks after a refresh.
    for (const w of ctx.wallets.values()) await w.client.raw('refresh').catch(() => undefined);
  }
}

/** Execute a step; never throws for a scenario failure (it is reported in the result). */
export async function runStep(ctx: StepContext, step: Step): Promise<StepResult> {
  const t0 = Date.now();
  const base = { index: step.index, name: step.name, action: step.action.kind === 'wallet' ? step.action.method : step.action.kind };
  let request: unknown;
  let response: unknown;
  try {
    await refreshScope(ctx);
    const a = step.action;
    switch (a.kind) {
      case 'call':
      case 'wallet': {
        const r = await invoke(ctx, step, a);
        request = r.request;
        response = r.response;
        const failure = verify(step, r.response, ctx.scope);
        if (failure) fail(failure.message, { ...failure, pos: step.pos });
        save(step, r.response, ctx.scope);
        break;
      }
      case 'mine': {
        const h = await ctx.daemon.height();
        const target = a.to ?? h + (a.blocks ?? 1);
        request = { mine: target };
        const reached = await ctx.testnet.mine(target);
        response = { result: { height: reached } };
        break;
      }
      case 'wait': {
        const seen: Seen = {};
        try {
          await runWait(ctx, step, a, seen);
        } finally {
          request = seen.request;
          response = seen.response;
        }
        break;
      }
      case 'metadata': {
        const body = a.file ? metadataFile(ctx, a.file, a.filePos) : buildMetadata(interpolate(a.fields ?? {}, ctx.scope) as Record<string, unknown>);
        const hosted = (await ctx.metadata()).host(a.name, body);
        const all = (ctx.scope.metadata ??= {}) as Record<string, unknown>;
        all[a.name] = hosted;
        request = { metadata: a.name, ...(a.file ? { file: a.file } : { fields: a.fields }) };
        response = { result: hosted };
        break;
      }
      case 'restart': {
        request = { restart: a.target, ...(a.target === 'wallet' ? { wallet: step.wallet } : {}) };
        if (a.target === 'daemon') await ctx.testnet.restart('daemon');
        else await ctx.testnet.restart('wallet', walletOf(ctx, step.wallet).handle.name);
        response = { result: {} };
        break;
      }
      case 'snapshot': {
        // The whole testnet: the daemon's chain and every wallet's file (processes stop for a moment).
        request = { snapshot: a.name };
        await ctx.testnet.checkpoint(a.name);
        response = { result: { height: await ctx.daemon.height() } };
        break;
      }
      case 'revert': {
        request = { revert: a.name };
        await ctx.testnet.revert(a.name);
        for (const w of ctx.wallets.values()) await w.client.raw('refresh');
        response = { result: { height: await ctx.daemon.height() } };
        break;
      }
    }
    // Every other kind answers something too (a wait its last answer, mine the height reached…): its `expect` holds on that.
    if (a.kind !== 'call' && a.kind !== 'wallet' && step.expect) {
      const failure = checkExpectations(response as Response, step.expect, ctx.scope);
      if (failure) fail(failure.message, { ...failure, pos: step.pos });
    }
    return { ...base, status: 'passed', ms: Date.now() - t0, request, response };
  } catch (err) {
    const failure: StepFailure = err instanceof StepFailed ? { pos: step.pos, ...err.failure } : { message: err instanceof Error ? err.message : String(err), pos: step.pos };
    return { ...base, status: 'failed', ms: Date.now() - t0, request, response, failure };
  }
}

/** A metadata step's file, checked again as it is read (see files.ts); a refusal fails the step, at the line of `file:`. */
function metadataFile(ctx: StepContext, file: string, pos: SourcePos | undefined): Buffer {
  try {
    return readMetadataFile(file, { baseDir: ctx.baseDir, allowOutside: ctx.allowFilesOutside === true });
  } catch (e) {
    if (e instanceof FileRefused) return fail(metadataFileProblem(file, e.message), { path: 'metadata.file', ...(pos ? { pos } : {}) });
    throw e;
  }
}
