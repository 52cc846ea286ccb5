// The simulator's Carrot input selection against what v1.1.3c's input_selection.cpp does with the same outputs.
import { describe, expect, it } from 'vitest';
import { inputCountsInOrder, selectInputs, type Need } from '../../../harness/sim/wallet/input-selection.js';
import type { OwnedOutput } from '../../../harness/sim/wallet/state.js';

const COIN = 100_000_000n;
let next = 0;
function out(amount: bigint, blockIndex: number): OwnedOutput {
  next += 1;
  return {
    id: `o${next}`,
    txid: `t${next}`,
    amount,
    asset: 'SAL1',
    blockIndex,
    coinbase: false,
    keyImage: `k${next}`,
    unlockHeight: 0,
    unlockTime: 0,
    address: 'SC1…',
    spent: false,
  };
}

// One input's weight is ~1190 bytes at ~520 atomic units per byte: the fee grows by ~620 000 per input.
const need = (outputSum: bigint, preferTwo: boolean, token = false): Need => ({
  outputSum,
  feeFor: (n) => 520n * BigInt(1193 + 1190 * n),
  token,
  preferTwo,
});

describe('Carrot input selection', () => {
  it('tries 1 and 2 inputs in the coin’s order, then the powers of two, then every other count', () => {
    expect(inputCountsInOrder(false).slice(0, 9)).toEqual([1, 2, 4, 8, 16, 32, 64, 3, 5]);
    expect(inputCountsInOrder(true).slice(0, 3)).toEqual([2, 1, 4]);
    expect(new Set(inputCountsInOrder(true)).size).toBe(64);
  });

  it('spends one output or two, as the coin says, when one can pay', () => {
    const funded = Array.from({ length: 6 }, () => out(100n * COIN, 1150));
    const one = selectInputs(funded, need(10n * COIN, false));
    const two = selectInputs(funded, need(10n * COIN, true));
    expect(one.ok && one.inputs.length).toBe(1);
    expect(two.ok && two.inputs.length).toBe(2);
    expect(two.ok && one.ok && two.fee - one.fee).toBe(520n * 1190n);
  });

  it('takes 4 inputs rather than 3, whatever the coin, when 2 cannot pay', () => {
    const funded = Array.from({ length: 6 }, () => out(100n * COIN, 1150));
    for (const preferTwo of [false, true]) {
      const s = selectInputs(funded, need(250n * COIN, preferTwo));
      expect(s.ok && s.inputs.length).toBe(4);
    }
  });

  it('takes the largest outputs, then swaps a newer one the tx does not need for the oldest', () => {
    const oldSmall = out(5n * COIN, 1110);
    const big = out(50n * COIN, 1160);
    const newer = out(40n * COIN, 1170);
    const s = selectInputs([oldSmall, big, newer], need(10n * COIN, true));
    // The two largest are big and newer; newer is not needed, so the oldest output takes its place.
    expect(s.ok && s.inputs.map((i) => i.amount)).toEqual([5n * COIN, 50n * COIN]);
  });

  it('spends pre-Carrot outputs or Carrot ones, never both in one tx', () => {
    const pre = out(30n * COIN, 900);
    const carrot = out(30n * COIN, 1150);
    const both = selectInputs([pre, carrot], need(20n * COIN, true));
    // Pre-Carrot first; one output is all that set has, so the coin's 2 cannot be.
    expect(both.ok && both.inputs).toEqual([pre]);
    const s = selectInputs([pre, carrot], need(40n * COIN, false));
    expect(s).toMatchObject({ ok: false, why: 'subset' });
  });

  it('says which way it cannot pay: not enough at all, or not within 64 inputs', () => {
    expect(selectInputs([out(COIN, 1150)], need(2n * COIN, false))).toMatchObject({ ok: false, why: 'money' });
    // 70 outputs of 0.02 SAL1 hold 1.4 SAL1; the 64 largest 1.28, less than 1.3 SAL1 and the fee.
    const small = Array.from({ length: 70 }, () => out(COIN / 50n, 1150));
    expect(selectInputs(small, need((13n * COIN) / 10n, false))).toMatchObject({
      ok: false,
      why: 'usable',
      top: { n: 64, sum: (64n * COIN) / 50n },
    });
    // At priority 4 (110000 per byte, seen on v1.1.3c) no output of 2 SAL1 pays the fee of a tx of one input:
    // "Not enough usable money in top 0 inputs (0.00000000) to fund minimum output sum (3.62130000)".
    const funded = Array.from({ length: 6 }, () => out(2n * COIN, 1150));
    const dear: Need = { ...need(COIN, false), feeFor: (n) => 110000n * BigInt(1193 + 1190 * n) };
    expect(selectInputs(funded, dear)).toMatchObject({
      ok: false,
      why: 'usable',
      top: { n: 0, sum: 0n },
      need: 362130000n,
    });
  });

  it('lets a token transfer’s inputs cover its outputs only (its ROLLUP pays the fee)', () => {
    const s = selectInputs([out(10n * COIN, 1150)], need(10n * COIN, false, true));
    expect(s.ok && s.inputs.length).toBe(1);
  });
});
