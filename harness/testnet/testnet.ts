// `up`: one call gives a private testnet with a funded wallet — daemon ready, wallets restored
// from fixed seeds, mined to the target height, wallet RPC ready, funds unlocked — and every
// process it started is gone when it stops (or when the harness dies: see harness/process).
//
// The testnet is built from programs (harness/testnet/program.ts): the daemon and one wallet RPC
// per wallet, each with one definition and the same lifecycle. A program that crashes at any phase
// is reported and started again on the same data and endpoint (three times per run by default).
//
// The chain state comes from the cache when it can (harness/snapshot): a hit restores the daemon
// data dir and wallet files in well under a second; a miss builds the state (blocks that only raise
// the height go to a miner wallet, only the blocks the funds need to the main wallet), stops the
// processes cleanly, saves the snapshot, and starts them again.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProcessExitedError } from '../process/errors.js';
import { reapStale } from '../process/registry.js';
import { createSupervisor, type Supervisor } from '../process/supervisor.js';
import { scaled, setTimeoutFactor } from '../process/timeouts.js';
import { createDaemonClient, type DaemonClient } from '../rpc/daemon.js';
import type { ConnectionProblem, Credentials } from '../rpc/http.js';
import type { WalletClient } from '../rpc/wallet.js';
import { cacheDir as resolveCacheDir } from '../snapshot/cache-dir.js';
import type { Manifest } from '../snapshot/manifest.js';
import type { BackendName } from './backends.js';
import { binaryVersion, resolveBackend, type ResolvedBackend } from './binaries.js';
import { chainSpecFor, saveChain, stateDirs, type ChainSpec } from './chain-cache.js';
import { checkpointState, revertState } from './checkpoint.js';
import { defineDaemon, type DaemonHandle } from './daemon.js';
import { mineChain, mineForWallet, topUp, type MineForOptions } from './funding.js';
import { addressAt, mineTo, type MiningAddresses } from './mining.js';
import { Program, type CrashReport, type ProgramOptions } from './program.js';
import { createProgress, progressMode, type ProgressMode } from './progress.js';
import { generateSecret } from './secrets.js';
import { chooseState, type SnapshotInfo } from './state.js';
import { readAddresses, restoreWithCli, restoreWithRpc, writeAddresses, type WalletAddresses } from './wallet-setup.js';
import { WalletSet, type WalletHandle } from './wallets.js';

export type { SnapshotInfo } from './state.js';
export type { WalletHandle } from './wallets.js';
export type { CrashReport } from './program.js';
// Kept here too: scenario steps and tests import it with the testnet (it lives in mining.ts, which funding.ts can import without a cycle).
export { addressAt } from './mining.js';

export interface TestnetOptions {
  backend?: BackendName | 'auto';
  binDir?: string;
  difficulty?: number;
  /** Target height (block count); default: the backend's (1201 on Salvium: tokens active). */
  height?: number;
  /** Unlocked amount (atomic units) of the backend's asset the main wallet must hold; 0n for none. */
  unlocked?: bigint;
  /** Where data dirs, wallets and logs go (kept); default: a fresh temporary folder (removed on a clean stop). */
  workdir?: string;
  login?: 'none' | 'digest';
  /** Restore the wallets with the wallet CLI (default) or through the wallet RPC's restore_deterministic_wallet. */
  walletCreation?: 'cli' | 'rpc';
  timeoutFactor?: number;
  progress?: 'auto' | ProgressMode;
  /** Human-readable progress lines (default: stderr). */
  log?: (line: string) => void;
  /** Stop everything on SIGINT/SIGTERM (default true). */
  trapSignals?: boolean;
  threads?: number;
  /** Extra environment for the daemon (e.g. the simulator's knobs). */
  daemonEnv?: Record<string, string>;
  /** Use the chain-state cache (default true): restore on a hit; on a miss build, then save. */
  snapshots?: boolean;
  /** The cache folder (default: $SALTNET_CACHE_DIR, $XDG_CACHE_HOME/saltnet, ~/.cache/saltnet). */
  cacheDir?: string;
  /** Start from this snapshot of the cache (e.g. one imported with `saltnet snapshot load`) instead of the one the options describe. */
  snapshotKey?: string;
  /** Restarts after crashes, per program (default 3); one crash more fails the testnet. */
  maxRestarts?: number;
}

