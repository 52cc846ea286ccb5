// The real tier's files run in name order, the suite at 500 first, after 1-up and 3-suite (run beside the
// sim tier: beside.test.ts), which built the default chain state into the tier's cache: 2-api
// restores it, 9-suite-500 serves it (the suite's chain is the default one) at 500. vitest reads
// `sequence.sequencer` from the root config only (a project's own is ignored), so this one is the
// root's: every other file keeps vitest's own order (failed first, then longest first), the real
// tier's files are put in that order in the places they hold.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const REAL_PROJECT = 'real';
/**
 * First of the real tier: the example suite at 500 holds one of the tier's two workers for ~14 minutes while the
 * other runs the rest, which take ~6, one after the other (vitest.config.ts).
 */
export const REAL_FIRST = '/test/real/9-suite-500.test.ts';

export default class NameOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isReal = (f: TestSpecification): boolean => f.project.name === REAL_PROJECT;
    const first = (f: TestSpecification): number => (f.moduleId.endsWith(REAL_FIRST) ? 0 : 1);
    const real = sorted.filter(isReal).sort((a, b) => first(a) - first(b) || a.moduleId.localeCompare(b.moduleId));
    let next = 0;
    return sorted.map((f) => (isReal(f) ? real[next++]! : f));
  }
}
