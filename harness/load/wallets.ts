// A load's wallets: created on the testnet, each paid `outputs` outputs from main ahead (transfers of PAYMENT_OUTPUTS
// outputs, mined until spendable: spendableAge + 1 blocks, once for all of them), then
// opened, each with a wallet RPC of its own, so that they send side by side. Closed again when the load ends (their
// files stay in the testnet's workdir).
import { fundingAsset } from '../coin/backends.js';
import { formatAmountShort } from '../coin/amounts.js';
import { assetTransfer } from '../coin/transactions.js';
import { counted } from '../common/describe.js';
import { RpcError } from '../rpc/errors.js';
import type { WalletClient } from '../rpc/wallet.js';
import { addressAt } from '../testnet/mining/mining.js';
import type { Testnet } from '../testnet/types.js';

export interface LoadWallet {
  name: string;
  client: WalletClient;
  address: string;
  /** A subaddress (account 0, index 1) the others pay when the mix has subaddresses. */
  subaddress?: string;
}

export interface LoadWallets {
  wallets: LoadWallet[];
  blocks: number;
  seconds: number;
}

/** Outputs a payment from main carries: a Carrot transaction holds at most 8 outputs, the change one of them. */
const PAYMENT_OUTPUTS = 7;

/** The load could not fund its wallets from main: what main answered and holds. */
export class LoadSetupError extends Error {}

/** The value of each output a load wallet gets: the backend's fee margin, room for a transaction's fee and amount. */
export const outputValue = (t: Testnet): bigint => t.backend.spec.feeMargin;

/**
 * Create `count` wallets, pay each `outputs` outputs, mine until they are spendable and open them. `signal` gives it
 * up between payments; the wallets opened so far are closed again.
 */
export async function prepareWallets(
  t: Testnet,
  o: { count: number; outputs: number; subaddresses: boolean; signal?: AbortSignal; detail?: (l: string) => void },
): Promise<LoadWallets> {
  const t0 = Date.now();
  const h0 = await t.height();
  const stamp = Date.now().toString(36);
  const names = Array.from({ length: o.count }, (_, i) => `load-${stamp}-${i}`);
  const addresses = await t.createWallets(names);
  const height = await t.height();
  const targets = names.map((n) => addressAt(t.backend.spec, addresses.get(n)!, height));
  await payAll(t, targets, o.outputs, o.signal);
  o.detail?.(`saltnet: load: paid ${counted(o.count, 'wallet')} ${counted(o.outputs, 'output')} each; mining them`);
  await settle(t);
  const wallets: LoadWallet[] = [];
  try {
    for (const [i, name] of names.entries()) {
      o.signal?.throwIfAborted();
      const handle = await t.addWallet(name);
      wallets.push({ name, client: handle.client, address: targets[i]! });
    }
    for (const w of wallets) {
      await w.client.refresh();
      if (o.subaddresses)
        w.subaddress = (await w.client.call<{ address: string }>('create_address', { account_index: 0 })).address;
    }
  } catch (err) {
    await closeWallets(t, wallets);
    throw err;
  }
  return { wallets, blocks: (await t.height()) - h0, seconds: (Date.now() - t0) / 1000 };
}

/** Stop the wallets' RPCs (their files stay); never throws. */
export async function closeWallets(t: Testnet, wallets: readonly LoadWallet[]): Promise<void> {
  for (const w of wallets) await t.removeWallet(w.name).catch(() => undefined);
}

/**
 * Pay each address `outputs` outputs, a transfer of PAYMENT_OUTPUTS at a time, the wallets in turn. Main's change is
 * locked after each transfer: when it has nothing unlocked left, the transfers so far are mined until spendable and
 * the payment is tried once more.
 */
async function payAll(t: Testnet, targets: string[], outputs: number, signal: AbortSignal | undefined): Promise<void> {
  const main = t.wallets().get('main')!.client;
  const asset = t.backend.spec.fundAsset;
  const value = outputValue(t);
  const rounds = Math.ceil(outputs / PAYMENT_OUTPUTS);
  let sinceSettle = 0;
  for (let r = 0; r < rounds; r++) {
    for (const address of targets) {
      signal?.throwIfAborted();
      const n = Math.min(PAYMENT_OUTPUTS, outputs - r * PAYMENT_OUTPUTS);
      const destinations = Array.from({ length: n }, () => ({
        address,
        amount: value,
        ...(asset ? { asset_type: asset } : {}),
      }));
      const params = asset ? assetTransfer(destinations, asset) : { destinations };
      try {
        await main.call('transfer', params);
      } catch (err) {
        if (!(err instanceof RpcError) || sinceSettle === 0) throw await setupError(t, err, targets, outputs);
        await settle(t);
        sinceSettle = 0;
        await main.call('transfer', params).catch(async (again: unknown) => {
          throw await setupError(t, again, targets, outputs);
        });
      }
      sinceSettle++;
    }
  }
}

async function setupError(t: Testnet, err: unknown, targets: string[], outputs: number): Promise<Error> {
  const asset = fundingAsset(t.backend.spec);
  const need = outputValue(t) * BigInt(outputs * targets.length);
  const held = await t
    .wallets()
    .get('main')!
    .client.balance(asset)
    .catch(() => undefined);
  const holds = held
    ? `main holds ${formatAmountShort(held.balance, asset)}, ${formatAmountShort(held.unlocked, asset)} of it unlocked`
    : 'what main holds is unknown';
  const answered = err instanceof RpcError ? `${err.code} ${err.rpcMessage}` : (err as Error).message;
  return new LoadSetupError(
    `cannot fund the load's ${counted(targets.length, 'wallet')} (${counted(outputs, 'output')} of ${formatAmountShort(outputValue(t), asset)} each, ${formatAmountShort(need, asset)} in all) from main: it answered ${answered}; ${holds}`,
  );
}

/** Mine the payments until they are spendable (spendableAge + 1 blocks), and until the pool is empty. */
async function settle(t: Testnet): Promise<void> {
  await t.mine((t.backend.spec.spendableAge ?? 10) + 1);
  for (let i = 0; i < 5 && (await t.daemon.client.poolHashes()).length > 0; i++) await t.mine(1);
}
