// What one side's answers tell the simulator of the draws the real wallet made, so that a simulator side follows them
// (harness/sim/http/replay.ts reads the header): for each step whose answer spent inputs, how many each of its txs
// spent. The real wallet flips a coin between 1 and 2 inputs whenever one output can pay; a simulator that drew for
// itself would diverge there in the fee, the change and every balance after.
import { resolve } from 'node:path';
import type { StepReplay } from '../runner/options.js';
import { SIM_REPLAY_HEADER } from '../sim/index.js';
import type { ScenarioResult } from '../scenario/types.js';

/** The header the simulator reads its replayed draws from. */
export const REPLAY_HEADER = SIM_REPLAY_HEADER;

const keyImages = (v: unknown): number | undefined => {
  const list = (v as { key_images?: unknown } | undefined)?.key_images;
  return Array.isArray(list) ? list.length : undefined;
};

/** Each tx's input count, in the answer's order: `spent_key_images` of one tx, `spent_key_images_list` of several. */
export function inputCounts(response: unknown): number[] | undefined {
  const result = (response as { result?: Record<string, unknown> } | undefined)?.result;
  if (!result) return undefined;
  if (Array.isArray(result.spent_key_images_list)) {
    const counts = result.spent_key_images_list.map(keyImages);
    return counts.every((n) => n !== undefined) ? (counts as number[]) : undefined;
  }
  const one = keyImages(result.spent_key_images);
  return one === undefined ? undefined : [one];
}

/** The runner's replay for a side that follows these results (files compared resolved). */
export function replayFrom(results: readonly ScenarioResult[]): StepReplay {
  const byFile = new Map<string, Map<number, Record<string, string>>>();
  for (const r of results) {
    const steps = new Map<number, Record<string, string>>();
    for (const s of r.steps) {
      const inputs = inputCounts(s.response);
      if (inputs?.length) steps.set(s.index, { [REPLAY_HEADER]: JSON.stringify({ inputs }) });
    }
    if (steps.size) byFile.set(resolve(r.file), steps);
  }
  return (file, stepIndex) => byFile.get(resolve(file))?.get(stepIndex);
}
