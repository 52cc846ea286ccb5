// Executing one scenario step: its kind (steps/registry.ts) runs it; then the step's expectations
// are checked and its values saved, the same way for every kind.
import type { JsonRpcAnswer } from '../rpc/jsonrpc.js';
import { hintFor } from './error-hints.js';
import { checkError, checkExpectations, getPath } from './match.js';
import type { Scope } from './interpolate.js';
import { StepFailed, fail, refreshScope, type StepContext } from './steps/context.js';
import type { StepExchange } from './steps/kind.js';
import { keyOf, stepKind } from './steps/registry.js';
import type { Step } from './model.js';
import type { StepFailure, StepResult } from './types.js';

export { refreshScope, type ScenarioWallet, type StepContext } from './steps/context.js';

/** An RPC answer against expect_error, an unexpected error, or expect. */
function verify(step: Step, response: JsonRpcAnswer, scope: Scope): StepFailure | undefined {
  if (step.expect_error) return checkError(response, step.expect_error);
  if (response.error) {
    const hint = hintFor(response.error);
    return {
      message: `unexpected error ${response.error.code}: ${response.error.message}${hint ? ` (${hint})` : ''}`,
      actual: JSON.stringify(response.error),
      expected: 'a result (add expect_error to expect this error)',
    };
  }
  if (step.expect) return checkExpectations(response, step.expect, scope);
  return undefined;
}

function save(step: Step, response: JsonRpcAnswer, scope: Scope): void {
  for (const [name, path] of Object.entries(step.save ?? {})) {
    const got = getPath(response, path);
    if (!got.found) fail(`save ${name}: nothing at ${path} in the response`, { path });
    scope[name] = got.value;
  }
}

/** Execute a step; never throws for a scenario failure (it is reported in the result). */
export async function runStep(ctx: StepContext, step: Step): Promise<StepResult> {
  const t0 = Date.now();
  const key = keyOf(step.action);
  const base = { index: step.index, name: step.name, action: key };
  let exchange: Partial<StepExchange> = {};
  ctx.previousStepStartedAt = ctx.stepStartedAt ?? t0;
  ctx.stepStartedAt = t0;
  ctx.scenarioStartedAt ??= t0;
  try {
    await refreshScope(ctx);
    const kind = stepKind(key)!;
    exchange = await kind.run(ctx, step, step.action);
    const response = exchange.response as JsonRpcAnswer;
    // Every kind answers something (a wait its last answer, mine the height reached…): `expect` holds on that.
    const failure = kind.answersRpc
      ? verify(step, response, ctx.scope)
      : step.expect
        ? checkExpectations(response, step.expect, ctx.scope)
        : undefined;
    if (failure) fail(failure.message, { ...failure, pos: step.pos });
    save(step, response, ctx.scope);
    return {
      ...base,
      status: 'passed',
      ms: Date.now() - t0,
      request: exchange.request,
      response: exchange.response,
      ...(exchange.note ? { note: exchange.note } : {}),
    };
  } catch (err) {
    if (err instanceof StepFailed && err.exchange) exchange = err.exchange;
    const failure: StepFailure =
      err instanceof StepFailed
        ? { pos: step.pos, ...err.failure }
        : { message: err instanceof Error ? err.message : String(err), pos: step.pos };
    return {
      ...base,
      status: 'failed',
      ms: Date.now() - t0,
      request: exchange.request,
      response: exchange.response,
      failure,
    };
  }
}
