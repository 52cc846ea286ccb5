// Every step kind, in the order the docs list them. The schema, the parser, the runner and the docs
// generator read them from here: a new step kind is its module and one line below.
import { getBalance, getbalance } from './balance.js';
import { call } from './call.js';
import { createToken } from './create-token.js';
import { getTokens } from './get-tokens.js';
import { getTransfers } from './get-transfers.js';
import type { StepKind } from './kind.js';
import { log } from './log.js';
import { metadata } from './metadata.js';
import { mine } from './mine.js';
import { heal, partition, sync } from './partition.js';
import { restart } from './restart.js';
import { revert, snapshot } from './snapshot.js';
import { sweepAll, sweepSingle } from './sweep.js';
import { transfer, transferSplit } from './transfer.js';
import { waitStep } from './wait.js';

/** The kinds that make one RPC call, whose answer `expect_error` may expect; `wait` repeats one of them. */
const CALLS = [
  call,
  getBalance,
  getbalance,
  transfer,
  transferSplit,
  sweepAll,
  sweepSingle,
  getTransfers,
  createToken,
  getTokens,
] as const;

export const STEP_KINDS = [
  ...CALLS,
  mine,
  waitStep(CALLS),
  metadata,
  restart,
  snapshot,
  revert,
  log,
  partition,
  heal,
  sync,
] as const;

type Kind = (typeof STEP_KINDS)[number];
/** A step kind's YAML key: call, transfer, mine, … */
export type ActionKey = Kind['key'];
/** The parsed action of a step (after validation; templates not yet resolved). */
export type Action = ReturnType<Kind['build']>;
/** The readable wallet forms. */
export type WalletMethod = Exclude<(typeof CALLS)[number]['key'], 'call'>;

export const ACTION_KEYS: readonly ActionKey[] = STEP_KINDS.map((k) => k.key);
export const WALLET_METHODS: readonly WalletMethod[] = CALLS.flatMap((k) => (k.key === 'call' ? [] : [k.key]));
/** Request fields each readable wallet form knows. */
export const KNOWN_PARAMS = Object.fromEntries(
  CALLS.flatMap((k) => ('known' in k ? [[k.key, k.known]] : [])),
) as Record<WalletMethod, readonly string[]>;

const BY_KEY = new Map<string, StepKind>(STEP_KINDS.map((k) => [k.key, k as StepKind]));

/** The step kind of a YAML key (undefined for a key that is none). */
export function stepKind(key: string): StepKind | undefined {
  return BY_KEY.get(key);
}

/** The YAML key of an action: a readable wallet form's is its method. */
export function keyOf(action: Action): ActionKey {
  return action.kind === 'wallet' ? (action as { method: WalletMethod }).method : (action.kind as ActionKey);
}