export interface Testnet {
  readonly backend: ResolvedBackend;
  readonly workdir: string;
  readonly runId: string;
  readonly supervisor: Supervisor;
  readonly daemon: {
    url: string; client: DaemonClient; readonly pid: number; dataDir: string; logFile: string; ports: { rpc: number; zmq: number; p2p: number };
    /** For daemon clients of your own: wait out a crash and repeat what is safe to repeat. */
    recover: (p: ConnectionProblem) => Promise<boolean>;
  };
  readonly wallet: WalletHandle & {
    /** The address transfers should go to on this chain now (Carrot from HF10 on Salvium). */
    address: string;
  };
  /** The wallet that receives the blocks mined only for height (no process serves it). */
  readonly miner: { addresses: MiningAddresses };
  readonly snapshot: SnapshotInfo;
  /** Milliseconds spent in each phase of `up`. */
  readonly phases: Record<string, number>;
  readonly height: number;
  /** Every crash of a program of this testnet so far (each restarted, or the one that failed it). */
  crashes(): CrashReport[];
  /** Mine to a height (CN/Carrot switch handled); the blocks go to the miner wallet. */
  mine(target: number): Promise<number>;
  /** Create another wallet (through a wallet RPC serving the wallets folder) or reopen it on a reused workdir. */
  addWallet(name: string): Promise<WalletHandle>;
  /** Every wallet by name, `main` first. */
  wallets(): Map<string, WalletHandle>;
  /** Stop an added wallet's RPC for good (the wallet is stored; its files stay) and forget it. */
  removeWallet(name: string): Promise<void>;
  /** Stop a process gracefully and start it again on the same ports (wallets: the same credentials). */
  restart(target: 'daemon' | 'wallet', walletName?: string): Promise<void>;
  /** Checkpoint the whole testnet (chain and every wallet) under a name: processes stop cleanly, the state is copied, they start again on the same endpoints. */
  checkpoint(name: string): Promise<void>;
  /** Roll the whole testnet back to a checkpoint (as often as wanted); endpoints stay the same. */
  revert(name: string): Promise<void>;
  /** Names of the checkpoints taken so far. */
  checkpoints(): string[];
  /** Save the current state as a snapshot in the cache (processes stop and start again); returns its manifest. */
  saveSnapshot(key: string): Promise<Manifest>;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The wallet password lives in the wallets folder (mode 0600), so the same workdir or snapshot can be brought up again. */
function walletPassword(workdir: string): string {
  const file = join(workdir, 'wallets', '.password');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const pw = generateSecret();
  writeFileSync(file, pw, { mode: 0o600 });
  return pw;
}

const nonEmpty = (dir: string): boolean => existsSync(dir) && readdirSync(dir).length > 0;

/** What one `up` shares between its phases. */
interface Run {
  opts: TestnetOptions;
  log: (line: string) => void;
  backend: ResolvedBackend;
  chain: ChainSpec;
  workdir: string;
  dirs: { daemon: string; wallets: string };
  hadState: boolean;
  sup: Supervisor;
  aborter: AbortController;
  phases: Record<string, number>;
  /** What the testnet is doing now, for crash reports. */
  activity: string;
  programs: ProgramOptions;
  setKeepWorkdir(keep: boolean): void;
}

async function phase<T>(run: Run, name: string, fn: () => Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await fn();
  } finally {
    run.phases[name] = (run.phases[name] ?? 0) + Date.now() - t0;
  }
}

async function openRun(opts: TestnetOptions): Promise<Run> {
  if (opts.timeoutFactor) setTimeoutFactor(opts.timeoutFactor);
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const backend = resolveBackend(opts.backend ?? 'auto', opts.binDir);
  log(`saltnet: ${backend.reason}`);
  // Before anything is started: a broken fixture wallet file fails here, with nothing to clean up.
  const chain = chainSpecFor(backend, opts);
  // Whatever an earlier run left when it was killed goes first.
  for (const r of await reapStale()) log(`saltnet: reaped stale run ${r.runId} (its owner had died)`);
  const ownWorkdir = opts.workdir === undefined;
  const workdir = resolve(opts.workdir ?? join(tmpdir(), `saltnet-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`));
  const dirs = stateDirs(workdir);
  const hadState = nonEmpty(dirs.daemon) || nonEmpty(dirs.wallets);
  for (const d of ['logs', 'wallets']) mkdirSync(join(workdir, d), { recursive: true });
  // A temporary workdir goes with the testnet on every clean stop (Ctrl-C included); it stays when startup failed, for its logs.
  let keepWorkdir = !ownWorkdir;
  const sup = createSupervisor({
    workdir,
    trapSignals: opts.trapSignals ?? true,
    afterStop: () => {
      if (!keepWorkdir) rmSync(workdir, { recursive: true, force: true });
    },
  });
  const aborter = new AbortController();
  const run: Run = {
    opts, log, backend, chain, workdir, dirs, hadState, sup, aborter, phases: {}, activity: 'while the testnet was starting',
    programs: {
      log,
      phase: () => run.activity,
      ...(opts.maxRestarts !== undefined ? { maxRestarts: opts.maxRestarts } : {}),
      onFatal: (err: ProcessExitedError) => {
        if (!aborter.signal.aborted) aborter.abort(err);
        log(`saltnet: the testnet cannot go on: ${err.message.split('\n')[0]}`);
      },
    },
    setKeepWorkdir: (keep) => (keepWorkdir = keep),
  };
  return run;
}

