// The root sequencer (test/real/sequencer.ts): the real tier's files in name order (the suite at 500 first), whatever
// order vitest's own sort gives them (it sorts by past duration and size), and every other file where vitest puts it.
import { expect, it } from 'vitest';
import type { TestSpecification } from 'vitest/node';
import NameOrder from '../real/sequencer.js';

const spec = (project: string, groupOrder: number, moduleId: string, size: number): TestSpecification =>
  ({ project: { name: project, config: { sequence: { groupOrder }, isolate: true } }, moduleId, size }) as never;

it('puts the real tier after the rest, the suite at 500 first, then in name order, and leaves the other files in vitest order', async () => {
  const files = [
    spec('real', 1, '/r/test/real/7-loop.test.ts', 900),
    spec('sim', 0, '/r/test/b.test.ts', 500),
    spec('real', 1, '/r/test/real/1-up.test.ts', 100),
    spec('sim', 0, '/r/test/a.test.ts', 10),
    spec('real', 1, '/r/test/real/3-suite.test.ts', 500),
    spec('real', 1, '/r/test/real/9-suite-500.test.ts', 50),
  ];
  const sizes = new Map(files.map((f) => [f.moduleId, (f as unknown as { size: number }).size]));
  // No past results: vitest's own sort runs larger files first.
  const ctx = {
    config: { root: '/r' },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => ({ size: sizes.get(`/r/${key.slice(key.indexOf(':') + 1)}`) ?? 0 }),
    },
  };
  const sorted = await new NameOrder(ctx as never).sort(files);
  expect(sorted.map((f) => f.moduleId)).toEqual([
    '/r/test/b.test.ts',
    '/r/test/a.test.ts',
    '/r/test/real/9-suite-500.test.ts',
    '/r/test/real/1-up.test.ts',
    '/r/test/real/3-suite.test.ts',
    '/r/test/real/7-loop.test.ts',
  ]);
});
