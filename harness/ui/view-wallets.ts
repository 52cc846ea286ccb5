// The view-only wallets the explorer opens for apps that register a wallet by its address and view key (apps.ts):
// one wallet RPC each, started as the testnet starts its own (testnet/programs/wallet-rpc.ts's definition, run as a
// Program: restarted after a crash, its wallet opened again), with --disable-rpc-login on 127.0.0.1 and pointed at
// the testnet's daemon, on a folder of the testnet's workdir (explorer-wallets/) that is removed when the explorer
// stops. Its wallet is made with generate_from_keys from the address and view key alone, scanned once before it is
// shown, and then refreshes itself every few seconds (auto_refresh).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';
import { Program } from '../testnet/programs/program.js';
import { generateSecret } from '../testnet/programs/secrets.js';
import { defineWalletRpc, type WalletRpcHandle } from '../testnet/programs/wallet-rpc.js';
import type { Testnet } from '../testnet/types.js';

/** A view-only wallet the explorer runs: its wallet RPC's URL and a client of it. */
export interface ViewWallet {
  url: string;
  client: WalletClient;
  /** Stop its wallet RPC and remove its files. */
  close(): Promise<void>;
}

export interface ViewWalletOpener {
  /** Start a wallet RPC and generate the view-only wallet `name` in it (its first scan included). */
  open(name: string, address: string, viewKey: string): Promise<ViewWallet>;
  /** Stop them all and remove their folder. */
  close(): Promise<void>;
}

/** Seconds between a view-only wallet's own refreshes. */
const REFRESH_S = 2;
/** Its wallet RPC's start and its first scan may take this long (a real wallet scanning a long chain). */
const START_MS = 300_000;

export function viewWalletOpener(t: Testnet, log: (line: string) => void = () => undefined): ViewWalletOpener {
  const open = new Set<ViewWallet>();
  let fresh = false;
  const dir = (): string => join(t.workdir, 'explorer-wallets');
  return {
    async open(name, address, viewKey) {
      // A folder left by an explorer that did not stop cleanly is not read again.
      if (!fresh) rmSync(dir(), { recursive: true, force: true });
      fresh = true;
      mkdirSync(dir(), { recursive: true, mode: 0o700 });
      const password = generateSecret();
      let generated = false;
      const program = new Program<WalletRpcHandle>(
        defineWalletRpc(t.supervisor, t.backend, {
          name: `wallet-rpc-view-${name}`,
          password,
          walletDir: dir(),
          daemonUrl: () => t.daemon.url,
          workdir: t.workdir,
          login: 'none',
          timeoutMs: START_MS,
          open: () => (generated ? { filename: name, password } : undefined),
        }),
        {
          log,
          // A view-only wallet that cannot be started again is shown as not answering; the testnet goes on.
          onFatal: (err) => log(`saltnet: the explorer's view-only wallet ${name} is down: ${err.message}`),
          phase: () => 'while the explorer showed it',
        },
      );
      const h = await program.start();
      const client = createWalletClient(h.url, { timeoutMs: START_MS, recover: program.recover });
      const close = async (): Promise<void> => {
        open.delete(wallet);
        await client.close().catch(() => undefined);
        await program.stop();
        rmSync(join(dir(), name), { force: true });
        rmSync(join(dir(), `${name}.keys`), { force: true });
        rmSync(join(dir(), `${name}.address.txt`), { force: true });
      };
      const wallet: ViewWallet = { url: h.url, client, close };
      open.add(wallet);
      try {
        await client.call('generate_from_keys', {
          filename: name,
          address,
          viewkey: viewKey,
          password,
          restore_height: 0,
          autosave_current: false,
        });
        generated = true;
        await client.call('refresh');
        await client.call('auto_refresh', { enable: true, period: REFRESH_S });
        return wallet;
      } catch (err) {
        await close();
        throw err;
      }
    },
    async close() {
      await Promise.all([...open].map((w) => w.close()));
      if (fresh) rmSync(dir(), { recursive: true, force: true });
    },
  };
}
