// The real tier's files run in name order (one at a time): 1-up builds the default chain state
// into the tier's cache from empty, 2-api restores it, 9-suite-500 serves the suite's state at 500
// (3-suite, which builds that state at difficulty 1, runs earlier, beside the sim tier:
// vitest.config.ts). vitest reads `sequence.sequencer` from the root
// config only (a project's own is ignored), so this one is the root's: every other file keeps
// vitest's own order (failed first, then longest first), the real tier's files are put in name order
// in the places they hold.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const REAL_PROJECT = 'real';

export default class NameOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isReal = (f: TestSpecification): boolean => f.project.name === REAL_PROJECT;
    const real = sorted.filter(isReal).sort((a, b) => a.moduleId.localeCompare(b.moduleId));
    let next = 0;
    return sorted.map((f) => (isReal(f) ? real[next++]! : f));
  }
}
