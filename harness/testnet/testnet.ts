// `up`: one call gives a private testnet with a funded wallet — daemon ready, wallet created,
// wallet RPC ready, mined to the target height, funds unlocked — and every process it started is
// gone when it stops (or when the harness dies: see harness/process).
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ProcessExitedError } from '../process/errors.js';
import { reapStale } from '../process/registry.js';
import { createSupervisor, type Supervisor } from '../process/supervisor.js';
import { scaled, setTimeoutFactor } from '../process/timeouts.js';
import type { DaemonClient } from '../rpc/daemon.js';
import type { Credentials } from '../rpc/http.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { BackendName } from './backends.js';
import { resolveBackend, type ResolvedBackend } from './binaries.js';
import { startDaemon } from './daemon.js';
import { fundWallet, mineTo, type MiningAddresses } from './mining.js';
import { createProgress, progressMode, type ProgressMode } from './progress.js';
import { createWalletWithCli } from './wallet-cli.js';
import { generateSecret } from './secrets.js';
import { startWalletRpc } from './wallet-rpc.js';

export interface TestnetOptions {
  backend?: BackendName | 'auto';
  binDir?: string;
  difficulty?: number;
  /** Target height (block count); default: the backend's (1201 on Salvium: tokens active). */
  height?: number;
  /** Unlocked amount (atomic units) of the backend's asset to wait for; 0n to skip. */
  unlocked?: bigint;
  /** Where data dirs, wallets and logs go (kept); default: a fresh temporary folder (removed on a clean stop). */
  workdir?: string;
  login?: 'none' | 'digest';
  /** Create the wallet with the wallet CLI (default) or through the wallet RPC's create_wallet. */
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
}

/** A wallet of the testnet: `main` (created by up) or one added with addWallet. */
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

/** The address to send to on a chain of this height: Carrot from the Carrot height, CN before (and on Monero). */
export function addressAt(spec: ResolvedBackend['spec'], a: MiningAddresses, height: number): string {
  return spec.carrotHeight !== undefined && a.carrot && height >= spec.carrotHeight ? a.carrot : a.cn;
}

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
  /** Milliseconds spent in each phase of `up`. */
  readonly phases: Record<string, number>;
  readonly height: number;
  /** Mine to a height (CN/Carrot switch handled). */
  mine(target: number): Promise<number>;
  /** Create another wallet (through a wallet RPC serving the wallets folder) or reopen it on a reused workdir. */
  addWallet(name: string): Promise<WalletHandle>;
  /** Every wallet by name, `main` first. */
  wallets(): Map<string, WalletHandle>;
  /** Stop a process gracefully and start it again on the same ports (wallets: the same credentials). */
  restart(target: 'daemon' | 'wallet', walletName?: string): Promise<void>;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The wallet password lives in the workdir (mode 0600) so the same workdir can be brought up again. */
function walletPassword(workdir: string): string {
  const file = join(workdir, 'wallets', '.password');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const pw = generateSecret();
  writeFileSync(file, pw, { mode: 0o600 });
  return pw;
}

