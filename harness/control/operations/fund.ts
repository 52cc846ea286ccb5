// Pay an address from the main wallet and mine until it can spend it (`saltnet fund`, fund()).
import { z } from 'zod';
import { FaucetRefusal, type FundResult } from '../../testnet/mining/faucet.js';
import { RequestError } from '../body.js';
import { defineOperation } from '../operation.js';

export const fundOperation = defineOperation({
  name: 'fund',
  what: 'fund',
  body: z.strictObject({
    address: z.string().min(1).describe('an address of the chain (a non-empty string)'),
    amount: z
      .string()
      .regex(/^\d+$/)
      .describe('atomic units as a string of digits, e.g. "100000000" (JSON has no big integers)'),
    asset: z.string().min(1).optional().describe("an asset type, e.g. SAL1 or a token's salTST1"),
  }),
  async run(t, { address, amount, asset }, { signal, commit }): Promise<FundResult> {
    try {
      return await t.fund(
        { address, amount: BigInt(amount), ...(asset ? { asset } : {}) },
        // Cancelled up to the payment; once it is being sent, the faucet finishes (mines until it is spendable).
        { signal, onSend: (sending) => commit(sending.then((txHashes) => ({ txHashes }))) },
      );
    } catch (err) {
      if (err instanceof FaucetRefusal) throw new RequestError(err.message);
      throw err;
    }
  },
});
