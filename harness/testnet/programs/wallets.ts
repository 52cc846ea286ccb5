// The wallets of a testnet, each served by a wallet RPC program of its own (harness/testnet/programs/program.ts):
// `main`, restored by `up`, and any added later. Each has one client for the testnet's lifetime
// whose requests survive a crash of its wallet RPC (they wait for the restart and are repeated
// when that is safe), so callers never see a new endpoint.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pMap from 'p-map';
import type { Supervisor } from '../../process/supervisor.js';
import type { Credentials, Recovery } from '../../rpc/http.js';
import { createWalletClient, type WalletClient } from '../../rpc/wallet.js';
import type { ResolvedBackend } from './binaries.js';
import type { MiningAddresses } from '../mining/mining.js';
import { Program, type CrashReport, type ProgramOptions } from './program.js';
import { createWithCli, walletAddresses } from './wallet-setup.js';
import { daemonAddress, defineWalletRpc, type WalletRpcHandle } from './wallet-rpc.js';

/** A wallet of the testnet: `main` (restored by up) or one added with addWallet. */
export interface WalletHandle {
  name: string;
  /** The node its wallet RPC talks to (`n0` unless it was added on another). */
  node: string;
  url: string;
  client: WalletClient;
  /** The wallet RPC's pid now (it changes when the program is restarted). */
  readonly pid: number;
  file: string;
  addresses: MiningAddresses;
  credentials?: Credentials;
  logFile: string;
  /**
   * For clients of this wallet RPC of your own (EndpointOptions.recover): wait out a crash and repeat what is safe to
   * repeat.
   */
  recover: Recovery;
}

export interface WalletSetOptions {
  sup: Supervisor;
  backend: ResolvedBackend;
  walletsDir: string;
  workdir: string;
  password: string;
  /** The file that holds `password` (`--password-file` of a wallet RPC on a wallet file). */
  passwordFile: string;
  /**
   * The daemon of node n0 (the main wallet's), asked at each start: known before n0 answers (NodeSet.firstUrl); a
   * wallet added on another node says which (addWallet).
   */
  daemonUrl: () => string;
  login: 'none' | 'digest';
  programs: ProgramOptions;
  /** The main wallet's RPC port (`--ports standard`); default, and every other wallet's: a free one. */
  mainPort?: number;
}

interface Entry {
  handle: WalletHandle;
  program: Program<WalletRpcHandle>;
}

const NAME = /^[A-Za-z0-9_-]+$/;

/** The node a wallet's RPC talks to: its name and daemon URL. */
export interface WalletNode {
  name: string;
  url: string;
}

export class WalletSet {
  private readonly entries = new Map<string, Entry>();
  /** Crashes of wallets removed since. */
  private readonly pastCrashes: CrashReport[] = [];

  constructor(private readonly o: WalletSetOptions) {}

  /** Every wallet by name, `main` first. */
  handles(): Map<string, WalletHandle> {
    return new Map([...this.entries].map(([n, e]) => [n, e.handle]));
  }

  get(name: string): WalletHandle | undefined {
    return this.entries.get(name)?.handle;
  }

  /** Each wallet RPC by program name: running and answering now. */
  async health(): Promise<Record<string, boolean>> {
    const out: Record<string, boolean> = {};
    for (const e of this.entries.values()) out[e.program.name] = await e.program.health();
    return out;
  }

  /** Every crash of a wallet RPC of this set, removed wallets' included. */
  crashes(): CrashReport[] {
    return [...this.pastCrashes, ...[...this.entries.values()].flatMap((e) => e.program.crashes)];
  }

