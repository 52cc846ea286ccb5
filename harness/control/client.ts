// Asking a running `saltnet up` through its control endpoint (harness/control/server.ts).
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import type { AnswerOf, BodyOf, OperationName } from '../operations/index.js';
import { operationNamed } from '../operations/index.js';
import { REQUEST_HEADER, type CancelAnswer } from './cancel.js';
import { PROGRESS_TYPE, TOKEN_HEADER, type ControlInfo } from './server.js';
import type { MiningProgress } from '../testnet/types.js';

export type { CancelAnswer } from './cancel.js';
export type { ControlInfo } from './server.js';
export type { AnswerOf, BodyOf, OperationName } from '../operations/index.js';

export interface AskOptions {
  /** Names the request, so that `requestCancel` can cancel it. */
  id?: string;
  /** Gives up the request (its connection closes; the testnet then cancels its work, see server.ts). */
  signal?: AbortSignal;
  /** Told of the testnet's mining progress while the request runs (server.ts PROGRESS_TYPE). */
  onProgress?: (p: MiningProgress) => void;
}

/** POST `body` to a route of the control endpoint; its answer, or an error that says what could not be done. */
export async function ask<T>(
  control: ControlInfo,
  path: string,
  body: unknown,
  what: string,
  o: AskOptions = {},
): Promise<T> {
  let token: string;
  try {
    token = readFileSync(control.tokenFile, 'utf8');
  } catch (err) {
    throw new Error(
      `cannot ${what}: the testnet's control token ${control.tokenFile} is gone (${(err as NodeJS.ErrnoException).code}); is its workdir still there?`,
      { cause: err },
    );
  }
  const res = await request(`${control.url}${path}`, {
    method: 'POST',
    headers: {
      [TOKEN_HEADER]: token,
      'content-type': 'application/json',
      ...(o.id ? { [REQUEST_HEADER]: o.id } : {}),
      ...(o.onProgress ? { accept: PROGRESS_TYPE } : {}),
    },
    body: JSON.stringify(body),
    headersTimeout: 3_600_000,
    bodyTimeout: 3_600_000,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  if (o.onProgress && res.headers['content-type'] === PROGRESS_TYPE) return streamed<T>(res.body, what, o.onProgress);
  const text = await res.body.text();
  let answer: (T & { error?: unknown }) | undefined;
  try {
    answer = JSON.parse(text) as T & { error?: unknown };
  } catch {
    answer = undefined;
  }
  if (res.statusCode !== 200 || answer === undefined) {
    const why = typeof answer?.error === 'string' ? answer.error : `HTTP ${res.statusCode}`;
    throw new Error(`cannot ${what}: ${why}`);
  }
  return answer;
}

/** An answer that comes as progress lines, then the answer (or the error) on the last line. */
async function streamed<T>(
  body: AsyncIterable<Buffer>,
  what: string,
  onProgress: (p: MiningProgress) => void,
): Promise<T> {
  let rest = '';
  let last: { answer?: T; error?: unknown } | undefined;
  for await (const chunk of body) {
    const lines = (rest + chunk.toString('utf8')).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      if (!line) continue;
      const item = JSON.parse(line) as { progress?: MiningProgress; answer?: T; error?: unknown };
      if (item.progress) onProgress(item.progress);
      else last = item;
    }
  }
  if (rest) last = JSON.parse(rest) as typeof last;
  if (last && 'answer' in last) return last.answer as T;
  const why = typeof last?.error === 'string' ? last.error : 'the testnet ended the answer early';
  throw new Error(`cannot ${what}: ${why}`);
}

/** Ask a running `saltnet up` to cancel the request sent with `id` (AskOptions.id): what became of it. */
export function requestCancel(control: ControlInfo, id: string): Promise<CancelAnswer> {
  return ask(control, '/cancel', { request: id }, 'cancel the request');
}

/**
 * Ask a running `saltnet up` for operation `name` (operations/index.ts) with `body`: its answer, or an error that
 * says what could not be done (`cannot mine: …`).
 */
export function operate<N extends OperationName>(
  control: ControlInfo,
  name: N,
  body: BodyOf<N>,
  o?: AskOptions,
): Promise<AnswerOf<N>>;
/** An operation added with registerOperation, by its name. */
export function operate(control: ControlInfo, name: string, body: unknown, o?: AskOptions): Promise<unknown>;
export function operate(control: ControlInfo, name: string, body: unknown, o: AskOptions = {}): Promise<unknown> {
  return ask(control, `/${name}`, body, operationNamed(name)?.what ?? name, o);
}
