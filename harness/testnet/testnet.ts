// `up`: one call gives a private testnet with a funded wallet — daemon ready, wallets restored
// from fixed seeds, wallet RPC ready, mined to the target height, funds unlocked — and every
// process it started is gone when it stops (or when the harness dies: see harness/process).
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
import { ProcessExitedError } from '../process/errors.js';
import type { ManagedProcess } from '../process/managed.js';
import { reapStale } from '../process/registry.js';
import { createSupervisor, type Supervisor } from '../process/supervisor.js';
import { scaled, setTimeoutFactor } from '../process/timeouts.js';
import type { DaemonClient } from '../rpc/daemon.js';
import type { Credentials } from '../rpc/http.js';
import type { WalletClient } from '../rpc/wallet.js';
import { cacheDir as resolveCacheDir } from '../snapshot/cache-dir.js';
import { acquireKeyLock } from '../snapshot/lock.js';
import type { Manifest } from '../snapshot/manifest.js';
import type { BackendName } from './backends.js';
import { binaryVersion, resolveBackend, type ResolvedBackend } from './binaries.js';
import { chainKey, chainSpecFor, restoreChain, saveChain, stateDirs } from './chain-cache.js';
import { checkpointState, revertState } from './checkpoint.js';
import { startDaemon, type DaemonHandle } from './daemon.js';
import { mineForWallet } from './funding.js';
import { addressAt, mineTo, type MiningAddresses } from './mining.js';
import { createProgress, progressMode, type ProgressMode } from './progress.js';
import { generateSecret } from './secrets.js';
import { readAddresses, restoreWithCli, restoreWithRpc, walletAddresses, writeAddresses } from './wallet-setup.js';
import { startWalletRpc, type WalletRpcHandle } from './wallet-rpc.js';

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
}

/** A wallet of the testnet: `main` (restored by up) or one added with addWallet. */
export interface WalletHandle {
  name: string;
  url: string;
  client: WalletClient;
  pid: number;
  file: string;
  addresses: MiningAddresses;
  credentials?: Credentials;
  logFile: string;
}

/** How the chain state of this testnet came about. */
export interface SnapshotInfo {
  /** hit: restored from the cache; built: a miss, built and saved; rebuilt: the cached one was corrupt; reused: the workdir had a state; off: no cache. */
  status: 'hit' | 'built' | 'rebuilt' | 'reused' | 'off';
  key?: string;
  cacheDir?: string;
  /** Why the save failed (the testnet is up all the same). */
  saveError?: string;
}

// Kept here too: scenario steps and tests import it with the testnet (it lives in mining.ts, which funding.ts can import without a cycle).
export { addressAt } from './mining.js';

