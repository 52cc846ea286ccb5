// The timeouts a vitest run against a testnet gets (harness/vitest/timeouts.ts), and the one line
// that says what the run tests on: the simulator's minute, real Salvium's minutes at difficulty 500,
// scaled by the timeout factor, never below what vitest.config gives.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  atLeast,
  backendLine,
  fittedTimeouts,
  hasSaltnetSetup,
  type BackendLineInputs,
} from '../../harness/vitest/timeouts.js';
import { tagOf } from '../../harness/install/checks.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the timeouts that fit a testnet', () => {
  it('the simulator: a minute per test, two per hook, whatever the difficulty', () => {
    expect(fittedTimeouts({ backend: 'sim', difficulty: 500, timeoutFactor: 1 })).toEqual({
      test: 60_000,
      hook: 120_000,
    });
    expect(fittedTimeouts({ backend: 'sim', difficulty: 1, timeoutFactor: 1 })).toEqual({
      test: 60_000,
      hook: 120_000,
    });
  });

  it('real Salvium: minutes at difficulty 500, growing with the difficulty, scaled by the timeout factor', () => {
    const d1 = fittedTimeouts({ backend: 'salvium', difficulty: 1, timeoutFactor: 1 });
    const d500 = fittedTimeouts({ backend: 'salvium', difficulty: 500, timeoutFactor: 1 });
    const d5000 = fittedTimeouts({ backend: 'salvium', difficulty: 5000, timeoutFactor: 1 });
    expect(d1).toEqual({ test: 121_000, hook: 181_000 });
    expect(d500).toEqual({ test: 274_000, hook: 334_000 });
    expect(d5000.test).toBeGreaterThan(d500.test * 5);
    expect(fittedTimeouts({ backend: 'salvium', difficulty: 500, timeoutFactor: 2 })).toEqual({
      test: 547_000,
      hook: 667_000,
    });
  });

  it("raise vitest's configured timeouts, keep longer ones and 0 (no limit)", () => {
    const fitted = { test: 274_000, hook: 334_000 };
    expect(atLeast({ test: 5_000, hook: 10_000 }, fitted)).toEqual(fitted);
    expect(atLeast({ test: 600_000, hook: 0 }, fitted)).toEqual({ test: 600_000, hook: 0 });
    expect(atLeast({}, fitted)).toEqual(fitted);
  });
});

describe('the line that says what a run tests on', () => {
  const real: BackendLineInputs = {
    backend: 'salvium',
    description: 'real Salvium',
    version: tagOf("Salvium 'One' (v1.1.3c-bcd1c3b84, based on Monero 0.18.4.0-release)"),
    difficulty: 500,
    timeouts: { test: 274_000, hook: 334_000 },
    setupApplied: true,
    configured: { test: 5_000, hook: 10_000 },
  };

  it('names the backend, its version, the difficulty, the timeouts and the variable that picks another', () => {
    expect(backendLine(real)).toBe(
      'saltnet: testing on real Salvium v1.1.3c at difficulty 500; tests may take 274 s, hooks 334 s (set SALTNET_BACKEND=sim for the simulator)',
    );
    expect(
      backendLine({
        ...real,
        backend: 'sim',
        description: 'the built-in simulator',
        version: undefined,
        timeouts: { test: 60_000, hook: 120_000 },
      }),
    ).toBe(
      'saltnet: testing on the built-in simulator at difficulty 500; tests may take 60 s, hooks 120 s (set SALTNET_BACKEND=salvium for real Salvium)',
    );
  });

  it("without the setup file, says that vitest's shorter timeout applies and what to add", () => {
    expect(backendLine({ ...real, setupApplied: false })).toBe(
      "saltnet: testing on real Salvium v1.1.3c at difficulty 500; tests need up to 274 s but vitest's testTimeout 5 s applies: add setupFiles: ['saltnet/vitest/setup'] to vitest.config (set SALTNET_BACKEND=sim for the simulator)",
    );
    expect(backendLine({ ...real, setupApplied: false, configured: { test: 600_000, hook: 10_000 } })).toContain(
      "hooks need up to 334 s but vitest's hookTimeout 10 s applies: add setupFiles",
    );
    // vitest's own are long enough: nothing to add
    expect(backendLine({ ...real, setupApplied: false, configured: { test: 0, hook: 600_000 } })).toContain(
      'tests may take 274 s, hooks 334 s',
    );
  });

  it('knows saltnet/vitest/setup among the resolved setup files', () => {
    // this module's own folder (here the sources: built, dist/harness/vitest/setup.js)
    expect(hasSaltnetSetup([join(ROOT, 'harness/vitest/setup.ts')])).toBe(true);
    expect(hasSaltnetSetup([join(ROOT, 'harness/vitest/index.ts')])).toBe(false);
    expect(hasSaltnetSetup([join(ROOT, 'test/setup/build.ts')])).toBe(false);
    expect(hasSaltnetSetup(undefined)).toBe(false);
  });
});
