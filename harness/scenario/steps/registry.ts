// Every step kind, in the order the docs list them. The schema, the parser, the runner and the docs
// generator read them from here: a new step kind is its module and one line below.
import { automineStep } from './automine.js';
import { getBalance, getbalance } from './balance.js';
import { callStep } from './call.js';
import { createToken } from './create-token.js';
import { getTokens } from './get-tokens.js';
import { getTransfers } from './get-transfers.js';
import type { BackendSpec } from '../../coin/backends.js';
import type { StepKind } from './kind.js';
import { logStep } from './log.js';
import { metadataStep } from './metadata.js';
import { mineStep } from './mine.js';
import { operationSteps } from './operation.js';
import { healStep, partitionStep, syncStep } from './partition.js';
import { restartStep } from './restart.js';
import { revertStep, snapshotStep } from './snapshot.js';
import { sweepAll, sweepSingle } from './sweep.js';
import { transfer, transferSplit } from './transfer.js';
import { waitStep } from './wait.js';

/** The kinds that make one RPC call, whose answer `expect_error` may expect; `wait` repeats one of them. */
const CALLS = [
  callStep,
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

const BUILTIN = [
  ...CALLS,
  mineStep,
  automineStep,
  waitStep(CALLS),
  metadataStep,
  restartStep,
  snapshotStep,
  revertStep,
  logStep,
  partitionStep,
  healStep,
  syncStep,
] as const;
/**
 * Every step kind now: the built-in ones, those of the operations with a step face (steps/operation.ts: `fund`), then
 * any added with registerStep() or with an operation registered later.
 */
export const STEP_KINDS: StepKind[] = [...(BUILTIN as readonly StepKind[]), ...operationSteps((k) => registerStep(k))];

type Kind = (typeof BUILTIN)[number];
/** A step kind's YAML key: call, transfer, mine, … */
export type ActionKey = Kind['key'];
/** The parsed action of a step (after validation; templates not yet resolved). */
export type Action = ReturnType<Kind['build']>;
/** The readable wallet forms. */
export type WalletMethod = Exclude<(typeof CALLS)[number]['key'], 'call'>;

/** Every step kind's YAML key now (built in and registered). */
export const ACTION_KEYS: ActionKey[] = STEP_KINDS.map((k) => k.key as ActionKey);
export const WALLET_METHODS: readonly WalletMethod[] = CALLS.flatMap((k) => (k.key === 'call' ? [] : [k.key]));
/** Request fields each readable wallet form knows. */
export const KNOWN_PARAMS = Object.fromEntries(
  CALLS.flatMap((k) => ('known' in k ? [[k.key, k.known]] : [])),
) as Record<WalletMethod, readonly string[]>;

const BY_KEY = new Map<string, StepKind>(STEP_KINDS.map((k) => [k.key, k]));
let version = 0;
/** Changes whenever a step kind is added or removed: the file schema is rebuilt for it (schema.ts). */
export const kindsVersion = (): number => version;

/**
 * Add a step kind (one defineStep module): the file schema, the file check, the parser, the runner and the limits
 * (its `blocks`, `needsTokens`) know it from then on. A new built-in kind is one more line in BUILTIN above instead.
 */
export function registerStep(kind: StepKind): void {
  if (BY_KEY.has(kind.key) || ['name', 'wallet', 'node', 'expect', 'expect_error', 'save'].includes(kind.key))
    throw new Error(`a step kind or step field named ${kind.key} exists already`);
  STEP_KINDS.push(kind);
  ACTION_KEYS.push(kind.key as ActionKey);
  BY_KEY.set(kind.key, kind);
  version++;
}

/** Remove a step kind added with registerStep(). */
export function unregisterStep(key: string): void {
  if ((BUILTIN as readonly StepKind[]).some((k) => k.key === key)) throw new Error(`${key} is built in`);
  const i = STEP_KINDS.findIndex((k) => k.key === key);
  if (i < 0) return;
  STEP_KINDS.splice(i, 1);
  ACTION_KEYS.splice(ACTION_KEYS.indexOf(key as ActionKey), 1);
  BY_KEY.delete(key);
  version++;
}

/** The step kind of a YAML key (undefined for a key that is none). */
export function stepKind(key: string): StepKind | undefined {
  return BY_KEY.get(key);
}

/** The YAML key of an action: a readable wallet form's is its method. */
export function keyOf(action: Action): ActionKey {
  return action.kind === 'wallet' ? (action as { method: WalletMethod }).method : (action.kind as ActionKey);
}

/** Whether a step needs tokens on the chain: its kind says (a `call` of create_token is create_token's). */
export function needsTokens(action: Action): boolean {
  return (stepKind(keyOf(action))?.needsTokens as ((a: Action) => boolean) | undefined)?.(action) === true;
}

/** The readable form of a wallet method and its value for a recorded request, if one sends it again exactly. */
export function recordedForm(
  method: string,
  params: Record<string, unknown>,
  spec: BackendSpec,
): { key: string; value: Record<string, unknown> } | undefined {
  const kind = CALLS.find((k) => k.key === method);
  const value = kind && 'fromRecorded' in kind ? kind.fromRecorded?.(params, spec) : undefined;
  return value && { key: method, value };
}