export interface Testnet {
  readonly backend: ResolvedBackend;
  readonly workdir: string;
  readonly runId: string;
  readonly supervisor: Supervisor;
  readonly daemon: { url: string; client: DaemonClient; pid: number; dataDir: string; logFile: string; ports: { rpc: number; zmq: number; p2p: number } };
  readonly wallet: {
    url: string;
    client: WalletClient;
    pid: number;
    file: string;
    addresses: MiningAddresses;
    /** The address transfers should go to on this chain now (Carrot from HF10 on Salvium). */
    address: string;
    credentials?: Credentials;
    logFile: string;
  };
  /** The wallet that receives the blocks mined only for height (no process serves it). */
  readonly miner: { addresses: MiningAddresses };
  readonly snapshot: SnapshotInfo;
  /** Milliseconds spent in each phase of `up`. */
  readonly phases: Record<string, number>;
  readonly height: number;
  /** Mine to a height (CN/Carrot switch handled); the blocks go to the miner wallet. */
  mine(target: number): Promise<number>;
  /** Create another wallet (through a wallet RPC serving the wallets folder) or reopen it on a reused workdir. */
  addWallet(name: string): Promise<WalletHandle>;
  /** Every wallet by name, `main` first. */
  wallets(): Map<string, WalletHandle>;
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

interface WalletProc {
  proc: ManagedProcess;
  port: number;
  /** Served with --wallet-dir and opened with open_wallet (else --wallet-file). */
  dirMode: boolean;
}

export async function startTestnet(opts: TestnetOptions = {}): Promise<Testnet> {
  if (opts.timeoutFactor) setTimeoutFactor(opts.timeoutFactor);
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const backend = resolveBackend(opts.backend ?? 'auto', opts.binDir);
  log(`saltnet: ${backend.reason}`);
  // Before anything is started: a broken fixture wallet file fails here, with nothing to clean up.
  const chain = chainSpecFor(backend, opts);
  const { difficulty, height: target, unlocked: need, asset } = chain;
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
  // While a wallet RPC starts, its crashes are startWalletRpc's to report and retry.
  let walletRpcStarting = false;
  let up = false;
  const offUnexpected = sup.onUnexpectedExit((p, exit) => {
    if (walletRpcStarting && p.name.startsWith('wallet-rpc')) return;
    const during = up ? 'while the testnet was up' : 'while the testnet was starting';
    aborter.abort(new ProcessExitedError({ processName: p.name, exit, tail: p.tail(30), logFile: p.logFile, during }));
  });
  const phases: Record<string, number> = {};
  const phase = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const r = await fn();
    phases[name] = (phases[name] ?? 0) + Date.now() - t0;
    return r;
  };
  const spec = backend.spec;
  const mode = progressMode(opts.progress);
  const viaRpc = opts.walletCreation === 'rpc';
  const login = opts.login ?? 'none';
  let releaseLock: (() => Promise<void>) | undefined;
  try {
    const seeds = { miner: chain.seeds[0]!, main: chain.seeds[1]! };

    // 1. The chain state: reuse the workdir's, restore the cached one, or build it below.
    let snapshot: SnapshotInfo = { status: hadState ? 'reused' : 'off' };
    if (!hadState && (opts.snapshots !== false || opts.snapshotKey)) {
      const cdir = resolveCacheDir(opts.cacheDir ? { cacheDir: opts.cacheDir } : {});
      const key = opts.snapshotKey ?? (await chainKey(backend, chain));
      // One builder per key: another run building it now is waited for, then its snapshot is restored.
      if (!opts.snapshotKey) releaseLock = await acquireKeyLock(cdir, key, { signal: aborter.signal, onWait: () => log(`saltnet: another saltnet is building snapshot ${key}; waiting for it`) });
      const r = await phase('snapshotRestore', () => restoreChain(cdir, key, workdir));
      if ('manifest' in r) {
        snapshot = { status: 'hit', key, cacheDir: cdir };
        log(`saltnet: restored snapshot ${key} (height ${r.manifest.height}) in ${r.ms.toFixed(0)} ms`);
        await releaseLock?.();
        releaseLock = undefined;
      } else if (opts.snapshotKey) {
        throw new Error('corrupt' in r ? `snapshot ${key} is corrupt: ${r.corrupt}` : `no snapshot ${key} in ${cdir} (saltnet cache ls lists them)`);
      } else if ('corrupt' in r) {
        snapshot = { status: 'rebuilt', key, cacheDir: cdir };
        log(`saltnet: snapshot ${key} is corrupt (${r.corrupt}); ${r.movedTo ? `moved aside to ${r.movedTo}; ` : ''}building it again`);
      } else {
        snapshot = { status: 'built', key, cacheDir: cdir };
        log(`saltnet: no snapshot ${key} in ${cdir}: building it (once per machine)`);
      }
    }

    // 2. The daemon.
    // Readiness deadlines are scaled by --timeout-factor where they are awaited (waitUntilReady,
    // waitForText): pass them unscaled. Mining deadlines are not, so they are scaled here.
    const daemonOpts = { workdir, difficulty, timeoutMs: 60_000, ...(opts.daemonEnv ? { env: opts.daemonEnv } : {}) };
    const daemon: DaemonHandle = await phase('daemonReady', () => startDaemon(sup, backend, daemonOpts));
    let daemonProc = daemon.proc;
    log(`saltnet: daemon ready at ${daemon.url} (pid ${daemon.proc.pid})`);

    // 3. The wallets: restored from the fixture seeds on a cold start; else opened from the files.
    const file = join(dirs.wallets, 'main');
    const password = walletPassword(workdir);
    const fresh = !existsSync(`${file}.keys`);
    const addresses = readAddresses(dirs.wallets);
    const cliOpts = { walletsDir: dirs.wallets, password, daemonUrl: daemon.url, workdir, timeoutMs: 120_000 };
    if (fresh && !viaRpc) {
      await phase('walletCreated', async () => {
        addresses.miner = await restoreWithCli(sup, backend, { ...cliOpts, name: 'miner', seed: seeds.miner });
        addresses.main = await restoreWithCli(sup, backend, { ...cliOpts, name: 'main', seed: seeds.main });
      });
    }
    const rpcOptions = { password, daemonUrl: daemon.url, workdir, login, timeoutMs: 300_000, onCrash: log } as const;
    const launchRpc = async (o: { name?: string; port?: number; credentials?: Credentials; dirMode: boolean; file?: string }): Promise<WalletRpcHandle> => {
      walletRpcStarting = true;
      try {
        return await startWalletRpc(sup, backend, {
          ...rpcOptions,
          ...(o.name ? { name: o.name } : {}),
          ...(o.port ? { port: o.port } : {}),
          ...(o.credentials ? { credentials: o.credentials } : {}),
          ...(o.dirMode ? { walletDir: dirs.wallets } : { walletFile: o.file ?? file }),
        });
      } finally {
        walletRpcStarting = false;
      }
    };
    // With --wallet-creation rpc the wallet RPC serves the wallets folder (restore_deterministic_wallet,
    // open_wallet); otherwise it opens wallets/main with --wallet-file. Either works on any state.
    const dirMode = viaRpc;
    const rpc = await phase('walletRpcReady', () => launchRpc({ dirMode }));
    if (dirMode) {
      await phase('walletCreated', async () => {
        if (fresh) {
          addresses.miner = await restoreWithRpc(rpc.client, { name: 'miner', seed: seeds.miner, password });
          await rpc.client.call('close_wallet', {});
          addresses.main = await restoreWithRpc(rpc.client, { name: 'main', seed: seeds.main, password });
        } else await rpc.client.call('open_wallet', { filename: 'main', password });
      });
    }
    const mainAddresses = await walletAddresses(rpc.client);
    if (addresses.main && addresses.main.cn !== mainAddresses.cn) throw new Error(`the wallet RPC opened ${mainAddresses.cn}, but the main wallet is ${addresses.main.cn}`);
    addresses.main = mainAddresses;
    // A workdir from before the miner wallet existed: its blocks go to the main wallet.
    const minerAddresses = addresses.miner ?? mainAddresses;
    writeAddresses(dirs.wallets, addresses);
    const writeLogin = (): void => {
      if (rpc.credentials) writeFileSync(join(dirs.wallets, '.rpc-login'), `${rpc.credentials.username}:${rpc.credentials.password}`, { mode: 0o600 });
    };
    writeLogin();
    log(`saltnet: wallet ${file} ready at ${rpc.url}: ${mainAddresses.cn}${mainAddresses.carrot ? ` / ${mainAddresses.carrot}` : ''}`);
    sup.setInfo({ daemon: daemon.url, wallet: rpc.url, addresses: mainAddresses, minerAddresses, backend: spec.name, workdir });

    // 4. The chain: mined to the target (miner wallet) with the main wallet's funds unlocked.
    const mineOpts = { spec, timeoutMs: scaled(3_600_000), signal: aborter.signal, ...(opts.threads ? { threads: opts.threads } : {}) };
    const start = await daemon.client.height();
    await phase('mined', async () => {
      const progress = start < target ? createProgress('mining', start, target, mode, log) : undefined;
      const r = await mineForWallet(daemon.client, rpc.client, { ...mineOpts, miner: minerAddresses, main: mainAddresses, target, need, asset, ...(progress ? { progress } : {}) });
      if (start < target) log(`saltnet: mined ${r.height - start} blocks, ${r.plan.fundBlocks + r.extraBlocks} of them to the main wallet`);
    });

    const wallets = new Map<string, WalletHandle>();
    const main: WalletHandle = { name: 'main', url: rpc.url, client: rpc.client, pid: rpc.proc.pid, file, addresses: mainAddresses, ...(rpc.credentials ? { credentials: rpc.credentials } : {}), logFile: rpc.logFile };
    wallets.set('main', main);
    const walletProcs = new Map<string, WalletProc>([['main', { proc: rpc.proc, port: rpc.port, dirMode }]]);
    const daemonView = { url: daemon.url, client: daemon.client, pid: daemon.proc.pid, dataDir: daemon.dataDir, logFile: daemon.logFile, ports: daemon.ports };

    /** The daemon again, on its ports (clients keep their endpoints). */
    const startDaemonAgain = async (): Promise<void> => {
      const d = await startDaemon(sup, backend, { ...daemonOpts, ports: daemon.ports });
      await d.client.close();
      daemonProc = d.proc;
      daemonView.pid = d.proc.pid;
    };
    const startWallet = async (name: string): Promise<void> => {
      const w = wallets.get(name)!;
      const p = walletProcs.get(name)!;
      const h = await launchRpc({ name: p.proc.name, port: p.port, dirMode: p.dirMode, file: w.file, ...(w.credentials ? { credentials: w.credentials } : {}) });
      await h.client.close();
      if (p.dirMode) await w.client.call('open_wallet', { filename: name, password });
      walletProcs.set(name, { ...p, proc: h.proc });
      w.pid = h.proc.pid;
    };
    /** Every process stopped cleanly (wallets stored first): the state on disk is whole. */
    const stopProcesses = async (): Promise<void> => {
      for (const [name, w] of wallets) {
        await w.client.call('store').catch(() => undefined);
        await walletProcs.get(name)!.proc.stop();
      }
      await daemonProc.stop();
    };
    const startProcesses = async (): Promise<void> => {
      await startDaemonAgain();
      for (const name of wallets.keys()) await startWallet(name);
      writeLogin();
    };
    const saveState = async (cdir: string, key: string): Promise<Manifest> => {
      const height = await daemon.client.height();
      const version = await binaryVersion(backend.paths.daemon).catch(() => undefined);
      await stopProcesses();
      try {
        return await saveChain(cdir, key, workdir, {
          be: backend, ...(version ? { binaryVersion: version } : {}), difficulty, height, wallets: Object.entries(addresses).map(([name, a]) => ({ name, addresses: a })),
          extra: { unlocked: `${need} ${asset}`, target },
        });
      } finally {
        await startProcesses();
      }
    };

    // 5. A state built here goes into the cache (a failed save only costs the next run time).
    if ((snapshot.status === 'built' || snapshot.status === 'rebuilt') && snapshot.key && snapshot.cacheDir) {
      const { key, cacheDir } = snapshot;
      await phase('snapshotSave', async () => {
        try {
          const m = await saveState(cacheDir, key);
          log(`saltnet: saved snapshot ${key} (${m.files.length} files, ${(m.files.reduce((n, f) => n + f.size, 0) / 2 ** 20).toFixed(1)} MiB); the next run starts from it`);
        } catch (err) {
          snapshot = { ...snapshot, saveError: err instanceof Error ? err.message : String(err) };
          log(`saltnet: could not save snapshot ${key}: ${snapshot.saveError}`);
        }
      });
    }
    await releaseLock?.();
    releaseLock = undefined;
    const height = await daemon.client.height();

    const addWallet = async (name: string): Promise<WalletHandle> => {
      if (wallets.has(name)) throw new Error(`the testnet already has a wallet named ${name}`);
      if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`wallet name ${JSON.stringify(name)} must be letters, digits, - or _`);
      if (name === 'miner') throw new Error('the wallet name miner is taken by the wallet that receives the mined blocks');
      const h = await launchRpc({ name: `wallet-rpc-${name}`, dirMode: true });
      if (existsSync(join(dirs.wallets, `${name}.keys`))) await h.client.call('open_wallet', { filename: name, password });
      else await h.client.call('create_wallet', { filename: name, password, language: 'English' });
      const w: WalletHandle = {
        name, url: h.url, client: h.client, pid: h.proc.pid, file: join(dirs.wallets, name), addresses: await walletAddresses(h.client),
        ...(h.credentials ? { credentials: h.credentials } : {}), logFile: h.logFile,
      };
      wallets.set(name, w);
      walletProcs.set(name, { proc: h.proc, port: h.port, dirMode: true });
      return w;
    };

