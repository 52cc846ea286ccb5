// What `saltnet diff` and `diffScenarios` return: per scenario, how each side ended and every
// divergence between them, with the accept entry that covers it, if any.
import type { BackendName } from '../coin/backends.js';
import type { ScenarioStatus } from '../scenario/types.js';
import type { ValueDivergence } from './compare.js';

export interface DiffSide {
  backend: BackendName | 'auto';
  /** Where this side's programs are (the `salvium` or `monero` backend): two builds of Salvium, for instance. */
  binDir?: string;
  /** Extra environment of this side's daemon (the simulator's knobs, say). */
  daemonEnv?: Record<string, string>;
  /** This side was not run: its results come from this recording folder (`saltnet diff --against`). */
  recording?: string;
}

/** Where an accept entry is: its file and the position of the entry in it. */
export interface AcceptPos {
  file: string;
  line: number;
  col: number;
}

export interface AcceptEntry {
  /**
   * A scenario name, or a glob matched against scenario names and files (files relative to the accept file's folder).
   */
  scenario: string;
  /**
   * A step number (1-based, as `saltnet run` and `saltnet diff` show them) or a step name (or a glob of names); absent:
   * every step.
   */
  step?: number | string;
  /**
   * A path in the answer (`result.balances[0].blocks_to_unlock`), with `*` for one key, `[*]` for any index, `**` for
   * any depth; or `(status)`, `(answer)`.
   */
  path: string;
  reason: string;
  pos: AcceptPos;
}

/**
 * A value divergence placed in its scenario: `path` is in the step's answer, `(status)` for a step's (or the
 * scenario's) status.
 */
export interface Divergence extends ValueDivergence {
  /**
   * 1-based step number as `saltnet run` shows it; absent for the scenario as a whole (e.g. skipped on one side only).
   */
  step?: number;
  stepName?: string;
  /** Set when an accept entry covers it: it is listed, but does not fail the run. */
  accepted?: { reason: string; pos: AcceptPos };
}

/**
 * `same`: no divergence; `accepted`: only accepted ones; `diverged`: at least one that is not
 * accepted; `error`: the infrastructure let one side down (its testnet did not start…), so the
 * steps were not compared; `skipped`: skipped on both sides.
 */
export type ScenarioDiffStatus = 'same' | 'accepted' | 'diverged' | 'error' | 'skipped';

export interface SideOutcome {
  status: ScenarioStatus;
  backend: string;
  /** The side's failure or infrastructure error, first line. */
  message?: string;
  artifactDir?: string;
}

export interface ScenarioDiff {
  file: string;
  name: string;
  status: ScenarioDiffStatus;
  a: SideOutcome;
  b: SideOutcome;
  /** Steps that ran on both sides. */
  stepsCompared: number;
  /**
   * Steps one side skipped after its own failure while the other ran them: counted apart, not as divergences (the
   * failure is one).
   */
  stepsSkipped: number;
  divergences: Divergence[];
}

export interface DiffSummary {
  scenarios: number;
  /** Steps compared (ran on both sides). */
  steps: number;
  /** Steps one side skipped after a failure while the other ran them. */
  skipped: number;
  /** Divergences not accepted. */
  divergences: number;
  accepted: number;
  /** Scenarios with at least one divergence that is not accepted. */
  diverged: number;
  /** Scenarios one side's infrastructure let down. */
  errors: number;
  stale: number;
}

export interface DiffResult {
  a: DiffSide;
  b: DiffSide;
  scenarios: ScenarioDiff[];
  /** Accept entries that apply to a compared scenario but matched no divergence (warnings). */
  stale: AcceptEntry[];
  summary: DiffSummary;
  /** Nothing diverged (beyond what is accepted), nothing errored, and something was compared. */
  ok: boolean;
}
