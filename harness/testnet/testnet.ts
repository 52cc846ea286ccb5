// `up`: one call gives a private testnet with a funded wallet — daemon ready, wallets restored
// from fixed seeds, mined to the target height, wallet RPC ready, funds unlocked — and every
// process it started is gone when it stops (or when the harness dies: see harness/process).
//
// The testnet is built from programs (harness/testnet/programs/program.ts): the daemon and one wallet RPC
// per wallet, each with one definition and the same lifecycle. A program that crashes at any phase
// is reported and started again on the same data and endpoint (three times per run by default).
//
// The chain state comes from the cache when it can (harness/snapshot): a hit restores the daemon
// data dir and wallet files in well under a second; a miss builds the state (blocks that only raise
// the height go to a miner wallet, only the blocks the funds need to the main wallet), stops the
// processes cleanly, saves the snapshot, and starts them again.
//
// The state is built at difficulty 1 (light RandomX, one thread: a block costs one hash) whatever
// difficulty the testnet serves; the daemon is then started again with exactly the flags asked for
// (`--fixed-difficulty 500` by default), so every block mined after ready is mined at that
// difficulty (chain-cache.ts; docs/difficulty.md).
import { writeSecretFile } from '../common/secret-file.js';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WalletClient } from '../rpc/wallet.js';
import { hugePagesNote, poolBefore, readHugePages } from './programs/hugepages.js';
import { sameSettings } from './programs/daemon.js';
import { mineChain, mineForWallet, topUp, type MinedChain, type MineForOptions } from './mining/funding.js';
import { addressMismatch, fixtureAddresses } from './programs/fixture-wallets.js';
import { addressAt, type MiningAddresses } from './mining/mining.js';
import type { NodeHandle } from './programs/nodes.js';
import { createProgress, datasetProgress, progressMode } from './mining/progress.js';
import { holdDataset, warmVerifier } from './mining/template-mining.js';
import type { RandomxMiner } from '../randomx/miner.js';
import { assemble } from './assemble.js';
import { blockProgress, mineOptions, phase, tellDataset, type Daemon, type Run } from './up-phases.js';
import { openRun } from './up-start.js';
import { walletPassword, walletPasswordFile } from './programs/secrets.js';
import { chooseState } from './chain/state-source.js';
import type { Testnet, TestnetOptions } from './types.js';
import {
  readAddresses,
  restoreWithCli,
  restoreWithRpc,
  writeAddresses,
  type WalletAddresses,
} from './programs/wallet-setup.js';
import { WalletSet, type WalletHandle } from './programs/wallets.js';
import { counted } from '../common/describe.js';

export type { MiningProgress, Testnet, TestnetOptions } from './types.js';
export type { SnapshotInfo } from './chain/state-source.js';
export type { WalletHandle } from './programs/wallets.js';
export type { NodeHandle } from './programs/nodes.js';
export type { CrashReport } from './programs/program.js';
export type { TestnetEvent } from './events.js';
// Kept here too: scenario steps and tests import it with the testnet (it lives in mining.ts, which funding.ts can
// import without a cycle).
export { addressAt } from './mining/mining.js';

const UP = 'while the testnet was up';

/**
 * The daemon (n0) and, on a testnet of several nodes whose chain state is on disk already (restored or reused), every
 * other node, connected: nothing may mine before the nodes are a network. Each start takes the settings of the
 * moment: the build's while the chain state is mined, then the served ones.
 */
async function startDaemons(run: Run, building: boolean): Promise<Daemon> {
  const nodes = run.nodes;
  if (!building) await nodes.network();
  const h = await phase(run, 'daemonReady', () => nodes.startFirst());
  run.detail(`saltnet: daemon ready at ${h.url} (pid ${h.proc.pid})`);
  if (nodes.links) await startOtherNodes(run);
  return { program: nodes.programs[0]!, client: nodes.rawClient(0) };
}