    const restart = async (what: 'daemon' | 'wallet', walletName = 'main'): Promise<void> => {
      if (what === 'daemon') {
        await daemonProc.stop();
        return startDaemonAgain();
      }
      const w = wallets.get(walletName);
      const p = walletProcs.get(walletName);
      if (!w || !p) throw new Error(`no wallet named ${walletName}; this testnet has ${[...wallets.keys()].join(', ')}`);
      await p.proc.stop();
      await startWallet(walletName);
    };

    const taken = new Set<string>();
    const checkpoint = async (name: string): Promise<void> => {
      await stopProcesses();
      try {
        await checkpointState(workdir, name);
        taken.add(name);
      } finally {
        await startProcesses();
      }
    };
    const revert = async (name: string): Promise<void> => {
      if (!taken.has(name)) throw new Error(`no checkpoint named ${name}${taken.size ? `; this testnet has ${[...taken].join(', ')}` : ' (take one first)'}`);
      await stopProcesses();
      try {
        await revertState(workdir, name);
      } finally {
        await startProcesses();
      }
    };

    up = true;
    let stopped = false;
    const stop = async (): Promise<void> => {
      if (stopped) return;
      stopped = true;
      offUnexpected();
      for (const w of wallets.values()) await w.client.close().catch(() => undefined);
      await daemon.client.close().catch(() => undefined);
      await sup.stopAll();
    };
    return {
      backend,
      workdir,
      runId: sup.runId,
      supervisor: sup,
      daemon: daemonView,
      wallet: { ...main, address: addressAt(spec, mainAddresses, height), get pid() { return main.pid; } },
      miner: { addresses: minerAddresses },
      get snapshot() { return snapshot; },
      phases,
      height,
      mine: async (t: number) => (await mineTo(daemon.client, t, { ...mineOpts, addresses: minerAddresses })).height,
      addWallet,
      wallets: () => wallets,
      restart,
      checkpoint,
      revert,
      checkpoints: () => [...taken],
      saveSnapshot: (key: string) => saveState(resolveCacheDir(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}), key),
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (err) {
    // A dead process shows up first as a refused connection; its exit (code or signal, log tail)
    // is the better answer, and it arrives within moments.
    if (!aborter.signal.aborted) await Promise.race([once(aborter.signal, 'abort'), sleep(1000)]);
    const reason = aborter.signal.aborted ? aborter.signal.reason : err;
    offUnexpected();
    keepWorkdir = true;
    await releaseLock?.();
    await sup.stopAll();
    log(`saltnet: up failed; logs kept in ${join(workdir, 'logs')}`);
    throw reason;
  }
}
