// A wallet of a test's own, in the test worker: its own wallet RPC process (under a supervisor of
// its own: a run record, a reaper), a new wallet file in a temporary folder of the test file, and,
// when asked, funds from the shared main wallet, unlocked before it is handed over.
//
// Cleanup, from the expected path to the worst:
// - stop() (or `await using`, or useFreshWallet's afterAll): the wallet RPC stops gracefully and
//   the wallet's folder goes; the test file's folder goes with its last wallet.
// - The worker ends with a wallet still up: vitest ends a worker process with SIGTERM, and a
//   Ctrl-C reaches the workers too (they are in vitest's process group). While a fresh wallet is
//   up, SIGTERM/SIGINT/SIGHUP SIGKILL every fresh wallet's processes at once, remove their
//   folders, and then let the signal end the worker as it would have. (Only while one is up:
//   otherwise the worker keeps Node's defaults.) process.exit() is no way out here: vitest
//   replaces it in workers with a function that throws.
// - vitest's main process dies (a signal sent to it alone): a forks worker would carry on with its
//   test, orphaned, its wallet RPCs up until the test ends (a hung test: never). Its IPC channel
//   closes: while a fresh wallet is up, 'disconnect' does the same, then ends the worker (SIGTERM).
// - Any other exit: the supervisors' 'exit' hook SIGKILLs, and this module's removes the folders.
// - The worker dies without running anything (SIGKILL): each wallet's reaper stops its wallet RPC.
// In the signal paths the run records are left to the reapers: they find the worker gone within
// a poll, find nothing alive to kill, and remove the records.
// The supervisor never traps uncaughtException/unhandledRejection here: vitest's worker reports an
// unhandled error only while its own listener is the sole one, and the trap would exit the worker.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { expect } from 'vitest';
import { signal, signalGroup } from '../process/kill.js';
import { createSupervisor, type Supervisor } from '../process/supervisor.js';
import { scaled, setTimeoutFactor } from '../common/timeouts.js';
import { createDaemonClient } from '../rpc/daemon.js';
import type { Credentials } from '../rpc/http.js';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';
import { backendSpec } from '../coin/backends.js';
import type { ResolvedBackend } from '../testnet/programs/binaries.js';
import { addressAt, type MiningAddresses } from '../testnet/mining/mining.js';
import { generateSecret } from '../testnet/programs/secrets.js';
import type { SyncTarget } from '../testnet/mining/sync.js';
import { walletAddresses } from '../testnet/programs/wallet-setup.js';
import { Program } from '../testnet/programs/program.js';
import { defineWalletRpc, type WalletRpcHandle } from '../testnet/programs/wallet-rpc.js';
import { claimFunded, fundFresh } from './funded.js';
import { checkContext, type SaltnetContext } from './context.js';
import { makeDirs } from '../common/mkdir.js';

export interface FreshWalletOptions {
  /**
   * Atomic units of `asset` the wallet holds, unlocked, when it is returned (sent from the main wallet); default 0n:
   * none.
   */
  unlocked?: bigint;
  /** The asset to fund (default: the backend's, SAL1 on Salvium; ignored on Monero). */
  asset?: string;
  /**
   * The wallet file's name (letters, digits, - and _), unique among the test file's fresh wallets that are up; default
   * wallet-1, wallet-2, … (never reused in a file's folder).
   */
  name?: string;
}

