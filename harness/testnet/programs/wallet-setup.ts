// The deterministic wallets of a cold start: the miner and the main wallet restored from the seeds
// in fixtures/wallets, with the wallet CLI (`--restore-deterministic-wallet`, the seed on its stdin) or
// through a wallet RPC's `restore_deterministic_wallet`. Their addresses are kept in
// wallets/addresses.json, so a restored or reused workdir knows them without opening the wallets.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import pMap from 'p-map';
import type { Supervisor } from '../../process/supervisor.js';
import type { WalletClient } from '../../rpc/wallet.js';
import type { ResolvedBackend } from './binaries.js';
import type { MiningAddresses } from '../mining/mining.js';
import { createWalletWithCli } from './wallet-cli.js';

export const ADDRESSES_FILE = 'addresses.json';

export type WalletAddresses = Record<string, MiningAddresses>;

export function readAddresses(walletsDir: string): WalletAddresses {
  const file = join(walletsDir, ADDRESSES_FILE);
  if (!existsSync(file)) return {};
  return JSON.parse(readFileSync(file, 'utf8')) as WalletAddresses;
}

export function writeAddresses(walletsDir: string, a: WalletAddresses): void {
  writeFileSync(join(walletsDir, ADDRESSES_FILE), `${JSON.stringify(a, null, 2)}\n`);
}

/** The CN (or only) and Carrot addresses of the wallet a wallet RPC has open. */
export async function walletAddresses(client: WalletClient): Promise<MiningAddresses> {
  const a = (
    await client.call<{ addresses: { address_cn?: string; address_carrot?: string; address: string }[] }>('get_address')
  ).addresses[0]!;
  return { cn: a.address_cn || a.address, ...(a.address_carrot ? { carrot: a.address_carrot } : {}) };
}

/**
 * Restore `name` from `seed` with the wallet CLI into wallets/<name>, offline: it needs no daemon (the wallet RPC that
 * opens it scans the chain).
 */
export async function restoreWithCli(
  sup: Supervisor,
  be: ResolvedBackend,
  o: {
    name: string;
    seed: string;
    walletsDir: string;
    password: string;
    passwordFile: string;
    workdir: string;
    timeoutMs: number;
    lookahead?: string;
    log?: (line: string) => void;
  },
): Promise<MiningAddresses> {
  const w = await createWalletWithCli(sup, be, {
    ...(o.lookahead ? { lookahead: o.lookahead } : {}),
    file: join(o.walletsDir, o.name),
    seed: o.seed,
    password: o.password,
    passwordFile: o.passwordFile,
    offline: true,
    workdir: o.workdir,
    timeoutMs: o.timeoutMs,
    name: `wallet-cli-${o.name}`,
    ...(o.log ? { log: o.log } : {}),
  });
  return { cn: w.cn, ...(w.carrot ? { carrot: w.carrot } : {}) };
}

/** Restore `name` from `seed` through a wallet RPC serving the wallets folder; it stays open there. */
export async function restoreWithRpc(
  client: WalletClient,
  o: { name: string; seed: string; password: string },
): Promise<MiningAddresses> {
  await client.call('restore_deterministic_wallet', {
    filename: o.name,
    seed: o.seed,
    password: o.password,
    restore_height: 0,
    language: 'English',
  });
  return walletAddresses(client);
}

/**
 * Create new wallets with the wallet CLI, connected to the daemon (so that each starts scanning at the chain's height,
 * not at an estimate), with this subaddress lookahead written into their keys files: a wallet RPC then opens each in a
 * fraction of the time one created over RPC takes (wallet2's 50:200 map is rebuilt at every load). A few at once.
 */
export async function createWithCli(
  sup: Supervisor,
  be: ResolvedBackend,
  o: {
    names: string[];
    walletsDir: string;
    password: string;
    passwordFile: string;
    daemonUrl: string;
    workdir: string;
    lookahead: string;
    log?: (line: string) => void;
  },
): Promise<Map<string, MiningAddresses>> {
  const made = await pMap(
    o.names,
    async (name) => {
      const w = await createWalletWithCli(sup, be, {
        file: join(o.walletsDir, name),
        password: o.password,
        passwordFile: o.passwordFile,
        daemonUrl: o.daemonUrl,
        workdir: o.workdir,
        timeoutMs: 120_000,
        lookahead: o.lookahead,
        name: `wallet-cli-${name}`,
        ...(o.log ? { log: o.log } : {}),
      });
      return [name, { cn: w.cn, ...(w.carrot ? { carrot: w.carrot } : {}) }] as const;
    },
    { concurrency: availableParallelism() },
  );
  return new Map(made);
}
