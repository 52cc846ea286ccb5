import { parseJson } from '../rpc/json.js';
import { isPlainObject } from '../common/plain-object.js';
import type { RawExchange } from './proxy.js';
import type { RecordedCall, SkippedCall } from './types.js';

const tryJson = (b: Buffer): { value: unknown } | undefined => {
  if (b.length === 0) return { value: undefined };
  try {
    return { value: parseJson(b.toString('utf8')) };
  } catch {
    return undefined;
  }
};

/** The JSON-RPC method of a request body, read without parsing it (the proxy's hot path). */
export function peekMethod(body: Buffer): string | undefined {
  return /"method"\s*:\s*"([^"]{1,100})"/.exec(body.toString('latin1', 0, Math.min(body.length, 4096)))?.[1];
}

/** The path without its query. */
export const barePath = (path: string): string => path.split('?', 1)[0]!;

function jsonRpc(e: RawExchange, base: Omit<RecordedCall, 'method' | 'params' | 'answer'>): RecordedCall | SkippedCall {
  const req = tryJson(e.requestBody);
  if (!req || !isPlainObject(req.value) || typeof req.value.method !== 'string') {
    return {
      kind: 'skipped',
      why: `a ${base.on} request to /json_rpc that is not one JSON-RPC call (a batch, or not JSON)`,
    };
  }
  const res = tryJson(e.responseBody);
  const body = res && isPlainObject(res.value) ? res.value : undefined;
  if (!body || (!('result' in body) && !('error' in body))) {
    return { kind: 'skipped', why: `${req.value.method} on the ${base.on} got no JSON-RPC answer (HTTP ${e.status})` };
  }
  const answer =
    'error' in body && isPlainObject(body.error)
      ? { error: { code: Number(body.error.code), message: String(body.error.message ?? '') } }
      : { result: body.result };
  return { ...base, method: req.value.method, params: req.value.params ?? {}, answer };
}

/** An exchange as a call, or why it is not one. */
export function toCall(e: RawExchange): RecordedCall | SkippedCall {
  const daemon = e.target === 'daemon';
  const base = {
    kind: 'call' as const,
    on: daemon ? ('daemon' as const) : ('wallet' as const),
    ...(daemon ? {} : { wallet: e.target.slice('wallet:'.length) }),
    ms: e.endedAt - e.startedAt,
  };
  const path = barePath(e.path);
  if (path === '/json_rpc') return jsonRpc(e, base);
  if (!daemon) return { kind: 'skipped', why: `a wallet request to ${path} (the wallet RPC serves only /json_rpc)` };
  if (path.endsWith('.bin'))
    return { kind: 'skipped', why: `${path}: a binary (epee) endpoint, which a scenario cannot send` };
  const req = tryJson(e.requestBody);
  if (!req) return { kind: 'skipped', why: `${path}: the request body is not JSON` };
  if (e.status !== 200)
    return {
      ...base,
      path,
      params: req.value ?? {},
      answer: { error: { code: e.status, message: `HTTP ${e.status}` } },
    };
  const res = tryJson(e.responseBody);
  if (!res) return { kind: 'skipped', why: `${path}: the answer is not JSON` };
  return { ...base, path, params: req.value ?? {}, answer: { result: res.value } };
}
