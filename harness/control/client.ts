// Asking a running `saltnet up` through its control endpoint (harness/control/server.ts).
import { readFileSync } from 'node:fs';
import { request } from 'undici';
import type {
  AutomineAnswer,
  AutomineBody,
  FundAnswer,
  FundBody,
  LinkBody,
  MineAnswer,
  MineBody,
  NetworkAnswer,
  SaveAnswer,
  UiAnswer,
  UiBody,
} from './routes.js';
import { REQUEST_HEADER, type CancelAnswer } from './cancel.js';
import { TOKEN_HEADER, type ControlInfo } from './server.js';

export type { CancelAnswer } from './cancel.js';
export type { ControlInfo } from './server.js';
export type {
  AutomineAnswer,
  FundAnswer,
  FundBody,
  LinkBody,
  MineAnswer,
  NetworkAnswer,
  SaveAnswer,
  UiAnswer,
} from './routes.js';

export interface AskOptions {
  /** Names the request, so that `requestCancel` can cancel it. */
  id?: string;
  /** Gives up the request (its connection closes; the testnet then cancels its work, see server.ts). */
  signal?: AbortSignal;
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
    },
    body: JSON.stringify(body),
    headersTimeout: 3_600_000,
    bodyTimeout: 3_600_000,
    ...(o.signal ? { signal: o.signal } : {}),
  });
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

/** Ask a running `saltnet up` to cancel the request sent with `id` (AskOptions.id): what became of it. */
export function requestCancel(control: ControlInfo, id: string): Promise<CancelAnswer> {
  return ask(control, '/cancel', { request: id }, 'cancel the request');
}

/** Ask a running `saltnet up` to save its state as snapshot `key` in its cache. */
export function requestSave(control: ControlInfo, key: string): Promise<SaveAnswer> {
  return ask(control, '/snapshot', { key }, 'save the testnet state');
}

/** Ask a running `saltnet up` to mine (blocks or up to a height), then sync its wallets. */
export function requestMine(control: ControlInfo, body: MineBody, o: AskOptions = {}): Promise<MineAnswer> {
  return ask(control, '/mine', body, 'mine', o);
}

/** Ask a running `saltnet up` for its automine mode, or to change it (`change`). */
export function requestAutomine(control: ControlInfo, body: AutomineBody = {}): Promise<AutomineAnswer> {
  return ask(control, '/automine', body, 'switch automine');
}

/** Ask a running `saltnet up` to pay an address from main and mine until it is spendable. */
export function requestFund(control: ControlInfo, body: FundBody, o: AskOptions = {}): Promise<FundAnswer> {
  return ask(control, '/fund', body, 'fund', o);
}

/** Ask a running `saltnet up` to serve its explorer (once; later asks get the same page); answers its address. */
export function requestUi(control: ControlInfo, body: UiBody = {}): Promise<UiAnswer> {
  return ask(control, '/ui', body, 'start the explorer');
}

/** Ask a running `saltnet up` to cut the links between groups of nodes (and open those within them). */
export function requestPartition(control: ControlInfo, groups: string[][]): Promise<NetworkAnswer> {
  return ask(control, '/partition', { groups }, 'partition the nodes');
}

/** Ask a running `saltnet up` to open every link. */
export function requestHeal(control: ControlInfo): Promise<NetworkAnswer> {
  return ask(control, '/heal', {}, 'heal the links');
}

/** Ask a running `saltnet up` to change one link (cut, drop, open; delay). */
export function requestLink(control: ControlInfo, body: LinkBody): Promise<NetworkAnswer> {
  return ask(control, '/link', body, 'change the link');
}

/** Ask a running `saltnet up` to bring its nodes to one top (per group) and its wallets to their nodes' heights. */
export function requestSync(control: ControlInfo): Promise<NetworkAnswer> {
  return ask(control, '/sync', {}, 'sync the nodes');
}