export interface FreshWallet {
  name: string;
  client: WalletClient;
  url: string;
  /** Where transfers to it should go on this chain (Carrot from the Carrot height on Salvium). */
  address: string;
  addresses: MiningAddresses;
  /** The wallet RPC's Digest login (when the testnet uses login: digest). */
  credentials?: Credentials;
  /** The wallet's folder: the wallet files in wallets/, the wallet RPC's log in logs/. */
  dir: string;
  /** The wallet RPC's pid now (a wallet RPC that crashed is started again, with another pid). */
  readonly pid: number;
  /** Stop the wallet RPC and remove the wallet's folder. Idempotent. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** The temporary folder of one test file, with its wallets. */
interface FileFolder {
  dir: string;
  live: number;
  made: number;
  names: Set<string>;
  /** A wallet failed to start: the folder (its logs) stays. */
  keep: boolean;
}

const folders = new Map<string, FileFolder>();
/** Every fresh wallet that is up in this worker: its supervisor and its folder. */
const live = new Map<Supervisor, string>();
/** The clients of the fresh wallets that are up in this worker, by name: `mine` syncs them. */
const clients = new Map<string, WalletClient>();

/** The fresh wallets up in this worker now (name and client). */
export function liveFreshWallets(): SyncTarget[] {
  return [...clients].map(([name, client]) => ({ name, client }));
}

/** The test file running now (vitest's expect state), for the folder's name. */
function currentTestFile(): string {
  try {
    return expect.getState().testPath ?? 'saltnet';
  } catch {
    return 'saltnet'; // not inside a vitest worker
  }
}

function folderFor(file: string): FileFolder {
  let f = folders.get(file);
  if (!f) {
    const label = basename(file)
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .slice(0, 60);
    f = {
      dir: mkdtempSync(join(tmpdir(), `saltnet-vitest-${label}-`)),
      live: 0,
      made: 0,
      names: new Set(),
      keep: false,
    };
    folders.set(file, f);
  }
  return f;
}

function release(file: string, f: FileFolder): void {
  f.live -= 1;
  if (f.live > 0) return;
  if (folders.get(file) === f) folders.delete(file);
  if (!f.keep) rmSync(f.dir, { recursive: true, force: true });
}

/** Synchronous: every live fresh wallet's processes SIGKILLed (process group and pid), the folders removed. */
function killAllNow(): void {
  for (const [sup, dir] of live) {
    for (const p of sup.processes()) {
      if (!p.running) continue;
      signalGroup(p.pid, 'SIGKILL');
      signal(p.pid, 'SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  }
  for (const f of folders.values()) if (!f.keep) rmSync(f.dir, { recursive: true, force: true });
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
const onSignal = (sig: NodeJS.Signals): void => {
  killAllNow();
  disarm();
  // Without our listener the signal does what it would have done (end the worker), as vitest expects.
  process.kill(process.pid, sig);
};
const onDisconnect = (): void => {
  process.stderr.write('saltnet: the vitest main process is gone; stopping this worker and its fresh wallets\n');
  onSignal('SIGTERM');
};
let armed = false;
let exitHook = false;

/** While a fresh wallet is up, a signal (or the loss of vitest's main process) kills the fresh wallets first. */
function arm(): void {
  if (!exitHook) {
    exitHook = true;
    process.on('exit', killAllNow);
  }
  if (armed) return;
  armed = true;
  for (const s of SIGNALS) process.on(s, onSignal);
  // A forks worker has an IPC channel to vitest's main process (a threads worker has none).
  if (process.connected) process.on('disconnect', onDisconnect);
}

function disarm(): void {
  if (!armed) return;
  armed = false;
  for (const s of SIGNALS) process.off(s, onSignal);
  process.off('disconnect', onDisconnect);
}

function disarmIfIdle(): void {
  if (live.size === 0) disarm();
}

/** The backend as startWalletRpc wants it, from the context's paths. */
function backendOf(c: SaltnetContext): ResolvedBackend {
  return {
    spec: backendSpec(c.backend),
    paths: c.binaries,
    source: 'the saltnet vitest global setup',
    reason: c.backendReason,
  };
}

/**
 * A name and folder for a fresh wallet of the current test file, and a supervisor for its wallet RPC
 * that removes the folder when it stops (unless the wallet failed: its logs stay).
 */
function reserve(wanted: string | undefined): { name: string; dir: string; sup: Supervisor; failed: () => void } {
  if (wanted !== undefined && !/^[A-Za-z0-9_-]+$/.test(wanted))
    throw new Error(`freshWallet: name ${JSON.stringify(wanted)} must be letters, digits, - or _`);
  const file = currentTestFile();
  const folder = folderFor(file);
  const name = wanted ?? `wallet-${folder.made + 1}`;
  // Only a wallet that is up (or failed, its logs kept) holds its name: nothing to clean up here.
  if (folder.names.has(name) || existsSync(join(folder.dir, name))) {
    throw new Error(
      `freshWallet: this test file has a fresh wallet named ${name} up already: give each one its own name (or leave name out)`,
    );
  }
  folder.names.add(name);
  folder.made += 1;
  folder.live += 1;
  const dir = join(folder.dir, name);
  makeDirs(join(dir, 'wallets'));
  let failed = false;
  let sup: Supervisor;
  try {
    sup = createSupervisor({
      workdir: dir,
      // Never in a test worker: see the header.
      trapSignals: false,
      afterStop: () => {
        live.delete(sup);
        disarmIfIdle();
        if (!failed) {
          rmSync(dir, { recursive: true, force: true });
          folder.names.delete(name);
        }
        release(file, folder);
      },
    });
  } catch (err) {
    release(file, folder);
    throw err;
  }
  live.set(sup, dir);
  arm();
  return {
    name,
    dir,
    sup,
    failed: () => {
      failed = true;
      folder.keep = true;
    },
  };
}

/**
 * A new wallet with a wallet RPC of its own, optionally funded from the main wallet (the transfer
 * and the wait until unlocked hold the chain lock: one funding at a time across workers).
 */
export async function freshWallet(context: SaltnetContext, opts: FreshWalletOptions = {}): Promise<FreshWallet> {
  const c = checkContext(context);
  setTimeoutFactor(c.timeoutFactor);
  const unlocked = opts.unlocked ?? 0n;
  if (typeof unlocked !== 'bigint' || unlocked < 0n)
    throw new Error(
      `freshWallet: unlocked must be a bigint of atomic units >= 0n (e.g. 10n * 100_000_000n for 10 SAL1), got ${String(unlocked)}`,
    );
  const { name, dir, sup, failed } = reserve(opts.name);
  let client: WalletClient | undefined;
  try {
    const walletsDir = join(dir, 'wallets');
    // A wallet funded ahead of this amount (the global setup's freshWallets): its files, and the password they need.
    const claimed = unlocked > 0n ? claimFunded(c, unlocked, opts.asset, { walletsDir, name }) : undefined;
    const password = claimed ?? generateSecret();
    let created = false;
    const program = walletProgram(sup, c, {
      name,
      walletsDir,
      dir,
      password,
      opened: () => created,
    });
    const h = await program.start();
    const rpc = createWalletClient(h.url, {
      timeoutMs: scaled(300_000),
      recover: program.recover,
      ...(h.credentials ? { auth: h.credentials } : {}),
    });
    client = rpc;
    if (claimed) {
      await rpc.call('open_wallet', { filename: name, password });
      await rpc.refresh();
    } else await rpc.call('create_wallet', { filename: name, password, language: 'English' });
    created = true;
    const addresses = await walletAddresses(rpc);
    if (unlocked > 0n && !claimed) await fundFresh(c, { client: rpc, addresses }, unlocked, opts.asset, name);
    const daemon = createDaemonClient(c.daemonUrl);
    const height = await daemon.height().finally(() => daemon.close());
    clients.set(name, rpc);
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        clients.delete(name);
        await rpc.close().catch(() => undefined);
        await program.stop();
        await sup.stopAll();
      })());
    return {
      name,
      client: rpc,
      url: h.url,
      address: addressAt(backendSpec(c.backend), addresses, height),
      addresses,
      ...(h.credentials ? { credentials: h.credentials } : {}),
      dir,
      get pid() {
        return program.current.proc.pid;
      },
      stop,
      [Symbol.asyncDispose]: stop,
    };
  } catch (err) {
    // The logs stay for the error's reader (the test file's folder is kept); the processes go.
    failed();
    await client?.close().catch(() => undefined);
    await sup.stopAll();
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(`freshWallet ${name} failed: ${msg}\n(its logs are kept in ${join(dir, 'logs')})`, { cause: err });
  }
}

/**
 * The fresh wallet's wallet RPC as a program with the testnet's lifecycle: a crash is reported and the wallet RPC
 * started again on its wallet.
 */
function walletProgram(
  sup: Supervisor,
  c: SaltnetContext,
  o: { name: string; walletsDir: string; dir: string; password: string; opened: () => boolean },
): Program<WalletRpcHandle> {
  const def = defineWalletRpc(sup, backendOf(c), {
    name: `wallet-rpc-${o.name}`,
    walletDir: o.walletsDir,
    password: o.password,
    daemonUrl: () => c.daemonUrl,
    workdir: o.dir,
    login: c.wallet.credentials ? 'digest' : 'none',
    // Unscaled: the readiness wait applies --timeout-factor.
    timeoutMs: 120_000,
    open: () => (o.opened() ? { filename: o.name, password: o.password } : undefined),
  });
  return new Program(def, {
    log: (l) => process.stderr.write(`${l}\n`),
    phase: () => `(fresh wallet ${o.name})`,
    onFatal: () => undefined,
  });
}
