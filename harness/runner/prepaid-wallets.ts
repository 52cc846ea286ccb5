// Funding ahead (shared isolation, above difficulty 1). The wallets of every scenario a worker's testnet may run
// are created and paid as soon as the testnet is up: a transfer each, then eleven blocks for them all, so no scenario
// waits its own eleven blocks (at the default difficulty, most of a short scenario's time). A scenario opens its
// wallets (addWallet opens a wallet whose files are there), finds its funds unlocked, and starts. The payments are
// those of funding at the start (FUNDING_OUTPUTS outputs, the same amounts), so every balance a scenario sees is the
// same; only their heights are earlier. What cannot be paid ahead (an asset other than the funding one, a payment
// that failed) is paid as the scenario starts.
import type { BackendSpec } from '../coin/backends.js';
import { sendFunding } from '../testnet/mining/funding.js';
import type { Testnet } from '../testnet/types.js';
import { messageOf } from './infrastructure.js';
import { heldTokens, walletPayments } from '../scenario/needs.js';
import type { HeldToken, Scenario } from '../scenario/model.js';
import { counted } from '../common/describe.js';

export interface AheadPayment {
  /** The wallet's name on the testnet: `<prefix>-<wallet>` as prepareShared names it, or its own on a fresh one. */
  wallet: string;
  asset: string | undefined;
  amount: bigint;
  /** Tokens the wallet creates once paid (held-tokens.ts): its scenario's `tokens`. */
  tokens?: HeldToken[];
}

/** How the log lines name the wallets paid ahead: a run's scenarios' (default), or the vitest setup's fresh wallets. */
export interface AheadWords {
  /** `funded 6 scenario wallets ahead`: the wallets counted. */
  wallets(n: number): string;
  /** `funding the scenarios' wallets at difficulty 1` */
  the: string;
  /** `the others are funded as their scenario starts` */
  otherwise: string;
  /** `saved snapshot K: later runs of these scenarios start with their wallets funded` */
  later: string;
}

export const SCENARIO_WORDS: AheadWords = {
  wallets: (n) => counted(n, 'scenario wallet'),
  the: "the scenarios' wallets",
  otherwise: 'as their scenario starts',
  later: 'later runs of these scenarios start with their wallets funded',
};

/** What to pay ahead for these scenarios (each with the prefix its wallets get): one payment per funded wallet. */
export function aheadPayments(items: { s: Scenario; prefix: string }[], spec: BackendSpec): AheadPayment[] {
  // A scenario of several nodes gets a testnet of its own (its wallets are paid ahead there: own-testnet-funds.ts).
  return items.flatMap(({ s, prefix }) => (s.nodes > 1 ? [] : scenarioPayments(s, spec, (w) => `${prefix}-${w}`)));
}

/**
 * The payments a scenario's wallets would get as it starts, each wallet named on the testnet by `name`: none when
 * they cannot all be paid ahead (an asset other than the funding one, a wallet paid twice).
 */
export function scenarioPayments(s: Scenario, spec: BackendSpec, name: (wallet: string) => string): AheadPayment[] {
  const asset = spec.fundAsset;
  const pays = walletPayments(s, spec).filter((p) => p.amount > 0n);
  const names = pays.map((p) => p.wallet);
  if (pays.some((p) => asset !== undefined && p.asset !== asset) || new Set(names).size !== names.length) return [];
  const held = heldTokens(s);
  return pays.map((p) => {
    const tokens = held.filter((w) => w.wallet === p.wallet).map((w) => w.token);
    return { wallet: name(p.wallet), asset, amount: p.amount, ...(tokens.length ? { tokens } : {}) };
  });
}

/**
 * Whether a testnet mining at this difficulty funds ahead: only where blocks cost (above difficulty 1). At difficulty 1
 * a scenario's own funding blocks take about a second, less than opening a wallet created ahead costs again (real
 * Salvium rebuilds its subaddress map at every load).
 */
export function fundsAhead(difficulty: number): boolean {
  return difficulty > 1;
}

/**
 * Create the wallets, pay them from main and mine until every payment is in a block and unlocked, the pool empty
 * again. Never throws: answers the wallets paid (their scenarios only open them), and logs what was not.
 */
export async function fundAhead(
  t: Testnet,
  pays: AheadPayment[],
  log: (line: string) => void,
  words: AheadWords = SCENARIO_WORDS,
  /** Create the wallets with the testnet's subaddress lookahead (Testnet.createWallets). */
  lookahead = false,
): Promise<Set<string>> {
  const paid = new Set<string>();
  if (pays.length === 0) return paid;
  const t0 = Date.now();
  let h0: number | undefined;
  // Paid since the last settle.
  let unsettled = false;
  const settled = async (): Promise<void> => {
    await settle(t);
    unsettled = false;
  };
  try {
    h0 = await t.daemon.client.height();
    const addresses = await t.createWallets(
      pays.map((p) => p.wallet),
      { lookahead },
    );
    const from = t.wallets().get('main')!.client;
    for (const p of pays) {
      await sendFunding({
        daemon: t.daemon.client,
        spec: t.backend.spec,
        from,
        to: addresses.get(p.wallet)!,
        amount: p.amount,
        ...(p.asset ? { asset: p.asset } : {}),
        // The payer's change from the payments before is locked: spendable again once they are settled. Nothing
        // paid since the last settle: mining would unlock nothing more.
        whenShort: async (paidSome) => {
          if (!unsettled && !paidSome) return false;
          await settled();
          return true;
        },
      });
      paid.add(p.wallet);
      unsettled = true;
    }
    await settled();
  } catch (err) {
    log(
      `saltnet: funding ${words.the} ahead stopped after ${paid.size} of ${pays.length} (${messageOf(err)}); the others are funded ${words.otherwise}`,
    );
    // What was paid is settled all the same: no scenario starts with these payments in the pool. (A scenario whose
    // wallet is still locked waits for it as it starts.)
    if (unsettled) await settled().catch(() => undefined);
  }
  const blocks = h0 === undefined ? 0 : (await t.daemon.client.height().catch(() => h0!)) - h0;
  log(
    `saltnet: funded ${words.wallets(paid.size)} ahead in ${((Date.now() - t0) / 1000).toFixed(1)} s (${counted(blocks, 'block')})`,
  );
  return paid;
}

/**
 * Mine the payments into blocks until they are spendable: spendableAge + 1 blocks, one more than payments mined in the
 * first block need, so that payments spread over two blocks (a full block, a template made before the last payment)
 * are spendable too, and the simulator and real Salvium mine the same number of blocks (`saltnet diff` compares
 * heights). More only when the pool still holds payments after that.
 */
async function settle(t: Testnet): Promise<void> {
  const age = t.backend.spec.spendableAge ?? 10;
  await t.mine(age + 1);
  let more = false;
  for (let i = 0; i < 5 && Number((await t.daemon.client.getInfo()).tx_pool_size ?? 0) > 0; i++) {
    await t.mine(1);
    more = true;
  }
  if (more) await t.mine(age - 1);
}
