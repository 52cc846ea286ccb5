import { configDefaults, defineConfig } from 'vitest/config';
import NameOrder from './test/real/sequencer.js';

export default defineConfig({
  test: {
    // The simulator runs as real child processes started from dist/; build it once per run.
    globalSetup: ['test/setup/build.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Suites start processes and bind ports; two workers match the two cores CI has.
    maxWorkers: 2,
    // The real tier in name order (test/real/sequencer.ts); vitest reads the sequencer from here only.
    sequence: { sequencer: NameOrder },
    projects: [
      {
        extends: true,
        test: {
          name: 'sim',
          include: ['test/**/*.test.ts'],
          // The vitest example project is run by test/vitest/vitest.test.ts in a vitest of its own, never here.
          exclude: [...configDefaults.exclude, 'test/vitest/example/**', 'test/real/**'],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // The real-Salvium tier (test/real): after the rest, one file at a time (real mining wants
        // both cores), skipped with a plain message where no real binaries are found.
        extends: true,
        test: {
          name: 'real',
          include: ['test/real/**/*.test.ts'],
          globalSetup: ['test/setup/build.ts', 'test/real/setup.ts'],
          fileParallelism: false,
          testTimeout: 900_000,
          hookTimeout: 900_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
