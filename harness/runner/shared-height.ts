// The height a shared run's state paid ahead is mined to. A `mine: {to: N}` step brings the chain to a
// height and does nothing once it is there; on a shared testnet the chain only grows, so once one scenario has run it,
// every later one starts at N or above. Above difficulty 1 the run's state paid ahead is mined there at the prefix
// difficulty, after its payments and its tokens made ahead (a token made ahead at HF11 is still made at HF11): those
// blocks then cost a hash each, once per machine, instead of the served difficulty in the scenario's steps.
import type { Scenario } from '../scenario/model.js';

/** The highest `mine: {to: N}` among the steps of these scenarios of one node, where it is above `height`. */
export function sharedMineTo(scenarios: readonly Scenario[], height: number): number | undefined {
  let top = height;
  for (const s of scenarios) {
    // A scenario of several nodes gets a testnet of its own (its leading height: own-testnet-funds.ts).
    if (s.nodes > 1) continue;
    for (const step of s.steps) {
      const a = step.action as { kind: string; to?: number };
      if (a.kind === 'mine' && a.to !== undefined && a.to > top) top = a.to;
    }
  }
  return top > height ? top : undefined;
}
