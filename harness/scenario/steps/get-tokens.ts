// get_tokens: sent as written.
import { asWritten } from './recorded.js';
import { rawParams } from '../schema/leaves.js';
import { walletStep } from './wallet.js';

export const getTokens = walletStep({
  method: 'get_tokens',
  fromRecorded: asWritten,
  schema: rawParams('get_tokens'),
  known: ['regex'],
  docs: {
    note: 'The request is sent as written. `regex` is not a regular expression: it is a plain, case-sensitive substring filter. The answer is `result.tokens` (omitted when empty).',
  },
});
