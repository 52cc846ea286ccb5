// Mining a chain for a test wallet without giving it every block: a wallet that mined all 1201
// blocks holds over a thousand outputs, which slows its first scan and every transaction it
// builds. The blocks that only raise the height go to a separate miner wallet; the test wallet
// gets just enough blocks for its funds, placed as late as they can be while still unlocked at the
// target height (and, on Salvium, not below height 815, whose SAL coinbase is invalid from HF11).
//
// Funding one wallet from another (the scenario runner's extra wallets, the vitest integration's
// fresh wallets) is here too: a transfer in a few outputs, then a wait until they are unlocked.
import type { DaemonClient } from '../rpc/daemon.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { BackendSpec } from './backends.js';
import { addressAt, fundWallet, mineTo, type MineOptions, type MiningAddresses } from './mining.js';
import type { Progress } from './progress.js';

export interface PlanInput {
  /** Chain height now. */
  height: number;
  target: number;
  need: bigint;
  fundFromHeight: number;
  typicalReward: bigint;
  coinbaseUnlock: number;
  minFundBlocks: number;
}

export interface MiningPlan {
  /**
   * Mine to the miner wallet until this height, then to the test wallet until `fundedTo`, then to the miner until the
   * target.
   */
  fundFrom: number;
  fundedTo: number;
  /** Blocks planned for the test wallet. */
  fundBlocks: number;
}

/** Where the test wallet's blocks go (pure: tested on its own). Two blocks of margin cover a miner's overshoot. */
export function planMining(p: PlanInput): MiningPlan {
  if (p.need <= 0n) return { fundFrom: p.height, fundedTo: p.height, fundBlocks: 0 };
  const blocks = Math.max(Number((p.need + p.typicalReward - 1n) / p.typicalReward) + 1, p.minFundBlocks);
  // Block index i is spendable at chain height i + unlock: the last funding block must be <= target - unlock.
  const latest = p.target - p.coinbaseUnlock - blocks - 2;
  const fundFrom = Math.max(p.fundFromHeight, p.height, latest);
  return { fundFrom, fundedTo: fundFrom + blocks, fundBlocks: blocks };
}

export interface MineForOptions extends Omit<MineOptions, 'addresses' | 'progress'> {
  miner: MiningAddresses;
  main: MiningAddresses;
  target: number;
  need: bigint;
  asset?: string;
  progress?: Progress;
}

export interface MinedChain {
  height: number;
  plan: MiningPlan;
  /** Blocks mined after the plan because the funds were still locked or short. */
  extraBlocks: number;
}

/**
 * Mine to the target height, paying the test wallet only the blocks its funds need, and wait until they are unlocked.
 */
export async function mineForWallet(
  daemon: DaemonClient,
  wallet: WalletClient,
  o: MineForOptions,
): Promise<MinedChain> {
  // A restored or reused chain may hold the funds already: then nothing goes to the test wallet.
  await wallet.refresh();
  const held = o.need > 0n ? (await wallet.balance(o.asset ?? o.spec.fundAsset)).unlocked : 0n;
  const mined = await mineChain(daemon, { ...o, need: held >= o.need ? 0n : o.need });
  const extraBlocks = await topUp(daemon, wallet, o);
  return { ...mined, height: await daemon.height(), extraBlocks };
}

/**
 * Mine to the target height by the plan alone, without asking the test wallet anything: a cold
 * build needs no wallet RPC while it mines (the addresses come from the wallet CLI's restore).
 * Follow it with topUp once the wallet RPC runs.
 */
export async function mineChain(daemon: DaemonClient, o: MineForOptions): Promise<Omit<MinedChain, 'extraBlocks'>> {
  const { miner, main, target, need, progress, ...mine } = o;
  const start = await daemon.height();
  const plan = planMining({
    height: start,
    target,
    need,
    fundFromHeight: o.spec.fundFromHeight,
    typicalReward: o.spec.typicalReward,
    coinbaseUnlock: o.spec.coinbaseUnlock,
    minFundBlocks: o.spec.minFundBlocks,
  });
  // One progress line/bar over the three stretches.
  const segment = progress ? { update: (h: number) => progress.update(h), done: () => undefined } : undefined;
  const to = async (height: number, addresses: MiningAddresses): Promise<void> => {
    if ((await daemon.height()) < height)
      await mineTo(daemon, height, { ...mine, addresses, ...(segment ? { progress: segment } : {}) });
  };
  await to(plan.fundFrom, miner);
  await to(plan.fundedTo, main);
  await to(target, miner);
  const height = await daemon.height();
  progress?.done(height);
  return { height, plan };
}

