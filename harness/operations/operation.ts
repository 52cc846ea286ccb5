// An operation of a running testnet (mine, fund, partition, …), defined once: its name, its request's body (a zod
// schema whose fields say what they take), whether it may run beside others, what it does to the testnet, and the
// faces it shows besides the control endpoint's POST /<name> and its client: a `saltnet` command (`command`) and a
// scenario step (`step`). The table of them is index.ts; the control endpoint (control/server.ts), the CLI
// (cli/operation-commands.ts), the scenario language (scenario/steps/operation.ts) and vitest's `operation()` each
// read every face from it.
import type { Options, PositionalOptions } from 'yargs';
import { z } from 'zod';
import type { BackendSpec } from '../coin/backends.js';
import type { Testnet } from '../testnet/types.js';
import { parseBody, RequestError } from './body.js';

/** What a route gets besides its body. */
export interface RouteEnv {
  /** Where snapshots are saved. */
  cacheDir: string;
  /** Aborted when the request is cancelled: its client went away, or asked for it (`/cancel`). */
  signal: AbortSignal;
  /**
   * From here on the request is not cancelled: it finishes, client or not. `what` settles to what a `/cancel` then
   * answers (the faucet's: the transactions it sent).
   */
  commit(what: Promise<unknown>): void;
}

/** A request the control endpoint serves, its body not yet checked. */
export interface ControlRoute {
  /**
   * Answered at once even while another request runs (it neither stops programs nor mines itself). The others are
   * served one at a time, in the order they came (server.ts).
   */
  concurrent?: true;
  run(t: Testnet, body: unknown, env: RouteEnv): Promise<unknown>;
  /** Also served at GET, its answer as text (see Operation.get). */
  get?: TextFace<unknown>;
}

/** An answer served as text at GET /<name>: its content type, and the text of an answer. */
export interface TextFace<A> {
  contentType: string;
  text(answer: A): string;
}

/** What a face knows of the testnet it speaks for: its backend (units, decimals, address kinds). */
export interface Facts {
  spec: BackendSpec;
}

/** What an interrupted command says became of its request (the testnet's answer to `/cancel`). */
export interface InterruptedWords<B> {
  /** It was given up before its point of no return. */
  cancelled: string;
  /** It is past its point of no return and finishes; `detail` is what it is finishing (RouteEnv.commit). */
  finishing(detail: unknown, body: B): string;
  /** Its point of no return failed. */
  failed(error: string): string;
}

/** The operation as a `saltnet` command: its words read into a body, its answer said in words. */
export interface CommandFace<B, A> {
  /** Its command line in yargs' form: `fund <address> <amount>`. */
  usage: string;
  describe: string;
  /** Its positionals and options, as yargs takes them (every such command also takes --run and --json). */
  positionals?: Record<string, PositionalOptions>;
  options?: Record<string, Options>;
  /** A check of the words together (yargs' .check): throws an Error that says what to write. */
  check?(args: Record<string, unknown>): void;
  /** The request body of the words given; throws an Error naming the word for a bad one (default: `{}`). */
  body?(args: Record<string, unknown>, facts: Facts): B;
  /** The answer in words (one or more lines); with --json the answer is printed as JSON instead (`json`). */
  say(answer: A, facts: Facts): string;
  /** What --json prints (default: the whole answer). */
  json?(answer: A): unknown;
  /** Its own words for an interrupted request (default: what any request would say). */
  interrupted?: InterruptedWords<B>;
}

/**
 * The operation as a scenario step: the value under its key (the operation's name) is its body, a `${…}` placeholder
 * allowed for any field; the step answers `{result: <the operation's answer>}`.
 */
export interface StepFace<B> {
  /** The step's default name, from its value as written. */
  name(value: B): string;
  /** The most blocks it mines (the limit on blocks a scenario mines in all counts it). */
  blocks?: number;
  /** It needs tokens on the chain (from its value as written). */
  needsTokens?(value: B): boolean;
  /** What the schema's one-line description cannot say, and an example for the docs. */
  docs: { note: string; example?: { steps: string; wallets?: string[] } };
}

export interface Operation<B extends z.ZodObject = z.ZodObject, A = unknown> {
  /** Its name: served at POST /<name>, asked for by operate(control, name, …) (client.ts). */
  name: string;
  /** What it does, for a client's error: `cannot <what>: …`. */
  what: string;
  /** Its request's body: a z.strictObject whose every field has a description (what it takes). */
  body: B;
  /** It may run beside the others (see ControlRoute.concurrent). */
  concurrent?: true;
  run(t: Testnet, body: z.infer<B>, env: RouteEnv): Promise<A>;
  /**
   * Also served at GET /<name> with an empty body, its answer as text (Prometheus scrapes GET /metrics); for an
   * operation whose body has no required field.
   */
  get?: TextFace<A>;
  /** Its `saltnet` command, when it has one of its own. */
  command?: CommandFace<z.input<B>, A>;
  /** Its scenario step, when it has one. */
  step?: StepFace<z.input<B>>;
}

/** The body of an operation that takes no field. */
export const NO_BODY = z.strictObject({});

/** An operation, its types kept (the client's request and answer types are read from it). */
export const defineOperation = <B extends z.ZodObject, A>(op: Operation<B, A>): Operation<B, A> => op;

/** The route of an operation: its body checked strictly (body.ts) before anything is done. */
export function routeOf(op: Operation): ControlRoute {
  return {
    ...(op.concurrent ? { concurrent: true as const } : {}),
    ...(op.get ? { get: op.get } : {}),
    run: (t, body, env) => op.run(t, parseBody(op.body, body), env),
  };
}

/** An optional whole number in [min, max], described for the error a bad one gets. */
export const whole = (min: number, max: number, what = 'a whole number'): z.ZodOptional<z.ZodInt> =>
  z.int().min(min).max(max).optional().describe(`${what} from ${min} to ${max}`);

/** `f()`, its error a RequestError (a check of the request's values made elsewhere). */
export function asRequestError<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    throw new RequestError(err instanceof Error ? err.message : String(err));
  }
}