  /**
   * Start a wallet RPC for `name`: on its file (`--wallet-file`), or serving the wallets folder
   * (`--wallet-dir`) where `prepare` creates, restores or opens the wallet once it is up.
   */
  async start(
    name: string,
    o: { dirMode: boolean; prepare?: (client: WalletClient) => Promise<void>; node?: WalletNode },
  ): Promise<WalletHandle> {
    const file = join(this.o.walletsDir, name);
    let opened = false;
    const def = defineWalletRpc(this.o.sup, this.o.backend, {
      name: name === 'main' ? 'wallet-rpc' : `wallet-rpc-${name}`,
      password: this.o.password,
      passwordFile: this.o.passwordFile,
      daemonUrl: () => o.node?.url ?? this.o.daemonUrl(),
      workdir: this.o.workdir,
      login: this.o.login,
      timeoutMs: 300_000,
      ...(o.dirMode ? { walletDir: this.o.walletsDir } : { walletFile: file }),
      open: () => (o.dirMode && opened ? { filename: name, password: this.o.password } : undefined),
      ...(name === 'main' && this.o.mainPort ? { port: this.o.mainPort } : {}),
    });
    const program = new Program(def, this.o.programs);
    const h = await program.start();
    const client = createWalletClient(h.url, {
      timeoutMs: 300_000,
      recover: program.recover,
      ...(h.credentials ? { auth: h.credentials } : {}),
    });
    try {
      await o.prepare?.(client);
      opened = true;
      const handle: WalletHandle = {
        name,
        node: o.node?.name ?? 'n0',
        url: h.url,
        client,
        file,
        addresses: await walletAddresses(client),
        logFile: h.logFile,
        recover: program.recover,
        ...(h.credentials ? { credentials: h.credentials } : {}),
        get pid() {
          return program.current.proc.pid;
        },
      };
      this.entries.set(name, { handle, program });
      return handle;
    } catch (err) {
      await client.close();
      await program.stop();
      throw err;
    }
  }

  /**
   * Another wallet: created (or opened, on a reused workdir) through a wallet RPC of its own serving the wallets
   * folder.
   */
  add(name: string, node?: WalletNode): Promise<WalletHandle> {
    if (this.entries.has(name)) throw new Error(`the testnet already has a wallet named ${name}`);
    if (!NAME.test(name)) throw new Error(`wallet name ${JSON.stringify(name)} must be letters, digits, - or _`);
    if (name === 'miner')
      throw new Error('the wallet name miner is taken by the wallet that receives the mined blocks');
    const password = this.o.password;
    return this.start(name, {
      dirMode: true,
      ...(node ? { node } : {}),
      prepare: async (c) => {
        if (existsSync(join(this.o.walletsDir, `${name}.keys`)))
          await c.call('open_wallet', { filename: name, password });
        else await c.call('create_wallet', { filename: name, password, language: 'English' });
      },
    });
  }

  /**
   * Create these wallets, not left running: two wallet RPCs side by side each create half of them one after the other
   * (a start each would cost a start each; creating one is seconds of one core, its subaddress map: two halves take
   * about half the time on two cores), and stop; or, with a subaddress lookahead, the wallet CLI creates each with it
   * (createWithCli). Their addresses, by name; `addWallet` opens one later.
   */
  async create(names: string[], lookahead?: string): Promise<Map<string, MiningAddresses>> {
    if (names.length === 0) return new Map();
    for (const n of names) {
      if (!NAME.test(n)) throw new Error(`wallet name ${JSON.stringify(n)} must be letters, digits, - or _`);
      if (existsSync(join(this.o.walletsDir, `${n}.keys`))) throw new Error(`the testnet already has a wallet ${n}`);
    }
    if (lookahead)
      return createWithCli(this.o.sup, this.o.backend, { ...this.o, daemonUrl: this.o.daemonUrl(), names, lookahead });
    const halves = [names.filter((_, i) => i % 2 === 0), names.filter((_, i) => i % 2 === 1)].filter((h) => h.length);
    const made = await Promise.allSettled(halves.map((h) => this.createOn(h)));
    const failed = made.find((m) => m.status === 'rejected');
    if (failed) throw failed.reason;
    const all = new Map(made.flatMap((m) => (m.status === 'fulfilled' ? [...m.value] : [])));
    return new Map(names.map((n) => [n, all.get(n)!]));
  }

