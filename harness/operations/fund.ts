// The faucet as an operation: pay an address from the main wallet and mine until it can spend it. Served at POST
// /fund, it is `saltnet fund <address> <amount>`, the scenario step `fund:` and vitest's fund(); what it does to the
// testnet is testnet/mining/faucet.ts.
import { z } from 'zod';
import { amountError, AMOUNT_FORMS, coinsToAtomic, formatAmountShort, parseAmount } from '../coin/amounts.js';
import { fundingAsset } from '../coin/backends.js';
import { FaucetRefusal, type FundResult } from '../testnet/mining/faucet.js';
import { RequestError } from './body.js';
import { defineOperation } from './operation.js';

const TOKEN = /^sal[A-Z0-9]{4}$/;

export const fundOperation = defineOperation({
  name: 'fund',
  what: 'fund',
  body: z.strictObject({
    address: z.string().min(1).describe('an address of the chain (a non-empty string)'),
    amount: z
      .union([z.string(), z.int().min(0)])
      .refine((v) => amountError(v) === undefined)
      .describe(`${AMOUNT_FORMS} (in JSON, a large integer as a string of digits)`),
    asset: z.string().min(1).optional().describe("an asset type, e.g. SAL1 or a token's salTST1"),
  }),
  async run(t, { address, amount, asset }, { signal, commit }): Promise<FundResult> {
    try {
      return await t.fund(
        { address, amount: parseAmount(amount), ...(asset ? { asset } : {}) },
        // Cancelled up to the payment; once it is being sent, the faucet finishes (mines until it is spendable).
        { signal, onSend: (sending) => commit(sending.then((txHashes) => ({ txHashes }))) },
      );
    } catch (err) {
      if (err instanceof FaucetRefusal) throw new RequestError(err.message);
      throw err;
    }
  },
  command: {
    usage: 'fund <address> <amount>',
    describe: "pay an address from the testnet's main wallet and mine until it can spend it (a faucet)",
    positionals: {
      address: { type: 'string', demandOption: true, describe: 'any address of the chain (CN or Carrot)' },
      amount: {
        type: 'string',
        demandOption: true,
        describe: "coins of the asset, e.g. 100 or 0.5 (exact: at most the coin's decimals)",
      },
    },
    options: { asset: { type: 'string', describe: "the asset (default SAL1), e.g. a token's salTST1" } },
    body(a, { spec }) {
      const amount = coinsToAtomic(String(a.amount), spec.coin.decimals, '<amount>');
      if (amount === 0n) throw new Error('<amount>: 0 pays nothing; give more than 0');
      return { address: String(a.address), amount: amount.toString(), ...(a.asset ? { asset: String(a.asset) } : {}) };
    },
    say: (res, { spec }) =>
      [
        `paid ${formatAmountShort(BigInt(res.amount), res.asset ?? fundingAsset(spec))} to ${res.address} (${res.kind})`,
        `  tx       ${res.txHashes.join(', ')}`,
        `  block    ${res.block}; spendable now, at height ${res.height} (the receiving wallet sees it after its next refresh)`,
      ].join('\n'),
    interrupted: {
      cancelled: 'interrupted before the payment was sent: the testnet gave it up, nothing was paid',
      finishing: (detail, body) =>
        `interrupted, but the payment was sent already (tx ${((detail as { txHashes?: string[] } | undefined)?.txHashes ?? []).join(', ')}): the testnet goes on mining until ${body.address} can spend it (saltnet up says when)`,
      failed: (error) => `interrupted; the payment could not be sent (${error}): nothing was paid`,
    },
  },
  step: {
    name: (v) => `fund ${String(v.address)} ${String(v.amount)}${v.asset ? ` ${v.asset}` : ''}`,
    // Up to the unlock age of what main pays with, the payment's spendable age, and a token's two transactions.
    blocks: 80,
    needsTokens: (v) => typeof v.asset === 'string' && TOKEN.test(v.asset),
    docs: {
      note: "The faucet: pays `amount` of `asset` (default SAL1; a token by its asset type, e.g. salTST1) from the testnet's main wallet to `address` — any address of the chain, an app's own wallet's included — then mines until the receiver can spend it (10 blocks on top of the payment's). The answer is `{result: {address, kind, asset, amount, txHashes, block, height}}`.",
      example: {
        steps: [
          '- fund: { address: "${bob.address}", amount: 5 SAL1 }',
          '  save:',
          '    paid: result.txHashes[0]',
          '- get_balance: {}',
          '  wallet: bob',
          '  expect:',
          '    result.balances[0].unlocked_balance: 500000000',
        ].join('\n'),
        wallets: ['bob'],
      },
    },
  },
});
