// vitest globalSetup (`saltnet/vitest/global-setup`): one testnet per vitest run, started in
// vitest's main process before any test file, handed to the workers as a plain JSON context
// (project.provide('saltnet', …), read with inject('saltnet')), and stopped by the teardown.
//
// The options are the team's: built-in defaults < saltnet.config.* (searched from the vitest root
// upwards, or SALTNET_CONFIG) < environment (SALTNET_BACKEND, SALTNET_BIN_DIR, SALTNET_CACHE_DIR,
// SALTNET_TIMEOUT_FACTOR) < options given in code to saltnetGlobalSetup(). The config's `workdir`
// is not used: a test run gets a fresh temporary folder (pass `workdir` in code to keep one).
//
// Timeouts: the context carries the test and hook timeouts the backend and difficulty need (never
// below vitest's configured ones; timeouts.ts), which the setup file saltnet/vitest/setup applies to
// every test file; the run's one `saltnet: testing on …` line says them, and how to pick another
// backend, or what to add when vitest's are shorter and the setup file is missing.
//
// Signals: the testnet's supervisor keeps its default, trapSignals: true. That is the safe choice
// in vitest's main process, and trapSignals: false is not, because of how the listeners interact:
// - vitest's logger listens with process.once('SIGINT'/'SIGTERM'), sets the exit code and calls
//   process.exit() a millisecond later (no teardown runs). proper-lockfile (the snapshot lock)
//   loads signal-exit, whose SIGINT/SIGTERM/SIGHUP listener re-raises the signal when it finds
//   itself the only listener left, and after vitest's `once` listener has run, it is. So with
//   trapSignals: false a Ctrl-C kills vitest by the signal itself: no 'exit' event, the
//   supervisor's exit hook never runs, the processes are left to the reaper (after vitest is gone)
//   and the workdir stays. With the trap listening, signal-exit stands back, vitest's
//   process.exit() happens, and the supervisor's 'exit' hook SIGKILLs every process group
//   synchronously before vitest's process ends (the trap's own graceful stop has no time to).
// - SIGHUP (the terminal closed), which vitest does not handle: the trap stops the testnet
//   gracefully, then exits.
// - SIGKILL / OOM of vitest: nothing runs in-process; the run's reaper (a detached watchdog) reaps.
// The trap also listens for uncaughtException/unhandledRejection: in vitest's main process that
// only stops the testnet before the exit the error causes anyway. Test workers are another
// matter: there vitest reports unhandled errors only while its listener is the sole one, so the
// wallet RPCs workers start never trap (see fresh-wallet.ts).
// test/vitest/vitest.test.ts sends these signals to a real vitest run and checks nothing is left.
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { resolveConfig } from '../config/resolve.js';
import type { ConfigValues } from '../config/schema.js';
import { testnetOptionsOf } from '../config/testnet.js';
import type { TestnetOptions } from '../testnet/testnet.js';
import { startControlServer } from '../control/server.js';
import { endMetrics } from '../metrics/metrics.js';
import { resolveCacheDir } from '../common/cache-dir.js';
import { contextOf } from './context.js';
import { mainPool } from './pool.js';
import { startWithFresh, type FreshWalletsOption } from './funded.js';
import { atLeast, backendLine, fittedTimeouts, hasSaltnetSetup } from './timeouts.js';
import { tagOf } from '../install/checks.js';
import { binaryVersion } from '../testnet/programs/binaries.js';

export type { SaltnetContext } from './context.js';

export interface SaltnetGlobalSetupOptions extends Omit<TestnetOptions, 'trapSignals'> {
  /** Read this config file (default: saltnet.config.* searched from the vitest root upwards, or $SALTNET_CONFIG). */
  config?: string;
  /**
   * The pool that `useTestnet` / `acquireTestnet` draw from: at most this many of its testnets live at once, those in
   * use and the one started ahead (default: the config's run.pool, else as many as memory and cores allow).
   */
  pool?: number;
  /**
   * Fresh wallets kept funded ahead (default: the config's freshWallets): above difficulty 1, `freshWallet({ unlocked
   * })` of one of these amounts takes one of them, already funded and unlocked, and mines nothing.
   */
  freshWallets?: FreshWalletsOption[];
}

