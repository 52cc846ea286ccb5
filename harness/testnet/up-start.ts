// The start of one `up`: the backend and chain chosen, stale runs reaped, the workdir made and
// locked (one testnet per workdir, workdir-guard.ts), the supervisor, and the Run its phases share.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { warmProbes } from '../process/probes.js';
import { reapStale } from '../process/registry.js';
import { newTempWorkdir } from '../process/workdir.js';
import { createSupervisor, type Supervisor } from '../process/supervisor.js';
import { setTimeoutFactor } from '../common/timeouts.js';
import { MAX_NODES, MAX_THREADS } from '../limits.js';
import { randomxMode, type BackendSpec } from '../coin/backends.js';
import { resolveBackend } from './programs/binaries.js';
import { chainSpecFor, stateDirs } from './chain/chain-cache.js';
import { runEvents } from './events.js';
import { NodeSet } from './programs/nodes.js';
import type { Mining, Run } from './up-phases.js';
import type { TestnetOptions } from './types.js';
import { makeWorkdir } from './workdir.js';
import { claimFixedPorts } from './programs/standard-ports.js';
import { cacheDir } from '../common/cache-dir.js';
import { loadRandomx } from '../randomx/library.js';
import { randomxDir } from '../randomx/dataset-files.js';
import { diskFull, guardWorkdir, selfDescription, type WorkdirGuard } from './workdir-guard.js';

const UP = 'while the testnet was up';

const nonEmpty = (dir: string): boolean => existsSync(dir) && readdirSync(dir).length > 0;

export async function openRun(opts: TestnetOptions): Promise<Run> {
  if (opts.timeoutFactor) setTimeoutFactor(opts.timeoutFactor);
  // The programs' readiness probes load beside the start (their thread has a quarter of a second of CPU to spend).
  warmProbes();
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const { backend, chain, build, serve } = chooseBackend(opts, log);
  const ports = await clearGround(opts, backend.spec, log);
  const ownWorkdir = opts.workdir === undefined;
  const workdir = resolve(opts.workdir ?? newTempWorkdir());
  opts.onWorkdir?.(workdir);
  const dirs = stateDirs(workdir);
  const hadState = nonEmpty(dirs.daemon) || nonEmpty(dirs.wallets);
  makeWorkdir(workdir, !ownWorkdir, ['logs', 'wallets']);
  // A temporary workdir goes with the testnet on every clean stop (Ctrl-C included); it stays when startup failed, for
  // its logs, and so does one whose programs crashed while it was up: the crash logs are what the user needs next.
  // The run record says whether to keep it, so that a reaper (saltnet itself killed) decides the same.
  const keepWorkdir = (): void => {
    if (ownWorkdir) sup.keepWorkdir(true);
  };
  let guard: WorkdirGuard | undefined;
  const sup = createSupervisor({
    workdir,
    tempWorkdir: ownWorkdir,
    trapSignals: opts.trapSignals ?? true,
    afterStop: () => {
      guard?.release();
      if (!ownWorkdir) return;
      if (!sup.record.keepWorkdir) rmSync(workdir, { recursive: true, force: true });
      else if (events.crashedAfterReady)
        log(
          `saltnet: a program crashed while the testnet was up: workdir kept in ${workdir} (logs in ${join(workdir, 'logs')})`,
        );
    },
  });
  sup.updateInfo({ holder: opts.holder ?? 'test' });
  const aborter = new AbortController();
  // Gone under the testnet: said, no program is started again (mayRestart), the testnet stops.
  guard = await guardRun(workdir, ownWorkdir, sup, (why) => {
    const message = `${why}: the testnet is stopped (saltnet never starts it again on an empty folder)`;
    log(`saltnet: ${message}`);
    events.handle({ event: 'workdir-gone', workdir, message, at: new Date().toISOString() });
    if (!aborter.signal.aborted) aborter.abort(new Error(message));
  });
  const events = runEvents(sup, {
    isUp: () => run.activity === UP,
    onCrashAfterReady: keepWorkdir,
  });
  const run: Run = {
    opts,
    log,
    detail: opts.detail ?? (() => undefined),
    backend,
    ...(ports ? { ports } : {}),
    chain,
    build,
    serve,
    mining: serve,
    workdir,
    dirs,
    hadState,
    sup,
    aborter,
    events,
    phases: {},
    progress: new Set(opts.onProgress ? [opts.onProgress] : []),
    activity: 'while the testnet was starting',
    programs: {
      log,
      onEvent: (e) => events.handle(e),
      phase: () => run.activity,
      ...(opts.maxRestarts !== undefined ? { maxRestarts: opts.maxRestarts } : {}),
      mayRestart: () => guard?.gone() ?? diskFull(workdir),
      onFatal: (err: Error) => {
        if (!aborter.signal.aborted) aborter.abort(err);
        log(`saltnet: the testnet cannot go on: ${err.message.split('\n')[0]}`);
      },
    },
    keepWorkdir,
    nodes: undefined as unknown as NodeSet,
  };
  run.nodes = nodeSetOf(run);
  return run;
}

