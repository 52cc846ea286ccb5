// saltnet/vitest: what a test file uses against the testnet the global setup started
// (`saltnet/vitest/global-setup`). The context comes from inject('saltnet'); everything here
// takes it as its first argument, so it works in any test file, hook or helper.
import { afterAll, beforeAll } from 'vitest';
import { scaled, setTimeoutFactor } from '../common/timeouts.js';
import { createDaemonClient, type DaemonClient } from '../rpc/daemon.js';
import { createWalletClient, type WalletClient } from '../rpc/wallet.js';
import { backendSpec } from '../coin/backends.js';
import { mineTo } from '../testnet/mining/mining.js';
import { syncWallets } from '../testnet/mining/sync.js';
import { withChainLock } from './chain-lock.js';
import { checkContext, type SaltnetContext } from './context.js';
import { operate, type AnswerOf, type BodyOf, type OperationName } from '../control/client.js';
import type { AutomineChange, AutomineMode } from '../testnet/mining/automine.js';
import type { FundRequest, FundResult } from '../testnet/mining/faucet.js';
import { freshWallet, liveFreshWallets, type FreshWallet, type FreshWalletOptions } from './fresh-wallet.js';

export { checkContext, type ContextAddresses, type SaltnetContext } from './context.js';
export { freshWallet, type FreshWallet, type FreshWalletOptions } from './fresh-wallet.js';
export { withChainLock } from './chain-lock.js';
export { acquireTestnet, useTestnet, type OwnTestnet } from './pool.js';
export type { DaemonClient } from '../rpc/daemon.js';
export type { WalletClient } from '../rpc/wallet.js';
export type { AutomineChange, AutomineMode } from '../testnet/mining/automine.js';
export type { FundRequest, FundResult } from '../testnet/mining/faucet.js';

