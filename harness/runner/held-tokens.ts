// Tokens a scenario's wallets created before its steps (`requires.tokens`, `wallets.<name>.tokens`). A token's
// supply is minted to its creator locked for 60 blocks, so a scenario that only needs a token to hold spent 61 blocks
// of its own on it: at the default difficulty on real Salvium, about a minute. Declared instead, the token is made
// where the wallet is funded: in a shared run above difficulty 1, in the cached chain at difficulty 1 with the
// wallets paid ahead (tokensAhead, once per machine); otherwise as the scenario starts (makeHeldTokens). Either way
// the scenario's first step finds the whole supply unlocked.
import { formatAmountShort } from '../coin/amounts.js';
import type { BackendSpec } from '../coin/backends.js';
import type { Testnet, WalletHandle } from '../testnet/testnet.js';
import type { AheadPayment } from './prepaid-wallets.js';
import { messageOf } from './infrastructure.js';
import type { TokenPayment } from '../scenario/needs.js';
import { payBetweenWallets, waitUnlocked } from './context.js';
import type { HeldToken } from '../scenario/model.js';
import { counted } from '../common/describe.js';

const assetOf = (t: HeldToken): string => `sal${t.ticker}`;
const atomic = (t: HeldToken, spec: BackendSpec): bigint => BigInt(t.supply) * 10n ** BigInt(spec.coin.decimals);

/** What the token's wallet sends: create_token with its ticker, supply and name (the ticker when it has none). */
async function create(h: WalletHandle, t: HeldToken): Promise<void> {
  const answer = await h.client.raw('create_token', { ticker: t.ticker, supply: t.supply, name: t.name ?? t.ticker });
  if (answer.error)
    throw new Error(
      `creating token ${t.ticker} for wallet ${h.name} before the steps: create_token answered ${answer.error.code} "${answer.error.message}"`,
    );
}

/** Whether the wallet holds some of the token already (created ahead, in the cached chain). */
async function holds(h: WalletHandle, t: HeldToken): Promise<boolean> {
  await h.client.refresh();
  return (await h.client.balance(assetOf(t))).balance > 0n;
}

/**
 * Create each token its wallet does not hold yet, then mine until every supply made is unlocked (nothing is mined
 * when they all were made ahead). Answers what create_token refused: a refused token does not keep the others (of
 * this wallet or of other scenarios) in the pool.
 */
async function makeAll(t: Testnet, tokens: { h: WalletHandle; token: HeldToken }[]): Promise<Error[]> {
  const made: typeof tokens = [];
  const refused: Error[] = [];
  for (const x of tokens) {
    // The pool takes a second creation of a ticker and never mines it (Salvium 1.1.3c): it is refused here instead.
    const first = made.find((m) => m.token.ticker === x.token.ticker);
    if (first) {
      refused.push(
        new Error(
          `creating token ${x.token.ticker} for wallet ${x.h.name} before the steps: wallet ${first.h.name} makes it already (a ticker is made once)`,
        ),
      );
      continue;
    }
    if (!(await holds(x.h, x.token)))
      try {
        await create(x.h, x.token);
      } catch (err) {
        refused.push(err as Error);
        continue;
      }
    made.push(x);
  }
  for (const { h, token } of made) await waitUnlocked(t, h, assetOf(token), atomic(token, t.backend.spec));
  return refused;
}

/** makeAll for one scenario as it starts: throws the first refusal. */
export async function makeHeldTokens(t: Testnet, tokens: { h: WalletHandle; token: HeldToken }[]): Promise<void> {
  const [refused] = await makeAll(t, tokens);
  if (refused) throw refused;
}

/**
 * The token payments between the scenario's wallets, once every held token is made: each paid by its maker and
 * waited for until unlocked (10 blocks for a token received).
 */
export async function payHeldTokens(
  t: Testnet,
  payments: readonly TokenPayment[],
  wallets: ReadonlyMap<string, WalletHandle>,
): Promise<void> {
  for (const p of payments)
    try {
      await payBetweenWallets(t, wallets.get(p.from)!, wallets.get(p.to)!, p.asset, p.amount);
    } catch (err) {
      throw new Error(
        `paying ${formatAmountShort(p.amount, p.asset)} to wallet ${p.to} before the steps, from wallet ${p.from} that makes it: ${messageOf(err)}`,
        { cause: err },
      );
    }
}

/**
 * The tokens of the wallets paid ahead, made on the testnet that paid them: each wallet opened, its tokens created,
 * the blocks mined until every supply is unlocked, the wallet closed again. Never throws: answers how many tokens
 * were not made (their scenarios make them as they start), and logs why.
 */
export async function tokensAhead(
  t: Testnet,
  pays: readonly AheadPayment[],
  paid: ReadonlySet<string>,
  log: (line: string) => void,
): Promise<number> {
  const tokens = pays.flatMap((p) => (p.tokens ?? []).map((token) => ({ wallet: p.wallet, token })));
  const todo = tokens.filter((w) => paid.has(w.wallet));
  if (todo.length === 0) return tokens.length;
  const t0 = Date.now();
  const h0 = await t.daemon.client.height().catch(() => 0);
  const opened = new Map<string, WalletHandle>();
  let missing = tokens.length;
  try {
    for (const w of todo) if (!opened.has(w.wallet)) opened.set(w.wallet, await t.addWallet(w.wallet));
    const refused = await makeAll(
      t,
      todo.map((w) => ({ h: opened.get(w.wallet)!, token: w.token })),
    );
    missing = tokens.length - todo.length + refused.length;
    for (const err of refused) log(`saltnet: ${err.message}; its scenario makes it as it starts`);
  } catch (err) {
    log(
      `saltnet: making the scenarios' tokens ahead stopped (${messageOf(err)}); they are made as their scenario starts`,
    );
  } finally {
    for (const name of opened.keys()) await t.removeWallet(name).catch(() => undefined);
  }
  const blocks = (await t.daemon.client.height().catch(() => h0)) - h0;
  log(
    `saltnet: made ${tokens.length - missing} of ${counted(tokens.length, 'token')} ahead in ${((Date.now() - t0) / 1000).toFixed(1)} s (${counted(blocks, 'block')})`,
  );
  return missing;
}
