// The scenario step of each operation that has one (operations/operation.ts's StepFace): its key is the operation's
// name and its value the operation's request body, a "${…}" placeholder allowed for any field. The step fills in the
// placeholders, checks the body as the control endpoint does, runs the operation on the scenario's testnet and answers
// `{result: <the operation's answer>}`. Nothing here knows any one operation.
import { z } from 'zod';
import { cacheDir } from '../../common/cache-dir.js';
import { parseBody, RequestError } from '../../operations/body.js';
import { onOperationAdded, operations } from '../../operations/index.js';
import type { Operation } from '../../operations/operation.js';
import { interpolate, isTemplateString } from '../interpolate.js';
import type { Template } from '../types.js';
import { fail } from './context.js';
import { defineStep, type StepKind } from './kind.js';

export interface OperationAction {
  kind: string;
  /** The body as written (placeholders not yet filled in). */
  body: Record<string, unknown>;
}

const placeholder = z.string().refine(isTemplateString).describe('a "${…}" placeholder');

/** The body's schema with a placeholder allowed for each field (checked again, filled in, when the step runs). */
function valueSchema(op: Operation): z.ZodType {
  const shape = Object.fromEntries(
    Object.entries(op.body.shape as Record<string, z.ZodType>).map(([key, field]) => {
      const described = (s: z.ZodType): z.ZodType => (field.description ? s.describe(field.description) : s);
      return [
        key,
        field instanceof z.ZodOptional
          ? described(z.union([field.unwrap() as z.ZodType, placeholder])).optional()
          : described(z.union([field, placeholder])),
      ];
    }),
  );
  return z.strictObject(shape).describe(`${op.command?.describe ?? op.what}: {${Object.keys(shape).join(', ')}}`);
}

/** The step kind of an operation with a step face. */
export function operationStep(op: Operation): StepKind<string, OperationAction> {
  const face = op.step!;
  return defineStep<string, OperationAction>({
    key: op.name,
    schema: valueSchema(op),
    answersRpc: false,
    build: (v) => ({ kind: op.name, body: v as Record<string, unknown> }),
    defaultName: (a) => face.name(a.body as never),
    ...(face.blocks !== undefined ? { blocks: () => ({ blocks: face.blocks!, path: [] }) } : {}),
    ...(face.needsTokens ? { needsTokens: (a: OperationAction) => face.needsTokens!(a.body as never) } : {}),
    async run(ctx, _step, a) {
      const filled = interpolate(a.body as Template, ctx.scope);
      try {
        const body = parseBody(op.body, filled);
        const env = { cacheDir: cacheDir(), signal: new AbortController().signal, commit: () => undefined };
        return { request: { [op.name]: filled }, response: { result: await op.run(ctx.testnet, body, env) } };
      } catch (err) {
        if (err instanceof RequestError) return fail(`cannot ${op.what}: ${err.message}`);
        throw err;
      }
    },
    docs: face.docs,
  });
}

/** The step kinds of the operations with a step face, those added later (registerOperation) told to `add`. */
export function operationSteps(add: (kind: StepKind) => void): StepKind[] {
  onOperationAdded((op) => op.step && add(operationStep(op)));
  return operations()
    .filter((op) => op.step)
    .map(operationStep);
}
