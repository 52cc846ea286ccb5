// One step kind, defined once: its YAML key and zod schema, how its action is built from the
// validated YAML, its default name, the rules zod cannot express, how it runs, and its documentation.
// The registry (registry.ts) lists them; the schema, the parser, the runner and the docs generator
// all read from it, so a new step kind is one module and one line there.
import type { z } from 'zod';
import type { SourcePos } from '../../common/locator.js';
import type { PathSegment } from '../../common/path.js';
import type { RuleArgs, RuleCtx } from '../schema/rule-kit.js';
import type { BackendSpec } from '../../coin/backends.js';
import type { StepCommon } from '../types.js';
import type { StepContext } from './context.js';

/** What a step sent and what it got back, as the transcript and `expect` see them. */
export interface StepExchange {
  request: unknown;
  response: unknown;
  /** Where the step's time went, when that is worth a line (a mine that waited for the RandomX dataset). */
  note?: string;
}

export interface StepDocs {
  /** What the schema's one-line description cannot say: how the request is filled in, what the answer holds, traps. */
  note: string;
  /** Example steps (YAML) for a kind no example scenario uses yet, with the wallets they need. */
  example?: { steps: string; wallets?: string[] };
}

export interface StepKind<K extends string = string, A extends { kind: string } = { kind: string }> {
  key: K;
  /** The schema of the value under the key. */
  schema: z.ZodType;
  /**
   * Whether the step's answer is an RPC answer: `expect_error` applies, an unexpected error fails
   * the step, and `save` reads it. Other kinds answer what they did (e.g. `{result: {height}}`).
   */
  answersRpc: boolean;
  /** The action, from the validated value; `at(path)` locates a part of it in the file. */
  build(value: unknown, at: (path: PathSegment[]) => SourcePos): A;
  defaultName(action: A): string;
  /** Rules beyond the structure (value as written, before validation; it may be of any shape). */
  check?(ctx: RuleCtx, value: unknown, path: PathSegment[], args: RuleArgs): void;
  run(ctx: StepContext, step: StepCommon, action: A): Promise<StepExchange>;
  docs: StepDocs;
  /**
   * The most blocks the step mines, from its value as written (any shape), with where the count is (a path under the
   * key): the scenario's blocks mined in all are bounded (limit-checks.ts). Undefined: it mines none.
   */
  blocks?(value: unknown): { blocks: number; path: PathSegment[] } | undefined;
  /** The step needs tokens on the chain (the runner mines to the token height first; backends without tokens skip). */
  needsTokens?(action: A): boolean;
  /**
   * The value of this step that sends exactly `params` again: how a recorded request is written as this readable form
   * (`saltnet record`); undefined when it cannot (the request is written as `call`).
   */
  fromRecorded?(params: Record<string, unknown>, spec: BackendSpec): Record<string, unknown> | undefined;
}

/** A step kind (the identity: it only fixes the types). */
export function defineStep<K extends string, A extends { kind: string }>(kind: StepKind<K, A>): StepKind<K, A> {
  return kind;
}
