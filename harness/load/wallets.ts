// A load's wallets: created on the testnet and opened, each with a wallet RPC of its own, so that they send side by
// side; given what the mix needs (a subaddress the others pay, deposit subaddresses the others sweep to); paid their
// outputs from main ahead (payments.ts: of the coin, of the load's token, one in each deposit subaddress), mined
// until spendable. Closed again when the load ends (their files stay in the testnet's workdir).
import { counted } from '../common/describe.js';
import type { WalletClient } from '../rpc/wallet.js';
import { addressAt } from '../testnet/mining/mining.js';
import type { Testnet } from '../testnet/types.js';
import { payAll, settle, type LoadPayment } from './payments.js';

export interface LoadWallet {
  name: string;
  client: WalletClient;
  address: string;
  /** A subaddress (account 0, index 1) the others pay when the mix has subaddresses. */
  subaddress?: string;
  /**
   * Deposit subaddresses when the mix has sweeps: each paid one output ahead; the wallet sweeps them in turn (`next`)
   * to the next wallet's, which sweeps it on in its turn.
   */
  deposits?: { indices: number[]; addresses: string[]; next: number };
}

export interface LoadWallets {
  wallets: LoadWallet[];
  blocks: number;
  seconds: number;
}

/** What each wallet is paid ahead: outputs of the coin, outputs of `token` (its asset), deposit subaddresses. */
export interface FundingPlan {
  outputs: number;
  tokenOutputs: number;
  deposits: number;
  token?: string;
}

/** Subaddresses create_address makes in one call, at most. */
const CREATE_ADDRESS_MAX = 64;

/** The value of each output a load wallet gets: the backend's fee margin, room for a transaction's fee and amount. */
export const outputValue = (t: Testnet): bigint => t.backend.spec.feeMargin;
/** The value of each token output (its atomic units): a whole token, many times what a token transaction moves. */
export const tokenOutputValue = (t: Testnet): bigint => 10n ** BigInt(t.backend.spec.coin.decimals);

/**
 * Create `count` wallets, open them, pay each what `plan` says and mine until it is spendable. `signal` gives it up
 * between payments; the wallets opened so far are closed again.
 */
export async function prepareWallets(
  t: Testnet,
  o: { count: number; plan: FundingPlan; subaddresses: boolean; signal?: AbortSignal; detail?: (l: string) => void },
): Promise<LoadWallets> {
  const t0 = Date.now();
  const h0 = await t.height();
  const stamp = Date.now().toString(36);
  const names = Array.from({ length: o.count }, (_, i) => `load-${stamp}-${i}`);
  const addresses = await t.createWallets(names);
  const height = await t.height();
  const { plan } = o;
  const wallets: LoadWallet[] = [];
  try {
    for (const name of names) {
      o.signal?.throwIfAborted();
      const handle = await t.addWallet(name);
      wallets.push({ name, client: handle.client, address: addressAt(t.backend.spec, addresses.get(name)!, height) });
    }
    for (const w of wallets) {
      if (o.subaddresses) w.subaddress = (await createAddresses(w.client, 1)).addresses[0]!;
      if (plan.deposits > 0) w.deposits = { ...(await createAddresses(w.client, plan.deposits)), next: 0 };
    }
    const coin: LoadPayment[] = [];
    const token: LoadPayment[] = [];
    for (const w of wallets) {
      for (let i = 0; i < plan.outputs; i++) coin.push({ address: w.address, amount: outputValue(t) });
      for (const address of w.deposits?.addresses ?? []) coin.push({ address, amount: outputValue(t) });
      for (let i = 0; i < plan.tokenOutputs; i++) token.push({ address: w.address, amount: tokenOutputValue(t) });
    }
    await payAll(t, coin, t.backend.spec.fundAsset, o.signal);
    if (plan.token) await payAll(t, token, plan.token, o.signal);
    o.detail?.(
      `saltnet: load: paid ${counted(o.count, 'wallet')} ${describePlan(plan)} each; mining until they are spendable`,
    );
    await settle(t, plan.token);
    for (const w of wallets) await w.client.refresh();
  } catch (err) {
    await closeWallets(t, wallets);
    throw err;
  }
  return { wallets, blocks: (await t.height()) - h0, seconds: (Date.now() - t0) / 1000 };
}

function describePlan(p: FundingPlan): string {
  const parts = [counted(p.outputs, 'output')];
  if (p.tokenOutputs > 0) parts.push(`${counted(p.tokenOutputs, 'output')} of ${p.token}`);
  if (p.deposits > 0) parts.push(`${counted(p.deposits, 'deposit subaddress', 'deposit subaddresses')} paid one each`);
  return parts.join(', ');
}

/** `count` new subaddresses of account 0: their indices and addresses. */
async function createAddresses(
  client: WalletClient,
  count: number,
): Promise<{ indices: number[]; addresses: string[] }> {
  const r = { indices: [] as number[], addresses: [] as string[] };
  for (let left = count; left > 0; left -= CREATE_ADDRESS_MAX) {
    const made = await client.call<{ address_indices: number[]; addresses: string[] }>('create_address', {
      account_index: 0,
      count: Math.min(left, CREATE_ADDRESS_MAX),
    });
    r.indices.push(...made.address_indices);
    r.addresses.push(...made.addresses);
  }
  return r;
}

/** Stop the wallets' RPCs (their files stay); never throws. */
export async function closeWallets(t: Testnet, wallets: readonly LoadWallet[]): Promise<void> {
  for (const w of wallets) await t.removeWallet(w.name).catch(() => undefined);
}
