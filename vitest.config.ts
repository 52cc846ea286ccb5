import { configDefaults, defineConfig } from 'vitest/config';
import NameOrder from './test/real/sequencer.js';

// The real tier's cold `up`, its example suite at difficulty 1 against the simulator and, beside that suite, the build
// of the states the suite at 500 restores (its longest file, 20 to 23 minutes) run beside the simulator's tier, in
// one of the workers (test/real/beside.test.ts). The sim tier alone
// leaves 18% of two cores idle and the d1 suite mostly waits on wallet RPCs: beside each other, the run is shorter.
const REAL_BESIDE = 'test/real/beside.test.ts';
const REAL = { globalSetup: ['test/setup/build.ts', 'test/real/setup.ts'], testTimeout: 900_000, hookTimeout: 900_000 };

export default defineConfig({
  test: {
    // The simulator runs as real child processes started from dist/; build it once per run.
    globalSetup: ['test/setup/build.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Three workers on CI's two cores: the real example suite at difficulty 1 (real-beside) holds one for most of the
    // sim tier, and mostly waits on the real wallet RPC; with two, the sim tier had one worker for those ~19 minutes,
    // and its files, which wait on processes they start, leave cores idle too. The real tier has two (below).
    maxWorkers: 3,
    // The real tier in name order (test/real/sequencer.ts); vitest reads the sequencer from here only.
    sequence: { sequencer: NameOrder },
    projects: [
      {
        // First in its group (projects sort by name there): it starts as the sim tier does, and ends long before.
        extends: true,
        test: { name: 'real-beside', include: [REAL_BESIDE], ...REAL, sequence: { groupOrder: 0 } },
      },
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
        // The real-Salvium tier (test/real): after the rest, skipped with a plain message where no real binaries are
        // found. Two workers: the example suite at 500 (test/real/sequencer.ts starts it first) holds one; the other
        // runs the tier's other files, one after the other, in less time. Alone, the suite at 500 kept one core busy on
        // average (the CPU 47% idle over its 829.7 s: wallets opened and refreshed between the blocks), and the other
        // files, which mostly wait on a real wallet RPC at difficulty 1, left it 42% idle.
        extends: true,
        test: {
          name: 'real',
          include: ['test/real/**/*.test.ts'],
          exclude: [...configDefaults.exclude, REAL_BESIDE],
          ...REAL,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
