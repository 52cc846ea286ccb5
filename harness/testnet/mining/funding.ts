// Mining a chain for a test wallet without giving it every block: a wallet that mined all 1201
// blocks holds over a thousand outputs, which slows its first scan and every transaction it
// builds. The blocks that only raise the height go to a separate miner wallet; the test wallet
// gets just enough blocks for its funds, placed as late as they can be while still unlocked at the
// target height (and, on Salvium, not below height 815, whose SAL coinbase is invalid from HF11).
//
// Funding one wallet from another (the scenario runner's extra wallets, the vitest integration's
// fresh wallets) is here too: a transfer in a few outputs (several transfers for a large amount: a
// transaction spends at most 64 inputs), then a wait until they are unlocked.
import type { DaemonClient } from '../../rpc/daemon.js';
import type { WalletClient } from '../../rpc/wallet.js';
import { RpcError } from '../../rpc/errors.js';
import { fundingAsset, type BackendSpec } from '../../coin/backends.js';
import { addressAt, fundWallet, mineTo, type MineOptions, type MiningAddresses } from './mining.js';
import type { Progress } from './progress.js';
import { assetTransfer } from '../../coin/transactions.js';

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

/**
 * The blocks of `typicalReward` each that pay a wallet `need` (one more than they add up to, for a reward below the
 * typical one): what funding `need` costs in mining, before the plan's floor of minFundBlocks.
 */
export function fundingBlocks(need: bigint, typicalReward: bigint): number {
  return need <= 0n ? 0 : Number((need + typicalReward - 1n) / typicalReward) + 1;
}

/** Where the test wallet's blocks go (pure: tested on its own). Two blocks of margin cover a miner's overshoot. */
export function planMining(p: PlanInput): MiningPlan {
  if (p.need <= 0n) return { fundFrom: p.height, fundedTo: p.height, fundBlocks: 0 };
  const blocks = Math.max(fundingBlocks(p.need, p.typicalReward), p.minFundBlocks);
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
 * Each funding transfer arrives as this many outputs (a Carrot tx carries at most 7 destinations), so a funded wallet
 * can build several transactions at once, as a mining wallet can.
 */
export const FUNDING_OUTPUTS = 6n;

/**
 * The inputs one funding transfer is planned to spend: a Carrot transaction spends at most 64, and the paying wallet
 * holds mostly coinbase outputs of about the backend's typical reward (a conservative one); the rest is room for
 * smaller outputs among its largest and for the fee. A larger funding goes in several transfers.
 */
export const FUNDING_TX_INPUTS = 48n;

/**
 * The amounts of the transfers that pay `amount`, each at most `most`, as even as can be (one transfer when it fits).
 */
export function fundingTransfers(amount: bigint, most: bigint): bigint[] {
  if (amount <= most || most <= 0n) return [amount];
  const n = (amount + most - 1n) / most;
  const each = amount / n;
  return Array.from({ length: Number(n) }, (_, i) => each + (BigInt(i) < amount % n ? 1n : 0n));
}

/** The wallet would need more inputs than one transaction takes (-18, or real input selection's top-64 refusal). */
const tooLarge = (err: unknown): boolean =>
  err instanceof RpcError && (err.code === -18 || /usable money in top \d+ inputs/.test(err.rpcMessage));

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
 * Transfer `amount` of `asset` from one wallet to another (sendFunding: FUNDING_OUTPUTS outputs a
 * transfer, several transfers for a large amount) and wait, mining, until the receiver holds `amount`
 * unlocked. Callers that share the paying wallet between processes must hold a lock around the call (see
 * harness/vitest): two transfers at once may pick the same inputs, and two miners stop each other.
 */
export async function fundFromWallet(o: FundFromWalletOptions): Promise<void> {
  const mine = {
    spec: o.spec,
    addresses: o.minerAddresses,
    timeoutMs: o.timeoutMs ?? 600_000,
    ...(o.threads ? { threads: o.threads } : {}),
  };
  await sendFunding({
    ...o,
    to: o.to.addresses,
    // The payer's change from the transfers before is locked: spendable again after spendableAge blocks.
    whenShort: async (paidSome) => {
      if (!paidSome) return false;
      await mineTo(o.daemon, (await o.daemon.height()) + (o.spec.spendableAge ?? 10), mine);
      return true;
    },
  });
  await fundWallet(o.daemon, o.to.client, { ...mine, amount: o.amount, ...(o.asset ? { asset: o.asset } : {}) });
}

export interface SendFundingOptions extends Pick<
  FundFromWalletOptions,
  'daemon' | 'spec' | 'from' | 'asset' | 'amount'
> {
  to: MiningAddresses;
  /**
   * A transfer failed for want of unlocked funds (or anything else that is not its size): make some spendable and
   * answer true to try it once more, or false to fail with it. `paidSome`: a transfer of this funding went already
   * (its change is locked).
   */
  whenShort?: (paidSome: boolean) => Promise<boolean>;
}

/**
 * The transfers of a funding alone, without waiting for them: for wallets funded together, whose outputs then unlock
 * together. Each transfer pays FUNDING_OUTPUTS outputs to the address `to` has at this height; the fund asset goes in
 * transfers of at most FUNDING_TX_INPUTS typical rewards (fundingTransfers), and a transfer the wallet finds too large
 * all the same is split in two.
 */
export async function sendFunding(o: SendFundingOptions): Promise<void> {
  const height = await o.daemon.height();
  const address = addressAt(o.spec, o.to, height);
  const fundAsset = (o.asset ?? fundingAsset(o.spec)) === fundingAsset(o.spec);
  const most = fundAsset ? o.spec.typicalReward * FUNDING_TX_INPUTS : o.amount;
  const queue = fundingTransfers(o.amount, most);
  // The payer sees the blocks mined since its last funding (its change unlocked with the receiver's
  // funds): without this it waits for its own 20 s refresh and may find nothing unlocked.
  await o.from.refresh();
  let paidSome = false;
  let retried = false;
  while (queue.length > 0) {
    const part = queue[0]!;
    try {
      await sendPart(o, address, part, fundAsset);
    } catch (err) {
      // Halves down to a part of about one reward (an input or two): below that, size is not what the wallet lacks.
      if (fundAsset && tooLarge(err) && part > o.spec.typicalReward) {
        queue.splice(0, 1, part / 2n, part - part / 2n);
        continue;
      }
      if (retried || !o.whenShort || !(await o.whenShort(paidSome))) throw err;
      retried = true;
      await o.from.refresh();
      continue;
    }
    queue.shift();
    paidSome = true;
    retried = false;
  }
}

/**
 * One transfer of a funding: `amount` in FUNDING_OUTPUTS outputs, each a sixth plus one atomic unit. A token goes by
 * transfer_split: its payment is two transactions (the ROLLUP that pays its fee in the funding asset, then its own).
 */
async function sendPart(o: SendFundingOptions, address: string, amount: bigint, fundAsset: boolean): Promise<void> {
  const part = amount / FUNDING_OUTPUTS + 1n;
  const destinations = Array.from({ length: Number(FUNDING_OUTPUTS) }, () => ({
    address,
    amount: part,
    ...(o.asset ? { asset_type: o.asset } : {}),
  }));
  await o.from.call(
    fundAsset ? 'transfer' : 'transfer_split',
    o.asset ? assetTransfer(destinations, o.asset) : { destinations },
  );
}
