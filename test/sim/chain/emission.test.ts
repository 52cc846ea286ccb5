import { describe, expect, it } from 'vitest';
import { PREMINE, coinbaseAsset, hardForkAt, nextHardFork } from '../../../harness/sim/chain/constants.js';
import { baseReward, feeEstimate, roundMoneyUp, splitReward } from '../../../harness/sim/chain/emission.js';

/** Miner reward at each block index, from the premine on (reference §4.3). */
function minerRewards(upTo: number): bigint[] {
  let generated = PREMINE;
  const out: bigint[] = [0n];
  for (let h = 1; h <= upTo; h++) {
    const base = baseReward(generated);
    generated += base;
    out.push(splitReward(h, base, 0n).miner);
  }
  return out;
}

describe('testnet emission', () => {
  const rewards = minerRewards(1400);
  it.each([
    [1, 12382507324n],
    [815, 12372898622n],
    [1100, 12369536159n],
    [1200, 9276267423n],
  ])('miner reward at height %i is %s atomic units, as the reference gives', (h, expected) => {
    expect(rewards[h]).toBe(expected);
  });

  it('splits 25 % to the treasury and 20 % of the rest to stakers from HF11', () => {
    const s = splitReward(1200, 1000n, 0n);
    expect(s).toEqual({ treasury: 250n, stake: 150n, miner: 600n });
    expect(splitReward(1199, 1000n, 0n)).toEqual({ treasury: 0n, stake: 200n, miner: 800n });
  });

  it('adds fees to the base before splitting', () => {
    expect(splitReward(1300, 1000n, 100n).miner).toBe(splitReward(1300, 1100n, 0n).miner);
  });
});

describe('hard forks', () => {
  it('follows the testnet table, with genesis at v1', () => {
    expect([0, 1, 249, 250, 799, 800, 814, 815, 1099, 1100, 1199, 1200, 1300, 1400, 100000].map(hardForkAt)).toEqual([
      1, 1, 1, 2, 4, 5, 5, 6, 9, 10, 10, 11, 12, 13, 13,
    ]);
  });
  it('reports the next block’s version: 11 once the chain has 1200 blocks', () => {
    expect(nextHardFork(1199)).toBe(10);
    expect(nextHardFork(1200)).toBe(11);
  });
  it('pays SAL below height 815 and SAL1 from it', () => {
    expect([coinbaseAsset(814), coinbaseAsset(815)]).toEqual(['SAL', 'SAL1']);
  });
});

describe('fees', () => {
  it('rounds up to two significant digits', () => {
    expect([
      roundMoneyUp(515n),
      roundMoneyUp(520n),
      roundMoneyUp(99n),
      roundMoneyUp(1001n),
      roundMoneyUp(12345n),
    ]).toEqual([520n, 520n, 99n, 1100n, 13000n]);
  });
  it('quotes 520 per byte at the recorded height, which gives the recorded fees', () => {
    let generated = PREMINE;
    for (let h = 1; h < 1367; h++) generated += baseReward(generated);
    const fees = feeEstimate(baseReward(generated));
    expect(fees[0]).toBe(520n);
    expect(fees).toEqual([...fees].sort((a, b) => (a < b ? -1 : 1)));
    // transcripts 48, 49, 31: one, two and sixteen inputs, two outputs
    expect([2383n, 3573n, 20233n].map((w) => w * fees[0]!)).toEqual([1239160n, 1857960n, 10521160n]);
  });
});
