// get_transfers: sent as written.
import { asWritten } from './recorded.js';
import { rawParams } from '../schema/leaves.js';
import { walletStep } from './wallet.js';

export const getTransfers = walletStep({
  method: 'get_transfers',
  fromRecorded: asWritten,
  schema: rawParams('get_transfers'),
  known: [
    'in',
    'out',
    'pending',
    'failed',
    'pool',
    'filter_by_height',
    'min_height',
    'max_height',
    'account_index',
    'subaddr_indices',
    'all_accounts',
  ],
  docs: {
    note: 'The request is sent as written. Every group (`in`, `out`, `pending`, `failed`, `pool`) defaults to false, so an empty request returns nothing: ask for the groups you want. Each group is omitted from the answer when it is empty.',
  },
});