/** Every node of the network started and connected to its peers. */
async function startOtherNodes(run: Run): Promise<void> {
  await phase(run, 'nodesReady', () => run.nodes.startAll());
  const others = run.nodes.programs.slice(1).map((p) => `${p.name} at ${p.current.url} (pid ${p.current.proc.pid})`);
  run.log(
    `saltnet: ${others.join(', ')} ready; ${run.nodes.count} nodes connected through ${counted(run.nodes.links!.info().length, 'link')}`,
  );
}

/**
 * The wallets and the chain. Cold (wallets restored with the CLI): mine to the target first, with
 * no wallet RPC running (none is needed, and a real one scanning while blocks arrive is where
 * Salvium's wallet crashed), then start the main wallet's RPC and wait for its funds. Otherwise the
 * wallet RPC comes first (it restores the wallets, or finds the funds a reused state holds); `early` is the main
 * wallet's, started beside the daemon (startMainBeside).
 */
async function buildChain(
  run: Run,
  daemon: Daemon,
  wallets: WalletSet,
  password: string,
  early: Promise<WalletHandle> | undefined,
): Promise<{ main: WalletHandle; addresses: WalletAddresses }> {
  const { dirs, chain } = run;
  const seeds = { miner: chain.seeds[0]!, main: chain.seeds[1]! };
  const addresses = readAddresses(dirs.wallets);
  const fresh = !existsSync(join(dirs.wallets, 'main.keys'));
  const viaRpc = run.opts.walletCreation === 'rpc';
  const funds = { target: chain.height, need: chain.unlocked, asset: chain.asset };
  const start = await daemon.client.height();
  const progress =
    start < chain.height
      ? blockProgress(
          run,
          { node: 'n0', start, target: chain.height },
          createProgress('mining', start, chain.height, progressMode(run.opts.progress), run.log),
        )
      : undefined;
  const mining = (main: MiningAddresses): MineForOptions => ({
    ...mineOptions(run),
    ...funds,
    miner: addresses.miner ?? main,
    main,
    ...(progress ? { progress } : {}),
  });
  let main: WalletHandle;
  run.activity = 'while building the chain';
  if (fresh && !viaRpc) {
    const mine = (a: Pair): Promise<Omit<MinedChain, 'extraBlocks'>> =>
      phase(run, 'mined', () => mineChain(daemon.client, { ...mining(a.main), miner: a.miner }));
    const plan = await restoreAndMine(run, daemon, password, seeds, mine);
    Object.assign(addresses, plan.restored);
    main = await phase(run, 'walletRpcReady', () => wallets.start('main', { dirMode: false }));
    const extra = await phase(run, 'funded', () => topUp(daemon.client, main.client, mining(addresses.main!)));
    if (start < chain.height)
      run.detail(
        `saltnet: mined ${counted(plan.height + extra - start, 'block')}, ${plan.plan.fundBlocks + extra} of them to the main wallet`,
      );
  } else {
    main = await (early ??
      phase(run, 'walletRpcReady', () =>
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
      ));
    // Started beside the daemon on the address planned for it: pointed at the one the daemon has, if it had to move.
    if (early) await wallets.followFirstNode();
    const r = await phase(run, 'mined', () => mineForWallet(daemon.client, main.client, mining(main.addresses)));
    if (start < chain.height)
      run.detail(
        `saltnet: mined ${counted(r.height - start, 'block')}, ${r.plan.fundBlocks + r.extraBlocks} of them to the main wallet`,
      );
  }
  if (addresses.main && addresses.main.cn !== main.addresses.cn)
    throw new Error(`the wallet RPC opened ${main.addresses.cn}, but the main wallet is ${addresses.main.cn}`);
  addresses.main = main.addresses;
  writeAddresses(dirs.wallets, addresses);
  return { main, addresses };
}

type Pair = { miner: MiningAddresses; main: MiningAddresses };

