// Errors of RPC calls, each naming what was called where.

/** A JSON-RPC error answer: `{error: {code, message}}`. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
    readonly method: string,
    readonly url: string,
  ) {
    super(`${method} at ${url} failed: ${code} ${rpcMessage}`);
    this.name = 'RpcError';
  }
}

/** The server answered with an unexpected HTTP status. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    readonly url: string,
    readonly body: string,
  ) {
    super(
      `${url} answered HTTP ${status}${status === 401 ? ' (wrong or missing RPC login)' : ''}${body ? `: ${body.slice(0, 200)}` : ''}`,
    );
    this.name = 'HttpStatusError';
  }
}

/** Nothing listens, the connection broke, or the call timed out. */
export class ConnectionError extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`cannot reach ${url}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'ConnectionError';
  }
}
