// wait: repeat one call (a `call` or a readable wallet form) until expectations hold, bounded by
// seconds and/or blocks; optionally mine a block between tries. Built from the call-like kinds
// (registry.ts passes them), so a new wallet form can be waited on with no change here.
import { isPlainObject } from '../../common/plain-object.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { PathSegment } from '../../common/path.js';
import { MAX_BLOCKS_PER_STEP, MAX_WAIT_SECONDS } from '../bounds.js';
import { checkExpectations } from '../match.js';
import { nameLeaf } from '../schema/leaves.js';
import { expectations } from '../schema/matchers.js';
import { checkExpectationKeys, checkWalletRef, ruleProblem, type RuleArgs, type RuleCtx } from '../schema/rule-kit.js';
import { has } from '../schema/vocabulary.js';
import type { Expectations, StepCommon } from '../types.js';
import { StepFailed, fail, refreshScope, refreshWallets, type StepContext } from './context.js';
import { defineStep, type StepExchange, type StepKind } from './kind.js';
import { counted } from '../../common/describe.js';

export interface WaitAction<C extends { kind: string } = { kind: string }> {
  kind: 'wait';
  /** The call to repeat: the action of a call-like kind. */
  call: C;
  until: Expectations;
  seconds?: number;
  blocks?: number;
  mine: boolean;
}

type Callable = StepKind<string, { kind: string }>;

function waitSchema(callables: readonly Callable[]): z.ZodType {
  return z
    .strictObject({
      ...Object.fromEntries(callables.map((k) => [k.key, k.schema.optional()])),
      wallet: nameLeaf('wallet name', 'bob')
        .describe("the wallet that runs the call (default: the step's wallet, main)")
        .optional(),
      until: expectations.describe('expectations that end the wait when they all hold'),
      seconds: z.number().positive().max(MAX_WAIT_SECONDS).describe('give up after this many seconds').optional(),
      blocks: z
        .int()
        .min(1)
        .max(MAX_BLOCKS_PER_STEP)
        .describe('give up after this many blocks (mined by the wait when mine is true)')
        .optional(),
      mine: z.boolean().describe('mine one block between tries (default false)').optional(),
    })
    .describe(
      'repeat a call until expectations hold: {call: {…} | <wallet method>: {…}, until: {…}, seconds?, blocks?, mine?} (seconds and/or blocks)',
    )
    .meta({ anyOf: [{ required: ['seconds'] }, { required: ['blocks'] }] });
}

function check(
  callables: readonly Callable[],
  ctx: RuleCtx,
  v: Record<string, unknown>,
  path: PathSegment[],
  args: RuleArgs,
): void {
  const names = callables.map((k) => k.key);
  const forms = Object.keys(v).filter((k) => names.includes(k));
  const methods = names.filter((k) => k !== 'call');
  if (forms.length === 0)
    ruleProblem(
      ctx,
      [...path, 'call'],
      'parent',
      'missing what to repeat: call: {…} or a wallet method such as get_balance: {…}',
      `call or one of ${methods.join(', ')}`,
    );
  for (const extra of forms.slice(1))
    ruleProblem(
      ctx,
      [...path, extra],
      'key',
      `wait repeats one call; it already has ${forms[0]}`,
      'one of call or a wallet method',
    );
  for (const f of forms) callables.find((k) => k.key === f)!.check?.(ctx, v[f], [...path, f], args);
  if (!has(v, 'seconds') && !has(v, 'blocks'))
    ruleProblem(
      ctx,
      [...path, 'seconds'],
      'parent',
      'a wait needs a bound: seconds, blocks or both',
      '{…, seconds: 30} and/or {…, blocks: 12}',
    );
  if (isPlainObject(v.until) && Object.keys(v.until).length === 0)
    ruleProblem(ctx, [...path, 'until'], 'value', 'until is empty: nothing to wait for', 'at least one expectation');
  if (has(v, 'wallet')) {
    checkWalletRef(ctx, v.wallet, [...path, 'wallet']);
    const stepWallet = args.stepWallet;
    if (stepWallet !== undefined && stepWallet !== v.wallet)
      ruleProblem(
        ctx,
        [...path, 'wallet'],
        'value',
        `the step says wallet: ${String(stepWallet)} and the wait says wallet: ${String(v.wallet)}; keep one`,
        'one wallet',
      );
  }
  checkExpectationKeys(ctx, v.until, [...path, 'until']);
}