export interface Connection {
  daemon: DaemonClient;
  /** The main wallet (shared by every worker): read from it freely; send from it only through freshWallet's funding. */
  wallet: WalletClient;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Clients of the testnet's daemon and main wallet. Close them when done (afterAll, or `await using`). */
export function connect(context: SaltnetContext): Connection {
  const c = checkContext(context);
  setTimeoutFactor(c.timeoutFactor);
  const daemon = createDaemonClient(c.daemonUrl);
  const wallet = createWalletClient(c.wallet.url, {
    timeoutMs: scaled(120_000),
    ...(c.wallet.credentials ? { auth: c.wallet.credentials } : {}),
  });
  const close = async (): Promise<void> => {
    await Promise.all([daemon.close(), wallet.close()]);
  };
  return { daemon, wallet, close, [Symbol.asyncDispose]: close };
}

/**
 * Mine `blocks` blocks (to the miner wallet, which no test uses) and return the new height. Then the main wallet and
 * this worker's fresh wallets refresh to that height before it returns (`{ sync: false }`: they do not). Holds the
 * chain lock, so two workers never mine at once.
 */
export async function mine(context: SaltnetContext, blocks = 1, o: { sync?: boolean } = {}): Promise<number> {
  const c = checkContext(context);
  if (!Number.isInteger(blocks) || blocks < 1)
    throw new Error(`mine: blocks must be a whole number >= 1, got ${blocks}`);
  setTimeoutFactor(c.timeoutFactor);
  await using conn = connect(c);
  const height = await withChainLock(c, async () => {
    const target = (await conn.daemon.height()) + blocks;
    const mined = await mineTo(conn.daemon, target, {
      spec: backendSpec(c.backend),
      addresses: c.miner.addresses,
      timeoutMs: scaled(600_000),
      ...(c.mining ? { threads: c.mining.threads } : {}),
    });
    return mined.height;
  });
  if (o.sync !== false)
    await syncWallets(height, [{ name: 'main', client: conn.wallet }, ...liveFreshWallets()], {
      timeoutMs: scaled(120_000),
    });
  return height;
}

/** The control endpoint of a testnet of several nodes, or a clear error. */
function nodesControl(c: SaltnetContext, what: string): NonNullable<SaltnetContext['control']> {
  if (!c.nodes)
    throw new Error(`${what}: this testnet has one node, n0 (set nodes: 2 or more in the saltnet config or the setup)`);
  return controlOf(c, what);
}

/**
 * Cut the links between groups of nodes and open those within each: `partition(ctx, [['n0'], ['n1', 'n2']])`. From
 * then on each group mines its own chain (`mineOn`) until `heal`.
 */
export async function partition(context: SaltnetContext, groups: string[][]): Promise<void> {
  await operate(nodesControl(checkContext(context), 'partition'), 'partition', { groups });
}

/** Open every link again; `sync` then waits until the heavier chain has won on every node. */
export async function heal(context: SaltnetContext): Promise<void> {
  await operate(nodesControl(checkContext(context), 'heal'), 'heal', {});
}

/** Wait until the nodes of each group stand on one top block, then refresh every wallet of the testnet. */
export async function sync(context: SaltnetContext): Promise<void> {
  await operate(nodesControl(checkContext(context), 'sync'), 'sync', {});
}

/** Mine `blocks` blocks on one node of several (its group gets them); returns that node's new height. */
export async function mineOn(context: SaltnetContext, node: string, blocks = 1): Promise<number> {
  const c = checkContext(context);
  const res = await operate(nodesControl(c, 'mineOn'), 'mine', { blocks, node });
  return res.height;
}

export interface UseFreshWalletOptions extends FreshWalletOptions {
  /**
   * The beforeAll hook's timeout in ms (default: the context's hook timeout, which fits the backend and difficulty;
   * funding waits for blocks).
   */
  hookTimeout?: number;
}

/**
 * A fresh wallet for the enclosing describe block (or file): created in beforeAll, stopped in
 * afterAll. Returns a getter: call it inside tests and hooks, not while the file is collected.
 */
export function useFreshWallet(context: SaltnetContext, opts: UseFreshWalletOptions = {}): () => FreshWallet {
  const { hookTimeout, ...walletOpts } = opts;
  const c = checkContext(context);
  let wallet: FreshWallet | undefined;
  beforeAll(
    async () => {
      wallet = await freshWallet(c, walletOpts);
    },
    hookTimeout ?? c.timeouts?.hook ?? 120_000 * c.timeoutFactor,
  );
  afterAll(async () => {
    await wallet?.stop();
    wallet = undefined;
  });
  return () => {
    if (!wallet)
      throw new Error(
        `useFreshWallet${opts.name ? ` (${opts.name})` : ''}: the wallet is not there: read it inside a test or a hook after beforeAll, not while the file is collected (or its beforeAll failed: see that error)`,
      );
    return wallet;
  };
}

function controlOf(c: SaltnetContext, what: string): NonNullable<SaltnetContext['control']> {
  if (!c.control)
    throw new Error(
      `${what}: this testnet has no control endpoint (a global setup of an older saltnet started it); use saltnet/vitest/global-setup of this version`,
    );
  return c.control;
}

/**
 * The testnet's automine mode, or change it (`{ mineOnTx: true }`, `{ blockTime: 5 }`, `'off'`): the process that
 * owns the testnet mines, holding the chain lock, and syncs its wallets (the main one) after each block; a fresh
 * wallet sees a block after its next refresh. Returns the mode now.
 */
export async function automine(context: SaltnetContext, change?: AutomineChange): Promise<AutomineMode> {
  const c = checkContext(context);
  const res = await operate(controlOf(c, 'automine'), 'automine', change === undefined ? {} : { change });
  return res.mode;
}

/**
 * The faucet: pay `amount` (atomic units) of `asset` (default SAL1) from the main wallet to any address of the chain,
 * then mine until it is spendable there. Holds the chain lock while it runs: do not call it inside withChainLock.
 */
export async function fund(context: SaltnetContext, req: FundRequest): Promise<FundResult> {
  const c = checkContext(context);
  return operate(controlOf(c, 'fund'), 'fund', {
    address: req.address,
    amount: req.amount.toString(),
    ...(req.asset ? { asset: req.asset } : {}),
  });
}

/**
 * Any operation of the testnet by its name (harness/operations/: mine, fund, partition, … and those a fork
 * registers), its body as the control endpoint takes it: what `saltnet operate <name> <body>` asks.
 */
export function operation<N extends OperationName>(
  context: SaltnetContext,
  name: N,
  body: BodyOf<N>,
): Promise<AnswerOf<N>>;
export function operation(context: SaltnetContext, name: string, body: unknown): Promise<unknown>;
export function operation(context: SaltnetContext, name: string, body: unknown): Promise<unknown> {
  return operate(controlOf(checkContext(context), name), name, body);
}
