// The token a load's `tokens` transactions move: LOAD, made once per testnet by its main wallet (create_token burns
// the backend's token cost, and the supply is minted to main locked for 60 blocks); main pays the load's wallets
// their outputs of it as it pays their coin (payments.ts).
import { formatAmountShort } from '../coin/amounts.js';
import type { WalletClient } from '../rpc/wallet.js';
import type { Testnet } from '../testnet/types.js';
import { LoadSetupError } from './types.js';

export const LOAD_TICKER = 'LOAD';
/** The load's token's asset type (`sal` + ticker, as every Salvium token's). */
export const LOAD_ASSET = `sal${LOAD_TICKER}`;
/** Whole tokens main makes: enough for many loads of the largest size. */
const SUPPLY = 10_000_000n;
/** Blocks a token's supply is locked after its creation, and some to spare. */
const SUPPLY_LOCK_BLOCKS = 70;

/**
 * Have main hold `amount` (atomic units) of the load's token unlocked: made, and mined until its supply unlocks, when
 * main holds none. Answers the asset.
 */
export async function prepareLoadToken(t: Testnet, amount: bigint, detail?: (l: string) => void): Promise<string> {
  const spec = t.backend.spec;
  if (spec.tokenHeight === undefined)
    throw new LoadSetupError(`the mix's tokens need a backend with tokens; ${spec.name} has none`);
  const height = await t.height();
  if (height < spec.tokenHeight)
    throw new LoadSetupError(
      `the mix's tokens need tokens active, from height ${spec.tokenHeight}; the testnet is at ${height}: mine ${spec.tokenHeight - height} blocks first (saltnet mine ${spec.tokenHeight - height})`,
    );
  const main = t.wallet.client;
  await main.refresh();
  if ((await main.balance(LOAD_ASSET)).balance === 0n) {
    detail?.(`saltnet: load: main makes the token ${LOAD_TICKER} (its supply unlocks 60 blocks later)`);
    const made = await main.raw('create_token', { ticker: LOAD_TICKER, supply: SUPPLY, name: 'saltnet load' });
    if (made.error)
      throw new LoadSetupError(
        made.error.message === 'Token already exists.'
          ? `the token ${LOAD_TICKER} exists but main holds none of it (another wallet made it); the mix's tokens move main's ${LOAD_TICKER}`
          : `main could not make the token ${LOAD_TICKER}: create_token answered ${made.error.code} ${made.error.message}`,
      );
    await t.mine(1);
  }
  await unlocked(t, main, amount, SUPPLY_LOCK_BLOCKS);
  return LOAD_ASSET;
}

/** Mine until main holds `amount` of the token unlocked, at most `blocks` blocks; else say what it holds. */
async function unlocked(t: Testnet, main: WalletClient, amount: bigint, blocks: number): Promise<void> {
  const h0 = await t.height();
  for (;;) {
    await main.refresh();
    const b = await main.balance(LOAD_ASSET);
    if (b.unlocked >= amount) return;
    const mined = (await t.height()) - h0;
    if (b.balance < amount || mined >= blocks)
      throw new LoadSetupError(
        `main holds ${formatAmountShort(b.balance, LOAD_ASSET)} of the token ${LOAD_TICKER}, ${formatAmountShort(b.unlocked, LOAD_ASSET)} unlocked after ${mined} blocks; the load needs ${formatAmountShort(amount, LOAD_ASSET)}`,
      );
    await t.mine(Math.max(1, Math.min(b.blocksToUnlock, blocks - mined)));
  }
}