export async function startTestnet(opts: TestnetOptions = {}): Promise<Testnet> {
  if (opts.timeoutFactor) setTimeoutFactor(opts.timeoutFactor);
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const backend = resolveBackend(opts.backend ?? 'auto', opts.binDir);
  log(`saltnet: ${backend.reason}`);
  // Whatever an earlier run left when it was killed goes first.
  for (const r of await reapStale()) log(`saltnet: reaped stale run ${r.runId} (its owner had died)`);
  const ownWorkdir = opts.workdir === undefined;
  const workdir = resolve(opts.workdir ?? join(tmpdir(), `saltnet-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`));
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
  // While the wallet RPC starts, its crashes are startWalletRpc's to report and retry.
  let walletRpcStarting = false;
  let up = false;
  const offUnexpected = sup.onUnexpectedExit((p, exit) => {
    if (walletRpcStarting && p.name === 'wallet-rpc') return;
    const during = up ? 'while the testnet was up' : 'while the testnet was starting';
    aborter.abort(new ProcessExitedError({ processName: p.name, exit, tail: p.tail(30), logFile: p.logFile, during }));
  });
  const phases: Record<string, number> = {};
  const phase = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const r = await fn();
    phases[name] = Date.now() - t0;
    return r;
  };
  const spec = backend.spec;
  const mode = progressMode(opts.progress);
  try {
    const daemon = await phase('daemonReady', () => startDaemon(sup, backend, { workdir, difficulty: opts.difficulty ?? spec.difficulty, timeoutMs: scaled(60_000), ...(opts.daemonEnv ? { env: opts.daemonEnv } : {}) }));
    log(`saltnet: daemon ready at ${daemon.url} (pid ${daemon.proc.pid})`);
    const file = join(workdir, 'wallets', 'main');
    const password = walletPassword(workdir);
    const reuse = existsSync(`${file}.keys`); // this workdir already has its wallet: open it again
    const viaRpc = opts.walletCreation === 'rpc';
    const created = await phase('walletCreated', async () => {
      if (reuse || viaRpc) return undefined;
      return createWalletWithCli(sup, backend, { file, password, daemonUrl: daemon.url, workdir, timeoutMs: scaled(120_000) });
    });
    walletRpcStarting = true;
    const rpc = await phase('walletRpcReady', () =>
      startWalletRpc(sup, backend, {
        ...(viaRpc ? { walletDir: join(workdir, 'wallets') } : { walletFile: file }),
        password,
        daemonUrl: daemon.url,
        workdir,
        login: opts.login ?? 'none',
        timeoutMs: scaled(300_000),
        onCrash: log,
      }),
    ).finally(() => {
      walletRpcStarting = false;
    });
    if (viaRpc) {
      // create_wallet (or open_wallet on a reused workdir) through the RPC server's --wallet-dir.
      const t0 = Date.now();
      if (reuse) await rpc.client.call('open_wallet', { filename: 'main', password });
      else await rpc.client.call('create_wallet', { filename: 'main', password, language: 'English' });
      phases.walletCreated = Date.now() - t0;
    }
    const addr = await rpc.client.call<{ addresses: { address_cn?: string; address_carrot?: string; address: string }[] }>('get_address');
    const first = addr.addresses[0]!;
    const addresses: MiningAddresses = { cn: first.address_cn || first.address, ...(first.address_carrot ? { carrot: first.address_carrot } : {}) };
    if (created && created.cn !== addresses.cn) throw new Error(`the wallet RPC opened ${addresses.cn}, but the CLI created ${created.cn}`);
    if (rpc.credentials) writeFileSync(join(workdir, 'wallets', '.rpc-login'), `${rpc.credentials.username}:${rpc.credentials.password}`, { mode: 0o600 });
    log(`saltnet: wallet ${file} ready at ${rpc.url}: ${addresses.cn}${addresses.carrot ? ` / ${addresses.carrot}` : ''}`);
    sup.setInfo({ daemon: daemon.url, wallet: rpc.url, addresses, backend: spec.name, workdir });
    const mineOpts = { spec, addresses, timeoutMs: scaled(3_600_000), signal: aborter.signal, ...(opts.threads ? { threads: opts.threads } : {}) };
    const target = opts.height ?? spec.defaultHeight;
    const start = await daemon.client.height();
    await phase('mined', async () => {
      if (start >= target) return;
      await mineTo(daemon.client, target, { ...mineOpts, progress: createProgress('mining', start, target, mode, log) });
    });
    const need = opts.unlocked ?? spec.defaultUnlocked;
    await phase('unlocked', async () => {
      if (need > 0n) await fundWallet(daemon.client, rpc.client, { ...mineOpts, amount: need });
      else await rpc.client.refresh();
    });
    const height = await daemon.client.height();
    const daemonView = { url: daemon.url, client: daemon.client, pid: daemon.proc.pid, dataDir: daemon.dataDir, logFile: daemon.logFile, ports: daemon.ports };
    const main: WalletHandle = { name: 'main', url: rpc.url, client: rpc.client, pid: rpc.proc.pid, file, addresses, ...(rpc.credentials ? { credentials: rpc.credentials } : {}), logFile: rpc.logFile };
    const wallets = new Map<string, WalletHandle>([['main', main]]);
    const walletProcs = new Map([['main', { proc: rpc.proc, port: rpc.port, dirMode: viaRpc }]]);
    let daemonProc = daemon.proc;
    const rpcOptions = { password, daemonUrl: daemon.url, workdir, login: opts.login ?? 'none', timeoutMs: scaled(300_000), onCrash: log } as const;

    const addWallet = async (name: string): Promise<WalletHandle> => {
      if (wallets.has(name)) throw new Error(`the testnet already has a wallet named ${name}`);
      if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`wallet name ${JSON.stringify(name)} must be letters, digits, - or _`);
      const h = await startWalletRpc(sup, backend, { ...rpcOptions, walletDir: join(workdir, 'wallets'), name: `wallet-rpc-${name}` });
      if (existsSync(join(workdir, 'wallets', `${name}.keys`))) await h.client.call('open_wallet', { filename: name, password });
      else await h.client.call('create_wallet', { filename: name, password, language: 'English' });
      const a = (await h.client.call<{ addresses: { address_cn?: string; address_carrot?: string; address: string }[] }>('get_address')).addresses[0]!;
      const w: WalletHandle = {
        name, url: h.url, client: h.client, pid: h.proc.pid, file: join(workdir, 'wallets', name),
        addresses: { cn: a.address_cn || a.address, ...(a.address_carrot ? { carrot: a.address_carrot } : {}) },
        ...(h.credentials ? { credentials: h.credentials } : {}), logFile: h.logFile,
      };
      wallets.set(name, w);
      walletProcs.set(name, { proc: h.proc, port: h.port, dirMode: true });
      return w;
    };

    const restart = async (target: 'daemon' | 'wallet', walletName = 'main'): Promise<void> => {
      if (target === 'daemon') {
        await daemonProc.stop();
        const d = await startDaemon(sup, backend, { workdir, difficulty: opts.difficulty ?? spec.difficulty, timeoutMs: scaled(60_000), ports: daemon.ports, ...(opts.daemonEnv ? { env: opts.daemonEnv } : {}) });
        await d.client.close();
        daemonProc = d.proc;
        daemonView.pid = d.proc.pid;
        return;
      }
      const w = wallets.get(walletName);
      const p = walletProcs.get(walletName);
      if (!w || !p) throw new Error(`no wallet named ${walletName}; this testnet has ${[...wallets.keys()].join(', ')}`);
      await p.proc.stop();
      const h = await startWalletRpc(sup, backend, {
        ...rpcOptions, name: p.proc.name, port: p.port, ...(w.credentials ? { credentials: w.credentials } : {}),
        ...(p.dirMode ? { walletDir: join(workdir, 'wallets') } : { walletFile: w.file }),
      });
      await h.client.close();
      if (p.dirMode) await w.client.call('open_wallet', { filename: walletName, password });
      walletProcs.set(walletName, { ...p, proc: h.proc });
      w.pid = h.proc.pid;
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
      wallet: { ...main, address: addressAt(spec, addresses, height), get pid() { return main.pid; } },
      phases,
      height,
      mine: async (t: number) => (await mineTo(daemon.client, t, mineOpts)).height,
      addWallet,
      wallets: () => wallets,
      restart,
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
    await sup.stopAll();
    log(`saltnet: up failed; logs kept in ${join(workdir, 'logs')}`);
    throw reason;
  }
}