/**
 * What is settled before a workdir is made: whatever an earlier run left when it was killed is reaped, a cache folder
 * that cannot be one is said (not found after a start made a workdir for nothing), and with `--ports standard` every
 * port is claimed (all free, or nothing starts).
 */
async function clearGround(
  opts: TestnetOptions,
  spec: Run['backend']['spec'],
  log: (line: string) => void,
): Promise<Run['ports']> {
  for (const r of await reapStale({ log })) log(`saltnet: reaped stale run ${r.runId} (its owner had died)`);
  if (opts.snapshots !== false) cacheDir(opts.cacheDir !== undefined ? { cacheDir: opts.cacheDir } : {});
  return claimFixedPorts(spec, opts.ports);
}

/** The workdir's lock (one testnet per workdir); when it cannot be had, what was started is stopped. */
async function guardRun(
  workdir: string,
  ownWorkdir: boolean,
  sup: Supervisor,
  onGone: (why: string) => void,
): Promise<WorkdirGuard> {
  try {
    return await guardWorkdir(workdir, {
      given: !ownWorkdir,
      runId: sup.runId,
      what: `the testnet of ${selfDescription()}`,
      onGone,
    });
  } catch (err) {
    await sup.stopAll();
    throw err;
  }
}

/** The backend and chain of a run and how it mines: chosen before anything is started (nothing to clean up). */
function chooseBackend(
  opts: TestnetOptions,
  log: (line: string) => void,
): Pick<Run, 'backend' | 'chain' | 'build' | 'serve'> {
  // An installed release is looked for in this testnet's cache too (saltnet install puts it there).
  const backend = resolveBackend(opts.backend ?? 'auto', opts.binDir, opts.cacheDir ? { cacheDir: opts.cacheDir } : {});
  log(`saltnet: ${backend.reason}`);
  // A broken fixture wallet file fails here.
  const chain = chainSpecFor(backend, opts);
  // A prefix mined at the served difficulty (`same`) is mined by saltnet's own miner too.
  const detail = opts.detail ?? (() => undefined);
  const build = withOwnMiner(backend.spec, opts, miningFor(backend.spec, opts, chain.prefixDifficulty), detail);
  const serve = withOwnMiner(backend.spec, opts, miningFor(backend.spec, opts, chain.difficulty), detail);
  return { backend, chain, build, serve };
}

/**
 * saltnet's own miner for the blocks after ready (MinerChoice): where librandomx loads, saltnet hashes them and the
 * daemon needs no dataset (light mode verifies a block in milliseconds); elsewhere the daemon's miner, as asked.
 * Difficulty 1 stays with the daemon's miner: a block is one hash, and the daemon builds blocks faster than a
 * template's round trip.
 */
function withOwnMiner(spec: BackendSpec, opts: TestnetOptions, serve: Mining, detail: (line: string) => void): Mining {
  const choice = opts.miner ?? 'auto';
  if (!spec.randomx) {
    if (choice === 'saltnet') throw new Error(`--miner saltnet: the ${spec.name} backend has no RandomX to mine with`);
    return serve;
  }
  if (choice === 'daemon' || (choice === 'auto' && serve.difficulty <= 1)) return { ...serve, miner: 'daemon' };
  const lib = loadRandomx();
  if ('missing' in lib) {
    if (choice === 'saltnet') throw new Error(`--miner saltnet: ${lib.missing}`);
    detail(`saltnet: the daemon's own miner mines: ${lib.missing}`);
    return { ...serve, miner: 'daemon' };
  }
  const dir = randomxDir(cacheDir(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}));
  return { ...serve, randomx: 'light', miner: 'saltnet', hasher: { lib, dir, choice: opts.randomx ?? 'auto' } };
}

/** The run's daemons: n0 and, with `nodes`, the others (each start takes the run's settings of the moment). */
function nodeSetOf(run: Run): NodeSet {
  return new NodeSet({
    sup: run.sup,
    backend: run.backend,
    workdir: run.workdir,
    count: nodeCount(run.opts.nodes),
    programs: run.programs,
    settings: () => run.mining,
    signal: run.aborter.signal,
    ...(run.opts.daemonEnv ? { env: run.opts.daemonEnv } : {}),
    ...(run.ports ? { firstPorts: run.ports.daemon } : {}),
  });
}

/** The number of nodes asked for (1 when not given), checked. */
function nodeCount(n: number | undefined): number {
  if (n === undefined) return 1;
  if (!Number.isInteger(n) || n < 1 || n > MAX_NODES)
    throw new Error(`nodes must be a whole number from 1 to ${MAX_NODES}, got ${String(n)}`);
  return n;
}

/**
 * How a daemon mines at this difficulty: RandomX full or light (`auto` by difficulty), all cores above difficulty 1
 * unless --threads says.
 */
export function miningFor(spec: BackendSpec, o: TestnetOptions, difficulty: number): Mining {
  const randomx = randomxMode(spec, o.randomx ?? 'auto', difficulty);
  return {
    difficulty,
    ...(randomx ? { randomx } : {}),
    threads: o.threads ?? (difficulty > 1 ? Math.min(availableParallelism(), MAX_THREADS) : 1),
  };
}
