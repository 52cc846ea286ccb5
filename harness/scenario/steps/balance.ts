// get_balance and its alias getbalance: sent as written.
import { asWritten } from './recorded.js';
import { rawParams } from '../schema/leaves.js';
import { walletStep } from './wallet.js';

const KNOWN = ['account_index', 'address_indices', 'asset_type', 'all_accounts', 'all_assets', 'strict'] as const;

export const getBalance = walletStep({
  method: 'get_balance',
  fromRecorded: asWritten,
  schema: rawParams('get_balance'),
  known: KNOWN,
  docs: {
    note: "The request is sent as written. The answer nests its records under `result.balances[]` (one per asset held, zero balances dropped; no `balances` key at all when nothing is held), and a wallet that never received the asset answers error `-1 Source asset 'SAL1' not found in wallet`.",
  },
});

export const getbalance = walletStep({
  method: 'getbalance',
  fromRecorded: asWritten,
  schema: rawParams('getbalance'),
  known: KNOWN,
  docs: { note: 'The alias of `get_balance`, with the same request and answer.' },
});
