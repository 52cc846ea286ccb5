// Transaction types by name, as the explorer shows them, and the params of an asset's transfer, as the faucet, the
// runner's funding and the readable wallet steps send them.
import { describe, expect, it } from 'vitest';
import { assetTransfer, TX_TYPES } from '../../harness/coin/transactions.js';

describe('transactions', () => {
  it("names every type of Salvium's cryptonote::transaction_type", () => {
    expect(TX_TYPES).toEqual({
      0: 'unset',
      1: 'miner',
      2: 'protocol',
      3: 'transfer',
      4: 'convert',
      5: 'burn',
      6: 'stake',
      7: 'return',
      8: 'audit',
      9: 'create-token',
      10: 'rollup',
    });
  });

  it('sends an asset as a TRANSFER (3) from and to that asset', () => {
    expect(assetTransfer([{ address: 'a', amount: 1 }], 'salTST1')).toEqual({
      destinations: [{ address: 'a', amount: 1 }],
      source_asset: 'salTST1',
      dest_asset: 'salTST1',
      tx_type: 3,
    });
  });
});
