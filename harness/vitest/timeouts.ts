// The test and hook timeouts a vitest run against a testnet needs, from its backend and difficulty,
// and the one line that says which testnet the tests run on. vitest's own defaults (5 s per test,
// 10 s per hook) fit the simulator's instant blocks only when nothing waits for a block; on real
// Salvium a block at the default difficulty 500 takes seconds, a funding waits for eleven of them,
// and the first one after the setup waits for the RandomX dataset: minutes, not seconds. The global
// setup puts the timeouts in the context; the setup file (saltnet/vitest/setup) applies them to
// every test file with vi.setConfig.
import { realpathSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BackendName } from '../coin/backends.js';
import { KEY_TABLE } from '../config/schema.js';

/** Milliseconds; 0 is vitest's "no timeout". */
export interface VitestTimeouts {
  test: number;
  hook: number;
}

/** The simulator mines as fast as it is asked (its default pace): a test waits on programs, not on blocks. */
const SIM: VitestTimeouts = { test: 60_000, hook: 120_000 };
/** Real programs: starting, opening and refreshing wallets, and the RandomX dataset the first mining waits for. */
const REAL_BASE: VitestTimeouts = { test: 120_000, hook: 180_000 };
/** Hashes per second of one light-mode mining thread of v1.1.3c (measured; the sim's `realistic` pace uses it too). */
const REAL_HASHRATE = 196;
/** The blocks one test or hook may wait for: two fundings (eleven blocks each) and a few more, with room to spare. */
const BLOCKS = 60;

export interface TimeoutInputs {
  backend: BackendName;
  /** The difficulty the daemon serves (the context's mining.difficulty). */
  difficulty: number;
  timeoutFactor: number;
}

/** The timeouts the backend and difficulty need, times the timeout factor. */
export function fittedTimeouts(o: TimeoutInputs): VitestTimeouts {
  const mining = o.backend === 'sim' ? 0 : (BLOCKS * o.difficulty * 1000) / REAL_HASHRATE;
  const base = o.backend === 'sim' ? SIM : REAL_BASE;
  const scale = (ms: number): number => Math.ceil((ms * o.timeoutFactor) / 1000) * 1000;
  return { test: scale(base.test + mining), hook: scale(base.hook + mining) };
}

/** Each of vitest's configured timeouts, raised to the fitted one (a longer one, or 0: none, is kept). */
export function atLeast(configured: Partial<VitestTimeouts>, fitted: VitestTimeouts): VitestTimeouts {
  const pick = (c: number | undefined, f: number): number => (c === 0 ? 0 : Math.max(c ?? 0, f));
  return { test: pick(configured.test, fitted.test), hook: pick(configured.hook, fitted.hook) };
}

/** The variable that picks the backend, from the config table (SALTNET_BACKEND). */
const BACKEND_ENV = KEY_TABLE.find((r) => r.key === 'backend')!.env;

const seconds = (ms: number): string => (ms === 0 ? 'no limit' : `${Math.round(ms / 1000)} s`);

export interface BackendLineInputs {
  backend: BackendName;
  /** How the backend calls itself ("real Salvium", "the built-in simulator"). */
  description: string;
  version?: string | undefined;
  difficulty: number;
  timeouts: VitestTimeouts;
  /** vitest's setup files include saltnet/vitest/setup, which applies the timeouts. */
  setupApplied: boolean;
  /** vitest's configured timeouts, said when they are shorter and the setup file is missing. */
  configured: Partial<VitestTimeouts>;
}

/**
 * The one line a run prints: which testnet, how long a test may take, and how to pick another backend (and, when
 * the setup file that applies the timeouts is missing and vitest's are shorter, how to add it).
 */
export function backendLine(o: BackendLineInputs): string {
  const on = `${o.description}${o.version ? ` ${o.version}` : ''} at difficulty ${o.difficulty}`;
  const other = o.backend === 'sim' ? 'salvium for real Salvium' : 'sim for the simulator';
  const tooShort = (c: number | undefined, need: number): boolean => c !== undefined && c !== 0 && c < need;
  const short = tooShort(o.configured.test, o.timeouts.test)
    ? `tests need up to ${seconds(o.timeouts.test)} but vitest's testTimeout ${seconds(o.configured.test!)} applies`
    : tooShort(o.configured.hook, o.timeouts.hook)
      ? `hooks need up to ${seconds(o.timeouts.hook)} but vitest's hookTimeout ${seconds(o.configured.hook!)} applies`
      : undefined;
  const limits =
    o.setupApplied || !short
      ? `tests may take ${seconds(o.timeouts.test)}, hooks ${seconds(o.timeouts.hook)}`
      : `${short}: add setupFiles: ['saltnet/vitest/setup'] to vitest.config`;
  return `saltnet: testing on ${on}; ${limits} (set ${BACKEND_ENV}=${other})`;
}

/** This module's folder, where saltnet/vitest/setup is (setup.js built, setup.ts in the sources). */
const HERE = dirname(fileURLToPath(import.meta.url));

/** Whether one of vitest's resolved setup files is saltnet/vitest/setup (symbolic links followed). */
export function hasSaltnetSetup(setupFiles: readonly string[] | undefined): boolean {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const ours = real(HERE);
  return (setupFiles ?? []).some((f) => {
    const r = real(f);
    return dirname(r) === ours && /^setup\.[cm]?[jt]s$/.test(basename(r));
  });
}
