// Main paying a load's wallets ahead: many outputs of one value (of the coin, or of the load's token). Main's change is
// locked for spendableAge blocks after each transaction, and main holds its funds in a few large outputs, so paid one
// transaction at a time the payments would take spendableAge blocks each. Main first spreads the funds over enough
// outputs (rounds of payments to itself, each round's outputs paying the next's, each round mined until spendable),
// then pays the wallets from them without waiting between transactions.
import { fundingAsset } from '../coin/backends.js';
import { formatAmountShort } from '../coin/amounts.js';
import { assetTransfer } from '../coin/transactions.js';
import { counted } from '../common/describe.js';
import { RpcError } from '../rpc/errors.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { Testnet } from '../testnet/types.js';
import { INPUTS_PER_TX } from './stats.js';
import { LoadSetupError } from './types.js';

export interface LoadPayment {
  address: string;
  amount: bigint;
}

/** Outputs a payment carries besides its change: a Carrot transaction holds at most 8 outputs. */
export const PAYMENT_OUTPUTS = 7;
/** Transactions one transfer_split request builds, at most: a request's answer stays quick. */
const TXS_PER_REQUEST = 7;

/**
 * Destinations one request pays: TXS_PER_REQUEST transactions of the coin, or one of a token (its ROLLUP pays for the
 * request's first token transaction alone on Salvium 1.1.3c: the others would wait in the pool for ever).
 */
const perRequest = (t: Testnet, asset: string | undefined): number =>
  PAYMENT_OUTPUTS * (isToken(t, asset) ? 1 : TXS_PER_REQUEST);
/** Rounds of spreading, at most: each multiplies main's outputs by up to PAYMENT_OUTPUTS / INPUTS_PER_TX. */
const MAX_ROUNDS = 6;

/**
 * Send `destinations` (their asset_type set) from `client` in `asset` (undefined: the backend's only coin), and
 * answer the payment's hash. A token's goes by transfer_split, as the wallet sends it in two transactions (its ROLLUP,
 * which pays the fee in the coin, then the token's, mined a block later) and `transfer` refuses more than one; the
 * hash is the token's transaction's. `from`: the subaddresses to spend from (default: all of account 0).
 */
export async function sendPayment(
  t: Testnet,
  client: WalletClient,
  destinations: { address: string; amount: bigint }[],
  asset: string | undefined,
  from: { subaddr_indices?: number[] } = {},
): Promise<string> {
  if (isToken(t, asset)) {
    const params = { ...assetTransfer(destinations, asset!), ...from };
    const r = await client.call<{ tx_hash_list: string[] }>('transfer_split', params);
    return r.tx_hash_list.at(-1)!;
  }
  const r = await client.call<{ tx_hash: string }>('transfer', {
    ...(asset ? assetTransfer(destinations, asset) : { destinations }),
    ...from,
  });
  return r.tx_hash;
}

const isToken = (t: Testnet, asset: string | undefined): boolean => !!asset && asset !== t.backend.spec.fundAsset;

/**
 * Pay `payments` (all of one amount) in `asset` from main: spread main's funds first when they take more than one
 * transaction, then pay them a request at a time, one after the other. A refused request is mined until main's change
 * is spendable and tried once more; a refusal then is final, and says what main holds.
 */
export async function payAll(
  t: Testnet,
  payments: LoadPayment[],
  asset: string | undefined,
  signal?: AbortSignal,
): Promise<void> {
  if (payments.length === 0) return;
  const txs = Math.ceil(payments.length / PAYMENT_OUTPUTS);
  if (txs > 1) await spread(t, asset, txs * INPUTS_PER_TX, partValue(t, payments[0]!.amount), signal);
  // A request that fails other than by the wallet's refusal says what main holds too.
  const send: Send = (tn, chunk, a) =>
    sendSplit(tn, chunk, a).catch(async (err: unknown) => {
      throw err instanceof RpcError ? err : await setupError(t, err, payments, asset);
    });
  const refused = await sendRequests(t, payments, asset, signal, send);
  if (refused) throw await setupError(t, refused, payments, asset);
}

type Send = (t: Testnet, payments: LoadPayment[], asset: string | undefined) => Promise<void>;

/** One transfer_split request from main: its transactions of PAYMENT_OUTPUTS outputs each. */
async function sendSplit(t: Testnet, payments: LoadPayment[], asset: string | undefined): Promise<void> {
  const destinations = payments.map((p) => ({ ...p, ...(asset ? { asset_type: asset } : {}) }));
  await t.wallet.client.call('transfer_split', asset ? assetTransfer(destinations, asset) : { destinations });
}

/** What one output must hold so that INPUTS_PER_TX of them pay a transaction of PAYMENT_OUTPUTS outputs of `amount`. */
const partValue = (t: Testnet, amount: bigint): bigint =>
  (amount * BigInt(PAYMENT_OUTPUTS) + feeRoom(t)) / BigInt(INPUTS_PER_TX) + 1n;