/**
 * Restore the fixture wallets and mine the chain. With the fixture files' addresses, the chain is mined to them while
 * the wallet CLI restores the wallets; otherwise the restores come first.
 */
async function restoreAndMine(
  run: Run,
  daemon: Daemon,
  password: string,
  seeds: { miner: string; main: string },
  mine: (a: Pair) => Promise<Omit<MinedChain, 'extraBlocks'>>,
): Promise<Omit<MinedChain, 'extraBlocks'> & { restored: Pair }> {
  const start = await daemon.client.height();
  const restore = (): Promise<Pair> => phase(run, 'walletCreated', () => restoreFixtureWallets(run, password, seeds));
  const known = fixtureAddresses(run.backend.spec.name);
  if (!known) {
    const restored = await restore();
    return { ...(await mine(restored)), restored };
  }
  const [restored, plan] = await Promise.all([restore(), mine(known)]);
  const differ = addressMismatch(known, restored, run.backend.spec.name);
  if (!differ) return { ...plan, restored };
  // Programs that derive other addresses (a fork, or the simulator's programs under the salvium name): the blocks go
  // back and are mined again, to the wallets restored.
  run.log(`saltnet: ${differ}; mining again to the restored wallets`);
  await daemon.client.popBlocks((await daemon.client.height()) - start);
  return { ...(await mine(restored)), restored };
}

/** Restore the fixture wallets miner and main with the wallet CLI, side by side and offline (no daemon needed). */
async function restoreFixtureWallets(
  run: Run,
  password: string,
  seeds: { miner: string; main: string },
): Promise<Pair> {
  const cli = {
    walletsDir: run.dirs.wallets,
    password,
    passwordFile: walletPasswordFile(run.workdir),
    workdir: run.workdir,
    timeoutMs: 120_000,
    lookahead: run.chain.lookahead,
    log: run.log,
  };
  const [miner, main] = await Promise.all([
    restoreWithCli(run.sup, run.backend, { ...cli, name: 'miner', seed: seeds.miner }),
    restoreWithCli(run.sup, run.backend, { ...cli, name: 'main', seed: seeds.main }),
  ]);
  return { miner, main };
}