/**
 * The plan is an estimate: mine more to the test wallet while its funds are short or still locked. Returns the blocks
 * mined.
 */
export async function topUp(daemon: DaemonClient, wallet: WalletClient, o: MineForOptions): Promise<number> {
  const { main, need } = o;
  const mine = {
    spec: o.spec,
    timeoutMs: o.timeoutMs,
    ...(o.threads ? { threads: o.threads } : {}),
    ...(o.pollMs ? { pollMs: o.pollMs } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  };
  const before = await daemon.height();
  if (need > 0n)
    await fundWallet(daemon, wallet, {
      ...mine,
      addresses: main,
      amount: need,
      ...(o.asset ? { asset: o.asset } : {}),
    });
  else await wallet.refresh();
  return (await daemon.height()) - before;
}

/**
 * Funding arrives as this many outputs (a Carrot tx carries at most 7 destinations), so a funded wallet can build
 * several transactions at once, as a mining wallet can.
 */
export const FUNDING_OUTPUTS = 6n;

export interface FundFromWalletOptions {
  daemon: DaemonClient;
  spec: BackendSpec;
  /** The wallet that pays (the testnet's main wallet). */
  from: WalletClient;
  /** The wallet that receives; it must be open in `client`. */
  to: { client: WalletClient; addresses: MiningAddresses };
  /** Blocks mined while the funds are locked go here (the main wallet's addresses: it earns back what it gives). */
  minerAddresses: MiningAddresses;
  /** The asset to send (Salvium: e.g. SAL1); undefined on Monero. */
  asset?: string;
  amount: bigint;
  /** How long mining until the funds are unlocked may take (default 600 000 ms). */
  timeoutMs?: number;
  /** Mining threads (the testnet's: Testnet.mining.threads). */
  threads?: number;
}

/**
 * Transfer `amount` of `asset` from one wallet to another (in FUNDING_OUTPUTS outputs, each a
 * sixth plus one atomic unit) and wait, mining, until the receiver holds `amount` unlocked.
 * Callers that share the paying wallet between processes must hold a lock around the call (see
 * harness/vitest): two transfers at once may pick the same inputs, and two miners stop each other.
 */
export async function fundFromWallet(o: FundFromWalletOptions): Promise<void> {
  await sendFunding({ ...o, to: o.to.addresses });
  await fundWallet(o.daemon, o.to.client, {
    spec: o.spec,
    addresses: o.minerAddresses,
    timeoutMs: o.timeoutMs ?? 600_000,
    amount: o.amount,
    ...(o.asset ? { asset: o.asset } : {}),
    ...(o.threads ? { threads: o.threads } : {}),
  });
}

/**
 * The transfer of a funding alone (FUNDING_OUTPUTS outputs to the address `to` has at this height), without waiting
 * for it: for wallets funded together, whose outputs then unlock together.
 */
export async function sendFunding(
  o: Pick<FundFromWalletOptions, 'daemon' | 'spec' | 'from' | 'asset' | 'amount'> & { to: MiningAddresses },
): Promise<void> {
  const height = await o.daemon.height();
  const address = addressAt(o.spec, o.to, height);
  const part = o.amount / FUNDING_OUTPUTS + 1n;
  const destinations = Array.from({ length: Number(FUNDING_OUTPUTS) }, () => ({
    address,
    amount: part,
    ...(o.asset ? { asset_type: o.asset } : {}),
  }));
  // The payer sees the blocks mined since its last funding (its change unlocked with the receiver's
  // funds): without this it waits for its own 20 s refresh and may find nothing unlocked.
  await o.from.refresh();
  await o.from.call(
    'transfer',
    o.asset ? { destinations, source_asset: o.asset, dest_asset: o.asset, tx_type: 3 } : { destinations },
  );
}