/** Room for a transaction's fee in the value of the outputs it spends (a token's fee is paid by its ROLLUP). */
const feeRoom = (t: Testnet): bigint => t.backend.spec.feeMargin;

/**
 * Have main hold at least `parts` outputs of at least `value` of `asset`, unlocked: rounds of payments to itself,
 * each of the round's transactions spending INPUTS_PER_TX outputs of the round before into PAYMENT_OUTPUTS of the
 * next. The first round spends whatever main holds, and is the deepest of the rounds main can pay from it: a main of
 * many mined outputs pays the last round's outputs at once, one of a few large outputs starts higher up (the first
 * request of each round, from the last back, tells: a refused request sends nothing). Main's unlocked funds that do
 * not cover the last round leave main as it is: the payments then go a transaction at a time, as they do past a round
 * the wallet refused.
 */
async function spread(
  t: Testnet,
  asset: string | undefined,
  parts: number,
  value: bigint,
  signal: AbortSignal | undefined,
): Promise<void> {
  // Each round's outputs, from the last back: INPUTS_PER_TX of a round's pay each transaction of the next.
  const counts = [parts];
  while (counts[0]! > PAYMENT_OUTPUTS && counts.length < MAX_ROUNDS)
    counts.unshift(INPUTS_PER_TX * Math.ceil(counts[0]! / PAYMENT_OUTPUTS));
  const values = counts.map(() => value);
  for (let r = counts.length - 2; r >= 0; r--) values[r] = partValue(t, values[r + 1]!);
  const least = BigInt(parts) * value + feeRoom(t);
  const held = await t.wallet.client.balance(asset ?? fundingAsset(t.backend.spec)).catch(() => undefined);
  if (!held || held.unlocked < least) return;
  const size = perRequest(t, asset);
  const self = t.wallet.address;
  const round = (r: number): LoadPayment[] =>
    Array.from({ length: counts[r]! }, () => ({ address: self, amount: values[r]! }));
  let first = counts.length - 1;
  while (first >= 0 && (await refusal(sendSplit(t, round(first).slice(0, size), asset)))) first--;
  if (first < 0) return;
  for (let r = first; r < counts.length; r++) {
    signal?.throwIfAborted();
    // Spreading only speeds the payments up: a round refused after a settle leaves what was spread so far.
    if (await sendRequests(t, round(r).slice(r === first ? size : 0), asset, signal)) return;
    await settle(t, asset);
  }
}

/** The wallet's refusal of a request (an RpcError), or undefined when it took it; any other failure is thrown. */
async function refusal(sent: Promise<void>): Promise<RpcError | undefined> {
  try {
    await sent;
    return undefined;
  } catch (err) {
    if (err instanceof RpcError) return err;
    throw err;
  }
}

/**
 * Send `payments` from main a request at a time; a refused request is sent again once main's change is spendable.
 * Answers the refusal of a request refused again (the requests before it stay sent, the rest are not sent).
 */
async function sendRequests(
  t: Testnet,
  payments: LoadPayment[],
  asset: string | undefined,
  signal: AbortSignal | undefined,
  send: Send = sendSplit,
): Promise<RpcError | undefined> {
  const size = perRequest(t, asset);
  for (let i = 0; i < payments.length; i += size) {
    signal?.throwIfAborted();
    const chunk = payments.slice(i, i + size);
    if (!(await refusal(send(t, chunk, asset)))) continue;
    await settle(t, asset);
    const again = await refusal(send(t, chunk, asset));
    if (again) return again;
  }
  return undefined;
}

async function setupError(
  t: Testnet,
  err: unknown,
  payments: LoadPayment[],
  asset: string | undefined,
): Promise<Error> {
  const named = asset ?? fundingAsset(t.backend.spec);
  const need = payments.reduce((sum, p) => sum + p.amount, 0n);
  const held = await t.wallet.client.balance(named).catch(() => undefined);
  const holds = held
    ? `main holds ${formatAmountShort(held.balance, named)}, ${formatAmountShort(held.unlocked, named)} of it unlocked`
    : 'what main holds is unknown';
  const answered = err instanceof RpcError ? `${err.code} ${err.rpcMessage}` : (err as Error).message;
  return new LoadSetupError(
    `cannot fund the load's wallets (${counted(payments.length, 'output')} of ${formatAmountShort(payments[0]?.amount ?? 0n, named)}, ${formatAmountShort(need, named)} in all) from main: it answered ${answered}; ${holds}`,
  );
}

/**
 * Mine main's payments until they are spendable (spendableAge + 1 blocks; one more for a token's, which goes in the
 * block after its ROLLUP), and until the pool is empty.
 */
export async function settle(t: Testnet, asset: string | undefined): Promise<void> {
  await t.mine((t.backend.spec.spendableAge ?? 10) + 1 + (isToken(t, asset) ? 1 : 0));
  for (let i = 0; i < 5 && (await t.daemon.client.poolHashes()).length > 0; i++) await t.mine(1);
}
