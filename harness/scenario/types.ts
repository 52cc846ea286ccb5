// The shapes the scenario language shares between its step kinds, its parser, its runner and its
// reporters: what a step expects of its answer, what every step has besides its action, the problems
// of a file that does not fit, and the results. A scenario as parsed (its steps' actions are the step
// kinds') is model.ts.

import type { SourcePos } from '../common/locator.js';
import { MAX_PROBLEMS_SHOWN } from './bounds.js';

/** A position in a scenario file, for error messages: 1-based line and column. */
export type { SourcePos };

/** A value whose `${…}` placeholders are resolved just before the step runs (strings may contain them anywhere). */
export type Template = unknown;

/**
 * A matcher applied to the value found at a path of the response. A plain value (scalar, array or
 * object) means deep equality, with amounts compared as bigints.
 */
export type Matcher =
  | { eq: Template }
  | { ne: Template }
  | { contains: Template }
  | { not_contains: Template }
  | { length: number | ComparisonMatcher }
  | { gt: Template }
  | { gte: Template }
  | { lt: Template }
  | { lte: Template }
  | { matches: string }
  | { absent: true }
  | { present: true }
  | { type: 'string' | 'number' | 'boolean' | 'array' | 'object' | 'null' }
  | { all: Matcher[] };

export type ComparisonMatcher = { gt: number } | { gte: number } | { lt: number } | { lte: number } | { eq: number };

/**
 * Expectations on a response `{ result?, error? }`: path → matcher or literal. Paths are dot and
 * bracket paths from the response root: `result.tokens`, `result.balances[0].unlocked_balance`,
 * `error.code`, `result.tokens.length` is spelled `{ length: … }` on `result.tokens`.
 */
export type Expectations = Record<string, Matcher | Template>;

/** Expected error answer; each field optional; `message` may be a string (exact) or a matcher. */
export interface ExpectedError {
  code?: number;
  message?: string | Matcher;
}

/**
 * What every step has besides its action: its place, name, wallet and node, what it expects and saves. A step kind's
 * `run` is given this and its own action (steps/kind.ts); a parsed step is this with the action (model.ts).
 */
export interface StepCommon {
  index: number;
  name: string;
  /** Wallet that runs wallet actions (default `main`). */
  wallet: string;
  /**
   * The node whose daemon answers the step's daemon calls (`call` on the daemon, `restart: daemon`, `log` of the
   * daemon); default n0.
   */
  node?: string;
  expect?: Expectations;
  expect_error?: ExpectedError;
  /** name → path into the response (`result.tx_hash`), saved for `${name}`. */
  save?: Record<string, string>;
  pos: SourcePos;
}

/** A scenario file that does not fit the language: every problem, each with where it is. */
export interface ScenarioProblem {
  pos: SourcePos;
  /** `steps[3].transfer.amount` */
  path: string;
  message: string;
  /** What would fit, e.g. `an amount: an integer (atomic units) or "1.5 SAL1"`. */
  expected?: string;
}

/** One line per problem, the first MAX_PROBLEMS_SHOWN of them, then how many more there are. */
function problemLines(problems: ScenarioProblem[], truncated: boolean): string {
  const lines = problems
    .slice(0, MAX_PROBLEMS_SHOWN)
    .map(
      (p) =>
        `${p.pos.file}:${p.pos.line}:${p.pos.col}: ${p.path}: ${p.message}${p.expected ? ` (expected ${p.expected})` : ''}`,
    );
  const more = problems.length - MAX_PROBLEMS_SHOWN;
  const stopped = truncated ? 'the check stopped there, so there may be others' : '';
  if (more > 0) lines.push(`… and ${more} more problem${more === 1 ? '' : 's'}${stopped ? `; ${stopped}` : ''}`);
  else if (stopped) lines.push(`… ${stopped}`);
  return lines.join('\n');
}

export class ScenarioError extends Error {
  /** `truncated`: validation stopped looking after `problems` (MAX_PROBLEMS_COLLECTED). */
  constructor(
    readonly problems: ScenarioProblem[],
    readonly truncated = false,
  ) {
    super(problemLines(problems, truncated));
    this.name = 'ScenarioError';
  }
}

// ---- results (runner → reporters) ----

export interface StepResult {
  index: number;
  name: string;
  action: string;
  /** `interrupted`: the run was stopped (Ctrl-C, SIGTERM) while this step ran; the steps after it are `skipped`. */
  status: 'passed' | 'failed' | 'skipped' | 'interrupted';
  ms: number;
  /** Resolved request (templates filled in; passwords never here). */
  request?: unknown;
  response?: unknown;
  /** Where the step's time went, when that is worth a line (a mine that waited for the RandomX dataset). */
  note?: string;
  failure?: StepFailure;
}

export interface StepFailure {
  message: string;
  /** Path of the failing expectation. */
  path?: string;
  expected?: string;
  actual?: string;
  pos?: SourcePos;
}

/**
 * How a scenario ended. `failed`: the scenario's own failure (a step's expectation did not hold, an
 * RPC answered differently, the file does not parse or cannot be read). `error`: the infrastructure
 * let it down before it could be judged (the testnet did not start even on a second try, funding
 * its wallets failed, a process of the testnet died and was not started again). `interrupted`:
 * the run was stopped (Ctrl-C, SIGTERM) while this scenario ran. All three fail the run.
 */
export type ScenarioStatus = 'passed' | 'failed' | 'error' | 'interrupted' | 'skipped';

/**
 * Whether the scenario failed, errored or was interrupted (what makes a run fail, `--bail` stop; `--keep` keeps a
 * failed or errored one).
 */
export function isUnsuccessful(r: { status: ScenarioStatus }): boolean {
  return r.status === 'failed' || r.status === 'error' || r.status === 'interrupted';
}

export interface ScenarioResult {
  file: string;
  name: string;
  status: ScenarioStatus;
  ms: number;
  backend: string;
  steps: StepResult[];
  artifactDir?: string;
  /** The first failure (or, with status `error`, what went wrong in the infrastructure), for summaries. */
  failure?: StepFailure;
  /** Last lines of each process's log, captured on failure. */
  logTails?: Record<string, string[]>;
}