/**
 * Repeat the wait's call until its `until` holds, or fail once its bound is reached. Every wait ends
 * within MAX_WAIT_SECONDS and a mining one after MAX_BLOCKS_PER_STEP blocks, whatever it says: a wait
 * with only `blocks` and no `mine` would otherwise wait for ever for blocks nobody mines. The wallets
 * refresh before every try, the first too: a wallet that last refreshed in the middle of a `mine`
 * (before the blocks past its target were popped) would otherwise answer from a chain that is gone.
 */
async function runWait(
  inner: Callable,
  ctx: StepContext,
  step: StepCommon,
  a: WaitAction,
  seen: Partial<StepExchange>,
): Promise<void> {
  const started = Date.now();
  const startHeight = await ctx.daemon.height();
  const seconds = Math.min(a.seconds ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS);
  const blocks = a.mine ? Math.min(a.blocks ?? MAX_BLOCKS_PER_STEP, MAX_BLOCKS_PER_STEP) : a.blocks;
  for (let tries = 1; ; tries++) {
    await refreshWallets(ctx);
    await refreshScope(ctx);
    const r = await inner.run(ctx, step, a.call);
    Object.assign(seen, r);
    const response = r.response as { error?: { code: number; message: string } };
    const failure = response.error
      ? { message: `error ${response.error.code}: ${response.error.message}` }
      : checkExpectations(r.response as never, a.until, ctx.scope);
    if (!failure) return;
    const h = await ctx.daemon.height();
    const outOfTime = Date.now() - started > seconds * 1000;
    const outOfBlocks = blocks !== undefined && h - startHeight >= blocks;
    if (outOfTime || outOfBlocks) {
      fail(
        `wait: still not true after ${counted(tries, 'try', 'tries')}, ${Math.round((Date.now() - started) / 1000)} s and ${counted(h - startHeight, 'block')}: ${failure.message}`,
        { ...failure, pos: step.pos },
      );
    }
    if (a.mine) await ctx.testnet.mine({ to: h + 1 });
    else await sleep(250);
  }
}

/** The wait step kind, over the kinds it can repeat. */
export function waitStep(callables: readonly Callable[]): StepKind<'wait', WaitAction> {
  const kindOf = (key: string): Callable => callables.find((k) => k.key === key)!;
  // A readable wallet form's key is its method (as registry.ts's keyOf says).
  const callKind = (c: { kind: string }): Callable =>
    kindOf(c.kind === 'wallet' ? (c as unknown as { method: string }).method : c.kind);
  return defineStep<'wait', WaitAction>({
    key: 'wait',
    schema: waitSchema(callables),
    answersRpc: false,
    build(value, at) {
      const o = value as Record<string, unknown>;
      const key = callables.find((k) => has(o, k.key))!.key;
      const a: WaitAction = {
        kind: 'wait',
        call: kindOf(key).build(o[key], (p) => at([key, ...p])),
        until: o.until as Expectations,
        mine: o.mine === true,
      };
      if (typeof o.seconds === 'number') a.seconds = o.seconds;
      if (typeof o.blocks === 'number') a.blocks = o.blocks;
      return a;
    },
    defaultName: (a) => `wait ${(a.call as { method?: string }).method ?? (a.call as { path?: string }).path ?? ''}`,
    // with mine: true, a block between tries: at most `blocks`, or MAX_BLOCKS_PER_STEP with none
    blocks: (v) =>
      isPlainObject(v) && v.mine === true
        ? { blocks: typeof v.blocks === 'number' ? v.blocks : MAX_BLOCKS_PER_STEP, path: [] }
        : undefined,
    needsTokens: (a) => callKind(a.call).needsTokens?.(a.call as never) === true,
    check: (ctx, v, path, args) => (isPlainObject(v) ? check(callables, ctx, v, path, args) : undefined),
    async run(ctx, step, a) {
      const seen: Partial<StepExchange> = {};
      try {
        await runWait(callKind(a.call), ctx, step, a, seen);
      } catch (err) {
        // A wait that gives up reports what its last try sent and got.
        if (err instanceof StepFailed) err.exchange = { request: seen.request, response: seen.response };
        throw err;
      }
      return { request: seen.request, response: seen.response };
    },
    docs: {
      note: "Repeats one call (a `call` or one readable wallet form) until every expectation under `until` holds, or fails when the bound runs out (`seconds`, `blocks`, whichever comes first). Before each try the scenario's wallets are refreshed, and with `mine: true` one block is mined between tries. The step's `save` applies to the answer that ended the wait.",
    },
  });
}
