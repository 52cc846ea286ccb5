// Bringing the programs up and the chain to its target, with as much as possible side by side:
//
// - warm (a restored or reused state): the main wallet's RPC starts beside the daemon, on the daemon's
//   address chosen in advance and without its initial sync (`--no-initial-sync`: it needs no daemon
//   until it refreshes, once both are up). Each program's start is mostly its own CPU work: a real
//   wallet RPC's is ~2 s (docs/startup-profile.md), the daemon's ~0.5 s.
// - cold (wallets restored with the wallet CLI): the two CLIs restore offline beside the daemon's
//   start; mining starts as soon as the daemon is ready, to the fixture wallets' CN addresses
//   (computed from their seeds: Monero's key derivation, which the real wallets use), up to the
//   Carrot height, by when the CLIs have given the Carrot addresses; the main wallet's RPC starts
//   while the rest is mined and scans once mining is done.
// - through the wallet RPC (`walletCreation: rpc`): one after the other, as before.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cnAddressOfSeed } from '../sim/index.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { BackendSpec } from './backends.js';
import { mineChain, mineForWallet, planFor, topUp, type MineForOptions } from './funding.js';
import type { MiningAddresses } from './mining.js';
import { createProgress, progressMode } from './progress.js';
import { mineOptions, phase, type Daemon, type Run } from './running.js';
import { walletPasswordFile } from './secrets.js';
import { readAddresses, restoreWithCli, restoreWithRpc, writeAddresses, type WalletAddresses } from './wallet-setup.js';
import type { WalletHandle, WalletSet } from './wallets.js';

/** How the testnet's wallets come about: restored with the CLI (cold), through the RPC, or found (warm). */
export type WalletPath = 'cli' | 'rpc' | 'found';

export function walletPath(run: Run): WalletPath {
  if (existsSync(join(run.dirs.wallets, 'main.keys'))) return 'found';
  return run.opts.walletCreation === 'rpc' ? 'rpc' : 'cli';
}

/** What starts beside the daemon: the CLI restores (cold) or the main wallet's RPC (warm). */
export interface Beside {
  restores?: Promise<WalletAddresses>;
  main?: Promise<WalletHandle>;
}

/** Start what needs no daemon yet, beside the daemon's start. Their promises never reject unhandled. */
export function startBeside(run: Run, wallets: WalletSet, password: string, path: WalletPath): Beside {
  const out: Beside = {};
  if (path === 'cli') out.restores = phase(run, 'walletCreated', () => restoreFixtures(run, password));
  if (path === 'found' && !(run.opts.walletCreation === 'rpc'))
    out.main = phase(run, 'walletRpcReady', () => wallets.start('main', { dirMode: false, initialSync: false }));
  out.restores?.catch(() => undefined);
  out.main?.catch(() => undefined);
  return out;
}

/** The fixture wallets (miner, main) restored side by side by offline wallet CLIs. */
async function restoreFixtures(run: Run, password: string): Promise<WalletAddresses> {
  const { chain } = run;
  const cli = {
    walletsDir: run.dirs.wallets,
    password,
    passwordFile: walletPasswordFile(run.workdir),
    workdir: run.workdir,
    timeoutMs: 120_000,
    lookahead: chain.lookahead,
  };
  const [miner, main] = await Promise.all([
    restoreWithCli(run.sup, run.backend, { ...cli, name: 'miner', seed: chain.seeds[0]! }),
    restoreWithCli(run.sup, run.backend, { ...cli, name: 'main', seed: chain.seeds[1]! }),
  ]);
  return { miner, main };
}

/**
 * The CN addresses of the fixture wallets before any wallet program has restored them: the backend's testnet CN prefix
 * over the keys of Monero's derivation. Undefined when the backend's coin has no such prefix.
 */
export function seedAddresses(
  spec: BackendSpec,
  seeds: string[],
): { miner: MiningAddresses; main: MiningAddresses } | undefined {
  const p = spec.coin.addressPrefixes.find(
    (x) => x.network === 'testnet' && x.family === 'cn' && x.type === 'standard',
  );
  if (!p) return undefined;
  return { miner: { cn: cnAddressOfSeed(seeds[0]!, p.prefix) }, main: { cn: cnAddressOfSeed(seeds[1]!, p.prefix) } };
}