export async function startTestnet(opts: TestnetOptions = {}): Promise<Testnet> {
  const run = await openRun(opts);
  let releaseLock: (() => Promise<void>) | undefined;
  const closers: (() => Promise<void>)[] = [];
  try {
    const choice = await phase(run, 'snapshotRestore', () =>
      chooseState({
        backend: run.backend,
        chain: run.chain,
        workdir: run.workdir,
        hadState: run.hadState,
        signal: run.aborter.signal,
        log: run.log,
        detail: run.detail,
        ...pick(opts, 'snapshots', 'cacheDir', 'snapshotKey'),
      }),
    );
    releaseLock = choice.releaseLock;
    // A state mined here is mined with the build's settings; a restored or reused one is served at once.
    const building =
      choice.snapshot.status === 'built' || choice.snapshot.status === 'rebuilt' || choice.snapshot.status === 'off';
    if (building) run.mining = run.build;
    closers.push(() => run.nodes.close());
    await run.nodes.planFirst();
    const password = walletPassword(run.workdir);
    const wallets = new WalletSet({
      sup: run.sup,
      backend: run.backend,
      walletsDir: run.dirs.wallets,
      workdir: run.workdir,
      password,
      passwordFile: walletPasswordFile(run.workdir),
      daemonUrl: () => run.nodes.firstUrl,
      login: opts.login ?? 'none',
      programs: run.programs,
      ...(run.ports ? { mainPort: run.ports.walletRpc } : {}),
    });
    closers.push(() => wallets.closeClients());
    const early = building ? undefined : startMainBeside(run, wallets);
    const daemon = await startDaemons(run, building);
    // A chain built here: the dataset (to build, most likely) has the whole build's time. A restored one: it is read
    // once the testnet is ready, so that its 2 GiB do not slow the wallet RPC's start.
    const holdRandomx = async (): Promise<void> => {
      if (!run.serve.hasher || run.dataset) return;
      run.dataset = await holdDataset(daemon.client, run.serve.hasher, run.serve.threads);
      if (run.dataset) reportDataset(run, run.dataset.miner);
    };
    closers.push(async () => run.dataset?.release());
    if (building) await holdRandomx();
    const { main, addresses } = await buildChain(run, daemon, wallets, password, early);
    const writeLogin = (): void => writeLoginFile(run.dirs.wallets, main);
    writeLogin();
    const minerAddresses = addresses.miner ?? main.addresses;
    announce(run, daemon, main, minerAddresses);
    const t = assemble(run, {
      daemon,
      wallets,
      main,
      addresses,
      minerAddresses,
      writeLogin,
      snapshot: choice.snapshot,
    });
    if (building) t.setPrefix({ difficulty: run.build.difficulty, height: await daemon.client.height() });
    // From here on the daemon serves: the save below starts it again with the served settings.
    run.mining = run.serve;
    // A state built here goes into the cache (a failed save only costs the next run time).
    await t.saveBuilt();
    // Built on n0 alone: the other nodes get a copy of its chain and the network starts.
    if (run.nodes.count > 1 && !run.nodes.links) await phase(run, 'nodesReady', () => t.network());
    await serve(run);
    await holdRandomx();
    if (run.serve.hasher) warmVerifiers(run, minerAddresses);
    run.sup.updateInfo({ nodes: run.nodes.programs.map((_, i) => nodeInfo(run.nodes.handle(i))) });
    await releaseLock?.();
    releaseLock = undefined;
    run.activity = UP;
    return t.finish(await daemon.client.height());
  } catch (err) {
    throw await failedStart(run, err, [...closers, async () => await releaseLock?.()]);
  }
}

/**
 * The main wallet's RPC started on its file beside the daemon, where the state on disk (restored or reused) has it:
 * loading the wallet is the real program's longest wait (about two seconds, most of it the key its message transport's
 * TLS context generates) and needs no daemon. Its first refresh does: it finds the daemon ready by then, or the
 * refresh before funding does. Undefined where the wallet is made first, or opened through the RPC.
 */
function startMainBeside(run: Run, wallets: WalletSet): Promise<WalletHandle> | undefined {
  if (run.opts.walletCreation === 'rpc' || !existsSync(join(run.dirs.wallets, 'main.keys'))) return undefined;
  const started = phase(run, 'walletRpcReady', () => wallets.start('main', { dirMode: false }));
  // Awaited once the daemon is ready; a daemon that fails first must not leave it unheard.
  started.catch(() => undefined);
  return started;
}

/** A node as the run record keeps it (`saltnet status`). */
function nodeInfo(n: NodeHandle): { name: string; url: string; pid: number; dataDir: string } {
  return { name: n.name, url: n.url, pid: n.pid, dataDir: n.dataDir };
}

/** Where a wallet RPC with a Digest login keeps it for the user (`user:password`, mode 0600). */
function writeLoginFile(walletsDir: string, main: WalletHandle): void {
  if (!main.credentials) return;
  const file = join(walletsDir, '.rpc-login');
  writeSecretFile(file, `${main.credentials.username}:${main.credentials.password}`);
}

/** The run's record (for `saltnet status` and `down`) and the line that says the main wallet is ready. */
function announce(run: Run, daemon: Daemon, main: WalletHandle, minerAddresses: MiningAddresses): void {
  run.sup.updateInfo({
    daemon: daemon.program.current.url,
    wallet: main.url,
    addresses: main.addresses,
    minerAddresses,
    backend: run.backend.spec.name,
    workdir: run.workdir,
    mining: { difficulty: run.serve.difficulty, threads: run.serve.threads },
  });
  run.detail(
    `saltnet: wallet ${main.file} ready at ${main.url}: ${main.addresses.cn}${main.addresses.carrot ? ` / ${main.addresses.carrot}` : ''}`,
  );
}