interface Daemon {
  program: Program<DaemonHandle>;
  client: DaemonClient;
}

async function startDaemonProgram(run: Run): Promise<Daemon> {
  const o = run.opts;
  // Readiness deadlines are scaled by --timeout-factor where they are awaited: pass them unscaled.
  const def = defineDaemon(run.sup, run.backend, { workdir: run.workdir, difficulty: run.chain.difficulty, timeoutMs: 60_000, ...(o.daemonEnv ? { env: o.daemonEnv } : {}) });
  const program = new Program(def, run.programs);
  const h = await phase(run, 'daemonReady', () => program.start());
  run.log(`saltnet: daemon ready at ${h.url} (pid ${h.proc.pid})`);
  return { program, client: createDaemonClient(h.url, { timeoutMs: 30_000, recover: program.recover }) };
}

function mineOptions(run: Run): Omit<MineForOptions, 'miner' | 'main' | 'target' | 'need'> {
  // Mining deadlines are not scaled where they are awaited: scale them here.
  return { spec: run.backend.spec, timeoutMs: scaled(3_600_000), signal: run.aborter.signal, ...(run.opts.threads ? { threads: run.opts.threads } : {}) };
}

/**
 * The wallets and the chain. Cold (wallets restored with the CLI): mine to the target first, with
 * no wallet RPC running (none is needed, and a real one scanning while blocks arrive is where
 * Salvium's wallet crashed), then start the main wallet's RPC and wait for its funds. Otherwise the
 * wallet RPC comes first (it restores the wallets, or finds the funds a reused state holds).
 */
async function buildChain(run: Run, daemon: Daemon, wallets: WalletSet, password: string): Promise<{ main: WalletHandle; addresses: WalletAddresses }> {
  const { dirs, chain } = run;
  const seeds = { miner: chain.seeds[0]!, main: chain.seeds[1]! };
  const addresses = readAddresses(dirs.wallets);
  const fresh = !existsSync(join(dirs.wallets, 'main.keys'));
  const viaRpc = run.opts.walletCreation === 'rpc';
  const daemonUrl = daemon.program.current.url;
  const funds = { target: chain.height, need: chain.unlocked, asset: chain.asset };
  const start = await daemon.client.height();
  const progress = start < chain.height ? createProgress('mining', start, chain.height, progressMode(run.opts.progress), run.log) : undefined;
  const mining = (main: MiningAddresses): MineForOptions => ({ ...mineOptions(run), ...funds, miner: addresses.miner ?? main, main, ...(progress ? { progress } : {}) });
  let main: WalletHandle;
  run.activity = 'while building the chain';
  if (fresh && !viaRpc) {
    await phase(run, 'walletCreated', async () => {
      const cli = { walletsDir: dirs.wallets, password, daemonUrl, workdir: run.workdir, timeoutMs: 120_000 };
      addresses.miner = await restoreWithCli(run.sup, run.backend, { ...cli, name: 'miner', seed: seeds.miner });
      addresses.main = await restoreWithCli(run.sup, run.backend, { ...cli, name: 'main', seed: seeds.main });
    });
    const plan = await phase(run, 'mined', () => mineChain(daemon.client, mining(addresses.main!)));
    main = await phase(run, 'walletRpcReady', () => wallets.start('main', { dirMode: false }));
    const extra = await phase(run, 'funded', () => topUp(daemon.client, main.client, mining(addresses.main!)));
    if (start < chain.height) run.log(`saltnet: mined ${plan.height + extra - start} blocks, ${plan.plan.fundBlocks + extra} of them to the main wallet`);
  } else {
    main = await phase(run, 'walletRpcReady', () =>
      wallets.start('main', {
        dirMode: viaRpc,
        prepare: viaRpc
          ? async (c: WalletClient) => {
              if (!fresh) return void (await c.call('open_wallet', { filename: 'main', password }));
              addresses.miner = await restoreWithRpc(c, { name: 'miner', seed: seeds.miner, password });
              await c.call('close_wallet', {});
              addresses.main = await restoreWithRpc(c, { name: 'main', seed: seeds.main, password });
            }
          : undefined,
      }),
    );
    const r = await phase(run, 'mined', () => mineForWallet(daemon.client, main.client, mining(main.addresses)));
    if (start < chain.height) run.log(`saltnet: mined ${r.height - start} blocks, ${r.plan.fundBlocks + r.extraBlocks} of them to the main wallet`);
  }
  if (addresses.main && addresses.main.cn !== main.addresses.cn) throw new Error(`the wallet RPC opened ${main.addresses.cn}, but the main wallet is ${addresses.main.cn}`);
  addresses.main = main.addresses;
  writeAddresses(dirs.wallets, addresses);
  return { main, addresses };
}