  /** One wallet RPC, started on the first of `names`, creates the others, and stops. */
  private async createOn(names: string[]): Promise<Map<string, MiningAddresses>> {
    const [first, ...rest] = names as [string, ...string[]];
    const h = await this.add(first);
    const out = new Map([[first, h.addresses]]);
    try {
      for (const n of rest) {
        await h.client.call('create_wallet', { filename: n, password: this.o.password, language: 'English' });
        out.set(n, await walletAddresses(h.client));
      }
    } finally {
      await this.remove(first);
    }
    return out;
  }

  private entry(name: string): Entry {
    const e = this.entries.get(name);
    if (!e) throw new Error(`no wallet named ${name}; this testnet has ${[...this.entries.keys()].join(', ')}`);
    return e;
  }

  /**
   * Stop a wallet's RPC for good (its wallet stored; the files stay) and forget it: a wallet a scenario no longer needs
   * costs no memory, scans or restarts.
   */
  async remove(name: string): Promise<void> {
    if (name === 'main') throw new Error('the main wallet cannot be removed: it funds the others');
    const e = this.entry(name);
    this.entries.delete(name);
    await e.handle.client.close().catch(() => undefined);
    await e.program.stop();
    this.pastCrashes.push(...e.program.crashes);
  }

  /**
   * Every wallet RPC of n0 pointed at n0's address now (`set_daemon`) where it was started on another: the main
   * wallet's starts beside its daemon on the address planned for it, which a port taken meanwhile changes.
   */
  async followFirstNode(): Promise<void> {
    const url = this.o.daemonUrl();
    for (const e of this.entries.values()) {
      if (e.handle.node !== 'n0' || e.program.current.daemonUrl === url) continue;
      await e.handle.client.call('set_daemon', { address: daemonAddress(url), trusted: true, ssl_support: 'disabled' });
    }
  }

  /** Stop a wallet RPC gracefully (its wallet stored) and start it again on the same endpoint. */
  async restart(name: string): Promise<void> {
    await this.entry(name).program.restart();
  }

  /**
   * Every wallet RPC stopped at once, each wallet stored first; what did not stop cleanly, by program (see
   * Program.stop).
   */
  async stopAll(): Promise<string[]> {
    const entries = [...this.entries.values()];
    const problems = await Promise.all(entries.map((e) => e.program.stop()));
    return entries.flatMap((e, i) => (problems[i] ? [`${e.program.name}: ${problems[i]}`] : []));
  }

  /** Every wallet stored (`store`) by its running RPC, at once; what could not be, by program. */
  async storeAll(): Promise<string[]> {
    const entries = [...this.entries.values()];
    const failed = await Promise.all(
      entries.map((e) =>
        e.handle.client.call('store').then(
          () => undefined,
          (err: unknown) => (err instanceof Error ? err.message : String(err)),
        ),
      ),
    );
    return entries.flatMap((e, i) => (failed[i] ? [`${e.program.name}: store failed: ${failed[i]}`] : []));
  }

  /** The programs of the set (for what applies to every one: Program.recoverIfUnresponsive). */
  programs(): Program<WalletRpcHandle>[] {
    return [...this.entries.values()].map((e) => e.program);
  }

  /** The wallet RPCs that do not answer now, with why. */
  unresponsive(): string[] {
    return [...this.entries.values()].flatMap((e) => {
      const u = e.program.unresponsive;
      return u ? [`${e.program.name} (pid ${e.program.pid}) is not answering: ${u.reason}`] : [];
    });
  }

  /** Every wallet RPC started again, as many at once as there are cores (a wallet's load is one core's work). */
  async startAll(): Promise<void> {
    await pMap(this.entries.values(), (e) => e.program.start(), { concurrency: availableParallelism() });
  }

  /** Close the clients (at the end of the testnet). */
  async closeClients(): Promise<void> {
    for (const e of this.entries.values()) await e.handle.client.close().catch(() => undefined);
  }
}