/**
 * A start that failed: everything started is stopped (`closers` first), the workdir and its logs kept; the error to
 * throw. A dead process shows up first as a refused connection; its exit (code or signal, log tail) is the better
 * answer, and it arrives within moments.
 */
async function failedStart(run: Run, err: unknown, closers: (() => Promise<void>)[]): Promise<unknown> {
  if (!run.aborter.signal.aborted) await Promise.race([once(run.aborter.signal, 'abort'), sleep(1000)]);
  const reason: unknown = run.aborter.signal.aborted ? run.aborter.signal.reason : err;
  run.keepWorkdir();
  for (const c of closers) await c().catch(() => undefined);
  await run.sup.stopAll();
  run.log(`saltnet: up failed; logs kept in ${join(run.workdir, 'logs')}`);
  return reason;
}

/**
 * Restart the daemons with the served settings if they still run with the build's (no save restarted them), and say
 * how they mine.
 */
async function serve(run: Run): Promise<void> {
  const stale = run.nodes.programs.filter((p) => !sameSettings({ ...p.current.settings, peers: undefined }, run.serve));
  if (stale.length)
    await phase(run, 'daemonServe', async () => {
      await Promise.all(stale.map((p) => p.restart()));
      await run.nodes.waitConnected();
    });
  const s = run.serve;
  if (s.miner === 'saltnet')
    return run.detail(
      `saltnet: mining at difficulty ${s.difficulty} with saltnet's own RandomX miner, ${s.threads} thread${s.threads === 1 ? '' : 's'} (the daemon verifies in light mode)`,
    );
  const pids = run.nodes.programs.map((p) => p.pid);
  const pages =
    s.randomx === 'full' ? hugePagesNote(run.nodes.programs.length, poolBefore(readHugePages(), pids)) : undefined;
  const mode =
    s.randomx === 'full'
      ? `, RandomX full (its dataset initialises in the background: ~1 min of both cores${pages ? `; ${pages}` : ''})`
      : s.randomx
        ? ', RandomX light'
        : '';
  (mode ? run.log : run.detail)(
    `saltnet: mining at difficulty ${s.difficulty}${mode}, ${s.threads} thread${s.threads === 1 ? '' : 's'}`,
  );
}

/**
 * Where saltnet's RandomX dataset is, once the testnet is ready: loading from the cache folder (quiet), or built in the
 * background (said, with its progress on the log while it goes: it takes both cores for about half a minute, once per
 * machine).
 */
function reportDataset(run: Run, miner: RandomxMiner): void {
  const s = miner.state;
  if (s.kind === 'ready' || s.kind === 'loading') return;
  if (s.kind === 'failed')
    return run.log(`saltnet: the RandomX dataset cannot be made (${s.reason}): mining in light mode`);
  tellDataset(run, miner);
  run.log(
    `saltnet: building RandomX's dataset in ${run.serve.hasher!.dir} (once per machine, ~${Math.ceil(miner.readyInMs() / 1000)} s); until it is ready, each mining job picks the cheaper of light mode and waiting for it`,
  );
  datasetProgress(miner, run.log);
}

/** Each daemon's RandomX cache made in the background (warmVerifier): its first block costs no more than others. */
function warmVerifiers(run: Run, addresses: MiningAddresses): void {
  for (let i = 0; i < run.nodes.count; i++) {
    const client = run.nodes.rawClient(i);
    void client
      .height()
      .then((h) => warmVerifier(client, addressAt(run.backend.spec, addresses, h)))
      .catch((err: unknown) =>
        run.detail(`saltnet: n${i} did not make its RandomX cache ahead: ${(err as Error).message}`),
      );
  }
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
