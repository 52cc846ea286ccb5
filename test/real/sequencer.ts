// The real tier's files run in name order (one at a time): 1-up builds the default chain state
// into the tier's cache from empty, 2-api restores it, 3-suite builds the suite's own (at
// difficulty 1).
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class NameOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}