export async function startTestnet(opts: TestnetOptions = {}): Promise<Testnet> {
  const run = await openRun(opts);
  let releaseLock: (() => Promise<void>) | undefined;
  const closers: (() => Promise<void>)[] = [];
  try {
    const choice = await phase(run, 'snapshotRestore', () =>
      chooseState({ backend: run.backend, chain: run.chain, workdir: run.workdir, hadState: run.hadState, signal: run.aborter.signal, log: run.log, ...pick(opts, 'snapshots', 'cacheDir', 'snapshotKey') }),
    );
    releaseLock = choice.releaseLock;
    const daemon = await startDaemonProgram(run);
    closers.push(() => daemon.client.close());
    const password = walletPassword(run.workdir);
    const wallets = new WalletSet({
      sup: run.sup, backend: run.backend, walletsDir: run.dirs.wallets, workdir: run.workdir, password, daemonUrl: daemon.program.current.url, login: opts.login ?? 'none', programs: run.programs,
    });
    closers.push(() => wallets.closeClients());
    const { main, addresses } = await buildChain(run, daemon, wallets, password);
    const writeLogin = (): void => {
      if (main.credentials) writeFileSync(join(run.dirs.wallets, '.rpc-login'), `${main.credentials.username}:${main.credentials.password}`, { mode: 0o600 });
    };
    writeLogin();
    const minerAddresses = addresses.miner ?? main.addresses;
    run.sup.setInfo({ daemon: daemon.program.current.url, wallet: main.url, addresses: main.addresses, minerAddresses, backend: run.backend.spec.name, workdir: run.workdir });
    run.log(`saltnet: wallet ${main.file} ready at ${main.url}: ${main.addresses.cn}${main.addresses.carrot ? ` / ${main.addresses.carrot}` : ''}`);
    const t = assemble(run, { daemon, wallets, main, addresses, minerAddresses, writeLogin, snapshot: choice.snapshot });
    // A state built here goes into the cache (a failed save only costs the next run time).
    await t.saveBuilt();
    await releaseLock?.();
    releaseLock = undefined;
    run.activity = 'while the testnet was up';
    return t.finish(await daemon.client.height());
  } catch (err) {
    // A dead process shows up first as a refused connection; its exit (code or signal, log tail)
    // is the better answer, and it arrives within moments.
    if (!run.aborter.signal.aborted) await Promise.race([once(run.aborter.signal, 'abort'), sleep(1000)]);
    const reason: unknown = run.aborter.signal.aborted ? run.aborter.signal.reason : err;
    run.setKeepWorkdir(true);
    for (const c of closers) await c().catch(() => undefined);
    await releaseLock?.();
    await run.sup.stopAll();
    run.log(`saltnet: up failed; logs kept in ${join(run.workdir, 'logs')}`);
    throw reason;
  }
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

interface Parts {
  daemon: Daemon;
  wallets: WalletSet;
  main: WalletHandle;
  addresses: WalletAddresses;
  minerAddresses: MiningAddresses;
  writeLogin: () => void;
  snapshot: SnapshotInfo;
}

/** The Testnet object over the running programs: processes stopped and started together for saves, checkpoints and reverts. */
function assemble(run: Run, p: Parts): { saveBuilt(): Promise<void>; finish(height: number): Testnet } {
  const { daemon, wallets, main } = p;
  let snapshot = p.snapshot;
  /** Every process stopped cleanly (wallets stored first): the state on disk is whole. */
  const stopProcesses = async (): Promise<void> => {
    await wallets.stopAll();
    await daemon.program.stop();
  };
  const startProcesses = async (): Promise<void> => {
    await daemon.program.start();
    await wallets.startAll();
    p.writeLogin();
  };
  /** Stop everything, do `fn` on the stopped state, start everything again (also when fn fails). */
  const whileStopped = async <T>(fn: () => Promise<T>): Promise<T> => {
    await stopProcesses();
    try {
      return await fn();
    } finally {
      await startProcesses();
    }
  };
  const saveState = async (cdir: string, key: string): Promise<Manifest> => {
    const height = await daemon.client.height();
    const version = await binaryVersion(run.backend.paths.daemon).catch(() => undefined);
    return whileStopped(async () =>
      saveChain(cdir, key, run.workdir, {
        be: run.backend, ...(version ? { binaryVersion: version } : {}), difficulty: run.chain.difficulty, height,
        wallets: Object.entries(p.addresses).map(([name, a]) => ({ name, addresses: a })),
        extra: { unlocked: `${run.chain.unlocked} ${run.chain.asset}`, target: run.chain.height },
      }),
    );
  };
  const saveBuilt = async (): Promise<void> => {
    if ((snapshot.status !== 'built' && snapshot.status !== 'rebuilt') || !snapshot.key || !snapshot.cacheDir) return;
    const { key, cacheDir } = snapshot;
    await phase(run, 'snapshotSave', async () => {
      try {
        const m = await saveState(cacheDir, key);
        run.log(`saltnet: saved snapshot ${key} (${m.files.length} files, ${(m.files.reduce((n, f) => n + f.size, 0) / 2 ** 20).toFixed(1)} MiB); the next run starts from it`);
      } catch (err) {
        snapshot = { ...snapshot, saveError: err instanceof Error ? err.message : String(err) };
        run.log(`saltnet: could not save snapshot ${key}: ${snapshot.saveError}`);
      }
    });
  };
  const taken = new Set<string>();
  const finish = (height: number): Testnet => {
    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      await wallets.closeClients();
      await daemon.client.close().catch(() => undefined);
      await run.sup.stopAll();
    };
    const d = daemon.program;
    return {
      backend: run.backend,
      workdir: run.workdir,
      runId: run.sup.runId,
      supervisor: run.sup,
      daemon: {
        url: d.current.url, client: daemon.client, dataDir: d.current.dataDir, logFile: d.current.logFile, ports: d.current.ports, recover: d.recover,
        get pid() {
          return d.current.proc.pid;
        },
      },
      wallet: Object.defineProperty({ ...main, address: addressAt(run.backend.spec, main.addresses, height) }, 'pid', { get: () => main.pid, enumerable: true }) as Testnet['wallet'],
      miner: { addresses: p.minerAddresses },
      get snapshot() {
        return snapshot;
      },
      phases: run.phases,
      height,
      crashes: () => [...d.crashes, ...wallets.crashes()],
      mine: async (target: number) => (await mineTo(daemon.client, target, { ...mineOptions(run), addresses: p.minerAddresses })).height,
      addWallet: (name: string) => wallets.add(name),
      wallets: () => wallets.handles(),
      removeWallet: (name: string) => wallets.remove(name),
      restart: async (what, walletName = 'main') => {
        if (what === 'daemon') await d.restart();
        else await wallets.restart(walletName);
      },
      checkpoint: (name: string) =>
        whileStopped(async () => {
          await checkpointState(run.workdir, name);
          taken.add(name);
        }),
      revert: async (name: string) => {
        if (!taken.has(name)) throw new Error(`no checkpoint named ${name}${taken.size ? `; this testnet has ${[...taken].join(', ')}` : ' (take one first)'}`);
        await whileStopped(() => revertState(run.workdir, name));
      },
      checkpoints: () => [...taken],
      saveSnapshot: (key: string) => saveState(resolveCacheDir(run.opts.cacheDir ? { cacheDir: run.opts.cacheDir } : {}), key),
      stop,
      [Symbol.asyncDispose]: stop,
    };
  };
  return { saveBuilt, finish };
}

