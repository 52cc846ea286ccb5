import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The vitest example project is run by test/vitest/vitest.test.ts in a vitest of its own, never here.
    exclude: [...configDefaults.exclude, 'test/vitest/example/**'],
    // The simulator runs as real child processes started from dist/; build it once per run.
    globalSetup: ['test/setup/build.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Suites start processes and bind ports; two workers match the two cores CI has.
    maxWorkers: 2,
  },
});