/** The testnet options: the resolved configuration under the options given in code (config/testnet.ts). */
export function testnetOptionsFrom(v: ConfigValues, code: SaltnetGlobalSetupOptions = {}): TestnetOptions {
  const { config: _config, pool: _pool, freshWallets: _fresh, ...given } = code;
  return {
    // vitest owns the terminal: progress as the few `saltnet:` lines only, no bar.
    progress: 'none',
    // The config's workdir is not used: a test run gets a fresh temporary folder (pass one in code to keep one).
    ...testnetOptionsOf({ ...v, workdir: undefined }, given),
    // See the header: the safe choice in vitest's main process.
    trapSignals: true,
  };
}

/**
 * A globalSetup function with options given in code: `export default saltnetGlobalSetup({ height: 100 })` in a file of
 * your own.
 */
export function saltnetGlobalSetup(
  options: SaltnetGlobalSetupOptions = {},
): (project: TestProject) => Promise<() => Promise<void>> {
  return async (project) => {
    const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    const cfg = await resolveConfig({
      cwd: project.config.root,
      env: process.env,
      ...(options.config ? { argv: { config: options.config } } : {}),
    });
    if (cfg.file) log(`saltnet: options from ${cfg.file}`);
    for (const n of cfg.notices) log(`saltnet: ${n}`);
    const opts = { ...testnetOptionsFrom(cfg.values, options), log };
    const { t, funded, pooled } = await startWithFresh(opts, options.freshWallets ?? cfg.values.freshWallets, log);
    // vitest's exit on Ctrl-C (see the header) leaves no time for the testnet's own cleanup: the
    // supervisor's 'exit' hook (installed first, so it runs first) SIGKILLs the processes, and this
    // one removes the temporary workdir the testnet would have removed on a clean stop.
    const removeWorkdir = (): void => rmSync(t.workdir, { recursive: true, force: true, maxRetries: 3 });
    if (opts.workdir === undefined) process.on('exit', removeWorkdir);
    // The workers ask this process for what only the testnet's owner does: automine and the faucet.
    const cacheDir = t.snapshot.cacheDir ?? resolveCacheDir(opts.cacheDir ? { cacheDir: opts.cacheDir } : {});
    // Testnets of a file's own (useTestnet): the same options, each in a fresh temporary folder, on the same state with
    // the fresh wallets funded ahead when the setup was restored with them.
    const poolMax = options.pool ?? cfg.values.run.pool;
    const pool = mainPool({
      options: { ...opts, workdir: undefined, backend: t.backend.spec.name, cacheDir },
      cacheDir,
      timeoutFactor: opts.timeoutFactor ?? 1,
      log,
      spec: t.backend.spec,
      ...(poolMax ? { max: poolMax } : {}),
      ...(pooled ? { fresh: pooled } : {}),
    });
    const control = await startControlServer(t, cacheDir, pool.routes);
    const timeoutFactor = opts.timeoutFactor ?? 1;
    const spec = t.backend.spec;
    const configured = { test: project.config.testTimeout, hook: project.config.hookTimeout };
    const timeouts = atLeast(
      configured,
      fittedTimeouts({ backend: spec.name, difficulty: t.mining.difficulty, timeoutFactor }),
    );
    const ctx = contextOf(t, timeoutFactor, control.info, funded, timeouts);
    project.provide('saltnet', ctx);
    // Once per run, on stderr: which testnet the tests run on, how long they may take, and how to pick another.
    const version = spec.bundledBinDir ? undefined : tagOf(await binaryVersion(t.backend.paths.daemon).catch(() => ''));
    log(
      backendLine({
        backend: spec.name,
        description: spec.description,
        version,
        difficulty: t.mining.difficulty,
        timeouts,
        setupApplied: hasSaltnetSetup(project.config.setupFiles),
        configured,
      }),
    );
    log(
      `saltnet: testnet ready for the tests: daemon ${ctx.daemonUrl}, wallet ${ctx.wallet.url}, height ${ctx.height}, snapshot ${ctx.snapshot.status}`,
    );
    return async () => {
      process.off('exit', removeWorkdir);
      await control.close();
      await pool.close();
      await endMetrics(t);
      await t.stop();
    };
  };
}

/** The globalSetup with the team's configuration and no options in code. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  return saltnetGlobalSetup()(project);
}