/**
 * The wallets and the chain. Cold (CLI): mine by one plan, first to the seeds' CN addresses, then with the addresses
 * the CLIs printed; the main wallet's RPC starts meanwhile. Otherwise the main wallet's RPC comes first (it restores
 * the wallets through the RPC, or finds the funds a reused state holds).
 */
export async function buildChain(
  run: Run,
  daemon: Daemon,
  wallets: WalletSet,
  password: string,
  beside: Beside,
): Promise<{ main: WalletHandle; addresses: WalletAddresses }> {
  const { dirs, chain } = run;
  const addresses = readAddresses(dirs.wallets);
  const funds = { target: chain.height, need: chain.unlocked, asset: chain.asset };
  const start = await daemon.client.height();
  const progress =
    start < chain.height
      ? createProgress('mining', start, chain.height, progressMode(run.opts.progress), run.log)
      : undefined;
  const mining = (miner: MiningAddresses, main: MiningAddresses): MineForOptions => ({
    ...mineOptions(run),
    ...funds,
    miner,
    main,
    ...(progress ? { progress } : {}),
  });
  run.activity = 'while building the chain';
  let main: WalletHandle;
  if (beside.restores) {
    const spec = run.backend.spec;
    const early = seedAddresses(spec, chain.seeds);
    const plan = planFor({ spec, ...funds }, start);
    let mainRpc: Promise<WalletHandle> | undefined;
    const mined = await phase(run, 'mined', async () => {
      // Below the Carrot height only CN addresses are mined to (all the way on a backend without Carrot).
      if (early)
        await mineChain(daemon.client, mining(early.miner, early.main), {
          plan,
          ...(spec.carrotHeight !== undefined ? { until: spec.carrotHeight } : {}),
        });
      Object.assign(addresses, await beside.restores);
      for (const name of ['miner', 'main'] as const)
        if (early && addresses[name]!.cn !== early[name].cn)
          throw new Error(
            `the wallet CLI restored ${addresses[name]!.cn} from the ${name} seed, but saltnet mined to ${early[name].cn}`,
          );
      mainRpc = phase(run, 'walletRpcReady', () => wallets.start('main', { dirMode: false, initialSync: false }));
      mainRpc.catch(() => undefined);
      return mineChain(daemon.client, mining(addresses.miner!, addresses.main!), { plan });
    });
    main = await mainRpc!;
    const extra = await phase(run, 'funded', () =>
      topUp(daemon.client, main.client, mining(addresses.miner!, addresses.main!)),
    );
    if (start < chain.height)
      run.log(
        `saltnet: mined ${mined.height + extra - start} blocks, ${mined.plan.fundBlocks + extra} of them to the main wallet`,
      );
  } else {
    main = await (beside.main ??
      phase(run, 'walletRpcReady', () => startThroughRpc(run, wallets, password, addresses)));
    const r = await phase(run, 'mined', () =>
      mineForWallet(daemon.client, main.client, mining(addresses.miner ?? main.addresses, main.addresses)),
    );
    if (start < chain.height)
      run.log(
        `saltnet: mined ${r.height - start} blocks, ${r.plan.fundBlocks + r.extraBlocks} of them to the main wallet`,
      );
  }
  if (addresses.main && addresses.main.cn !== main.addresses.cn)
    throw new Error(`the wallet RPC opened ${main.addresses.cn}, but the main wallet is ${addresses.main.cn}`);
  addresses.main = main.addresses;
  writeAddresses(dirs.wallets, addresses);
  return { main, addresses };
}

/** The main wallet's RPC serving the wallets folder: it restores the fixture wallets (or opens main). */
function startThroughRpc(
  run: Run,
  wallets: WalletSet,
  password: string,
  addresses: WalletAddresses,
): Promise<WalletHandle> {
  const fresh = walletPath(run) !== 'found';
  const seeds = run.chain.seeds;
  return wallets.start('main', {
    dirMode: true,
    prepare: async (c: WalletClient) => {
      if (!fresh) return void (await c.call('open_wallet', { filename: 'main', password }));
      addresses.miner = await restoreWithRpc(c, { name: 'miner', seed: seeds[0]!, password });
      await c.call('close_wallet', {});
      addresses.main = await restoreWithRpc(c, { name: 'main', seed: seeds[1]!, password });
    },
  });
}
