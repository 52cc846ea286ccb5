// How the explorer reads a transaction the daemon decodes: a miner tx pays the miner (its first output) and the
// treasury (the rest; the treasury's 1 300 000 SAL1 mint named as such), a protocol tx pays a token's minted supply,
// a create-token carries its ticker and metadata; amounts beyond 2^53 keep every digit.
import { describe, expect, it } from 'vitest';
import { TREASURY_MINT } from '../../harness/coin/transactions.js';
import { txView } from '../../harness/ui/chain.js';

const out = (amount: number | bigint, asset: string) => ({ amount, target: { carrot_v1: { asset_type: asset } } });

describe("the explorer's view of a transaction", () => {
  it("labels a miner tx's outputs: the miner's reward, the treasury's share, the treasury's mint", () => {
    const v = txView('m', {
      type: 1,
      amount_burnt: 2319066855,
      vout: [out(9276267423, 'SAL1'), out(3865111426, 'SAL1'), out(TREASURY_MINT, 'SAL1')],
    });
    expect(v).toEqual({
      hash: 'm',
      type: 'miner',
      burnt: '2319066855',
      pays: [
        { asset: 'SAL1', amount: '9276267423', to: 'miner' },
        { asset: 'SAL1', amount: '3865111426', to: 'treasury' },
        { asset: 'SAL1', amount: '130000000000000', to: 'treasury mint' },
      ],
    });
  });

  it("labels a protocol tx's token output as the minted supply, and keeps amounts beyond 2^53 whole", () => {
    const v = txView('p', { type: 2, vout: [out(100000000000, 'salLIFE'), out(2n ** 60n + 1n, 'SAL1')] });
    expect(v.pays).toEqual([
      { asset: 'salLIFE', amount: '100000000000', to: 'minted supply' },
      { asset: 'SAL1', amount: '1152921504606846977', to: 'protocol' },
    ]);
  });

  it('reads a create-token: its burn, fee, asset and token', () => {
    const v = txView('c', {
      type: 9,
      amount_burnt: 100000000000,
      source_asset_type: 'SAL1',
      rct_signatures: { txnFee: 10521160 },
      token_metadata: { asset_type: 'LIFE', token: { sal_token: { supply: 1000, name: 'Life token', url: '' } } },
    });
    expect(v).toEqual({
      hash: 'c',
      type: 'create-token',
      asset: 'SAL1',
      fee: '10521160',
      burnt: '100000000000',
      token: { ticker: 'LIFE', supply: 1000, name: 'Life token', url: '' },
    });
  });
});
