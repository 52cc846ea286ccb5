// call: any JSON-RPC method of the wallet or the daemon, or a daemon HTTP endpoint, sent as written.
import { isPlainObject } from '../../common/plain-object.js';
import { z } from 'zod';
import type { PathSegment } from '../../common/path.js';
import type { JsonRpcAnswer } from '../../rpc/jsonrpc.js';
import { HttpStatusError } from '../../rpc/errors.js';
import { interpolate } from '../interpolate.js';
import { httpPathLeaf } from '../schema/leaves.js';
import { ruleProblem, type RuleCtx } from '../schema/rule-kit.js';
import { has } from '../schema/vocabulary.js';
import { daemonOf, replayOf, walletOf, type StepContext } from './context.js';
import { defineStep } from './kind.js';

/** A wallet or daemon JSON-RPC method, or a daemon HTTP endpoint (`path: /get_info`). */
export interface CallAction {
  kind: 'call';
  on: 'wallet' | 'daemon';
  method?: string;
  path?: string;
  params: unknown;
}

const schema = z
  .strictObject({
    method: z.string().min(1).describe('JSON-RPC method name, e.g. get_info').optional(),
    path: httpPathLeaf.optional(),
    on: z
      .enum(['wallet', 'daemon'])
      .describe('which server: wallet (default) or daemon; path implies daemon')
      .optional(),
    params: z
      .unknown()
      .describe('request parameters (JSON-RPC params, or the body of a path call), sent as written')
      .optional(),
  })
  .describe('a generic call: {method, on?: wallet|daemon, params?} or {path: /endpoint, params?} (daemon HTTP)')
  .meta({ oneOf: [{ required: ['method'] }, { required: ['path'] }] });

function check(ctx: RuleCtx, v: unknown, path: PathSegment[]): void {
  if (!isPlainObject(v)) return;
  if (has(v, 'method') && has(v, 'path'))
    ruleProblem(
      ctx,
      [...path, 'path'],
      'key',
      'give either method (JSON-RPC) or path (daemon HTTP endpoint), not both',
      '{method, on?, params?} or {path, params?}',
    );
  else if (!has(v, 'method') && !has(v, 'path'))
    ruleProblem(
      ctx,
      [...path, 'method'],
      'parent',
      'missing "method" (or "path" for a daemon HTTP endpoint)',
      '{method, on?, params?} or {path, params?}',
    );
  if (has(v, 'path') && v.on === 'wallet')
    ruleProblem(
      ctx,
      [...path, 'on'],
      'value',
      'path calls go to the daemon (the wallet RPC has only /json_rpc); drop on or write on: daemon',
      'daemon',
    );
}

function build(value: unknown): CallAction {
  const v = value as Record<string, unknown>;
  const a: CallAction = {
    kind: 'call',
    on: (v.on as 'wallet' | 'daemon' | undefined) ?? (v.path !== undefined ? 'daemon' : 'wallet'),
    params: v.params ?? {},
  };
  if (typeof v.method === 'string') a.method = v.method;
  if (typeof v.path === 'string') a.path = v.path;
  return a;
}

async function callDaemon(ctx: StepContext, a: CallAction, params: unknown, node?: string): Promise<JsonRpcAnswer> {
  const daemon = daemonOf(ctx, node);
  if (a.path) {
    try {
      return { result: (await daemon.post(a.path, params ?? {})) as Record<string, unknown> };
    } catch (err) {
      if (err instanceof HttpStatusError) return { error: { code: err.status, message: `HTTP ${err.status}` } };
      throw err;
    }
  }
  return daemon.endpoint.post('/json_rpc', {
    jsonrpc: '2.0',
    id: '0',
    method: a.method,
    ...(params === undefined ? {} : { params }),
  }) as Promise<JsonRpcAnswer>;
}

export const callStep = defineStep<'call', CallAction>({
  key: 'call',
  schema,
  answersRpc: true,
  build,
  defaultName: (a) => (a.path ? `call ${a.path}` : `call ${a.method ?? ''}${a.on === 'daemon' ? ' (daemon)' : ''}`),
  check,
  async run(ctx, step, a) {
    const params = interpolate(a.params, ctx.scope);
    if (a.on === 'daemon')
      return {
        request: {
          on: 'daemon',
          ...(step.node ? { node: step.node } : {}),
          ...(a.path ? { path: a.path } : { method: a.method }),
          params,
        },
        response: await callDaemon(ctx, a, params, step.node),
      };
    const w = walletOf(ctx, step.wallet);
    return {
      request: { wallet: step.wallet, method: a.method, params },
      response: await w.client.raw(a.method!, params, replayOf(ctx, step)),
    };
  },
  docs: {
    note: "Any JSON-RPC method of the wallet RPC (`on: wallet`, the default, with the step's `wallet`) or of the daemon (`on: daemon`), or a daemon URI endpoint such as `/get_info` or `/mining_status` with `path:` (the wallet RPC has only `/json_rpc`); on a scenario of several nodes the step's `node:` says which daemon (default n0). The response is checked as `{result: …}` or `{error: {code, message}}`; a daemon endpoint that answers with an HTTP error status gives `error.code` = that status. Use it for anything the readable forms below do not cover, or to send a request exactly as written (the readable forms fill in fields for you).",
  },
});
