// Routing one request of the simulated servers, as epee does: the Digest check, URI endpoints, and
// /json_rpc with its envelope and error codes. server.ts is the transport around it.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { DigestNonceStore, verifyDigestAuthorization } from '../../digest/digest.js';
import { parseEpeeJson } from './json.js';
import { isParsedObject, type Parsed, type ParsedObject } from './json-values.js';
import { toEpeeJsonBody } from './json-print.js';
import { InvalidParams, isAbsent } from './params.js';

/** A JSON-RPC error with its code and message (the `error` object of the response). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** Thrown by URI endpoint handlers to answer HTTP 400 "Bad request". */
export class BadRequest extends Error {
  constructor(message = 'Bad request') {
    super(message);
    this.name = 'BadRequest';
  }
}

/**
 * A method or endpoint. JSON-RPC: receives `params` when it is an object, else undefined, and
 * returns the `result` object. URI endpoint: receives the body object and returns the response
 * object. Throw `InvalidParams`, `RpcError` or (URI) `BadRequest` to answer an error.
 */
export type Handler = (params: Parsed | undefined) => unknown | Promise<unknown>;

/** What routing needs of the server's options. */
export interface RouterOptions {
  /** Served at /json_rpc. */
  jsonRpcMethods: Map<string, Handler>;
  /** Plain JSON endpoints, e.g. '/get_info' -> handler(body object). */
  uriEndpoints?: Map<string, Handler>;
  /** HTTP Digest (MD5, qop=auth, realm "monero-rpc") on every request when set. */
  auth?: { username: string; password: string };
  /** TEST ONLY (SALTNET_SIM_TEST_ERROR_SUFFIX): appended to the message of every JSON-RPC error a method throws. */
  errorSuffix?: string;
}

export type Report = (error: unknown, path: string, method?: string) => void;

const UNAUTHORIZED_BODY =
  '<html><head><title>Unauthorized Access</title></head><body><h1>401 Unauthorized</h1></body></html>';

export interface Reply {
  status: number;
  message: string;
  /** Text (UTF-8), or bytes (an answer holding raw blob fields). */
  body?: string | Buffer;
  contentType?: string;
  wwwAuthenticate?: string[];
  close?: boolean;
}

export const jsonReply = (value: unknown): Reply => ({
  status: 200,
  message: 'Ok',
  body: toEpeeJsonBody(value),
  contentType: 'application/json',
});
export const errorReply = (code: number, message: string, id: unknown): Reply =>
  jsonReply({ error: { code, message }, id, jsonrpc: '2.0' });
export const BAD_REQUEST: Reply = { status: 400, message: 'Bad request', contentType: 'text/plain' };
export const NOT_FOUND: Reply = { status: 404, message: 'Not found', contentType: 'text/plain' };
export const INTERNAL_ERROR: Reply = {
  status: 500,
  message: 'Internal Server Error',
  contentType: 'text/plain',
  close: true,
};
// /json_rpc sets the JSON content type before it reads `method`, so its 500 keeps it
export const JSON_RPC_INTERNAL_ERROR: Reply = { ...INTERNAL_ERROR, contentType: 'application/json' };

/** A member of the request object as epee's storage would hold it (null and [] are absent). */
function member(doc: ParsedObject, key: string): Parsed | undefined {
  if (!Object.prototype.hasOwnProperty.call(doc, key)) return undefined;
  const v = doc[key];
  return isAbsent(v) ? undefined : v;
}

/** The router of one server: request and body → the reply. */
export function createRouter(
  opts: RouterOptions,
  report: Report,
): (req: IncomingMessage, body: string) => Promise<Reply> {
  const sessions = new WeakMap<Socket, DigestNonceStore>();
  const checkAuth = (req: IncomingMessage): Reply | undefined => {
    if (!opts.auth) return undefined;
    let store = sessions.get(req.socket);
    if (!store) {
      store = new DigestNonceStore();
      sessions.set(req.socket, store);
    }
    const v = verifyDigestAuthorization(req.headers.authorization, req.method ?? '', opts.auth, store);
    if (v.ok) return undefined;
    return {
      status: 401,
      message: 'Unauthorized',
      contentType: 'text/html',
      body: UNAUTHORIZED_BODY,
      wwwAuthenticate: v.wwwAuthenticate,
    };
  };

  const uriCall = async (handler: Handler, body: string, path: string): Promise<Reply> => {
    const parsed = parseEpeeJson(body);
    if (!parsed.ok || !isParsedObject(parsed.value)) return BAD_REQUEST;
    try {
      return jsonReply((await handler(parsed.value)) ?? {});
    } catch (err) {
      if (err instanceof InvalidParams || err instanceof BadRequest) return BAD_REQUEST;
      report(err, path);
      return INTERNAL_ERROR;
    }
  };

  const jsonRpc = async (body: string, path: string): Promise<Reply> => {
    const parsed = parseEpeeJson(body);
    if (!parsed.ok || !isParsedObject(parsed.value)) return errorReply(-32700, 'Parse error', 0);
    const doc = parsed.value;
    const id = member(doc, 'id');
    const method = member(doc, 'method');
    if (method === undefined) return errorReply(-32600, 'Invalid Request', 0);
    // epee converts `method` to std::string; for any other type that throws -> HTTP 500
    if (typeof method !== 'string') return JSON_RPC_INTERNAL_ERROR;
    const handler = opts.jsonRpcMethods.get(method);
    if (!handler) return errorReply(-32601, 'Method not found', id ?? '');
    // json_rpc::request::load reads `jsonrpc` (a string) before `id`: a failure there answers id 0
    const jsonrpc = member(doc, 'jsonrpc');
    if (jsonrpc !== undefined && typeof jsonrpc !== 'string') return errorReply(-32602, 'Invalid params', 0);
    const echo = id ?? 0;
    const p = member(doc, 'params');
    try {
      // A method whose request is a list (on_get_block_hash) gets it; params() reads only objects.
      const result = await handler(isParsedObject(p) || Array.isArray(p) ? p : undefined);
      return jsonReply({ id: echo, jsonrpc: '2.0', result: result ?? {} });
    } catch (err) {
      if (err instanceof InvalidParams) return errorReply(-32602, 'Invalid params', echo);
      if (err instanceof RpcError) return errorReply(err.code, err.message + (opts.errorSuffix ?? ''), echo);
      report(err, path, method);
      return errorReply(0, '', echo);
    }
  };

  const route = async (req: IncomingMessage, body: string): Promise<Reply> => {
    const path = req.url ?? '';
    if (req.method === 'OPTIONS') return { status: 200, message: 'OK' };
    const denied = checkAuth(req);
    if (denied) return denied;
    const endpoint = opts.uriEndpoints?.get(path);
    if (endpoint) return uriCall(endpoint, body, path);
    if (path === '/json_rpc') return jsonRpc(body, path);
    return NOT_FOUND;
  };
  return route;
}
