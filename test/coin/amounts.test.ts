import { describe, expect, it } from 'vitest';
import { formatAmount, isAmountString, parseAmount } from '../../harness/coin/amounts.js';

describe('parseAmount', () => {
  it('takes atomic units as numbers, bigints and digit strings, exactly', () => {
    expect(parseAmount(0)).toBe(0n);
    expect(parseAmount(150000000)).toBe(150000000n);
    expect(parseAmount(2 ** 53)).toBe(9007199254740992n);
    expect(parseAmount(18440000000000000000n)).toBe(18440000000000000000n);
    expect(parseAmount('18440000000000000000')).toBe(18440000000000000000n);
    expect(parseAmount('99999999999999999999999999')).toBe(99999999999999999999999999n);
  });

  it('takes "<decimal> SAL1|SAL|XMR" without floating point', () => {
    expect(parseAmount('1.5 SAL1')).toBe(150000000n);
    expect(parseAmount('0.00000001 SAL1')).toBe(1n);
    expect(parseAmount('1000 SAL1')).toBe(100000000000n);
    expect(parseAmount('184400000000 SAL1')).toBe(18440000000000000000n);
    expect(parseAmount('0.1 SAL')).toBe(10000000n);
    expect(parseAmount('0.000000000001 XMR')).toBe(1n);
    expect(parseAmount('1.1 XMR')).toBe(1100000000000n);
    // 0.1 + 0.2 style traps: digits, not floats
    expect(parseAmount('0.3 SAL1')).toBe(30000000n);
    expect(parseAmount('  2.50000000 SAL1 ')).toBe(250000000n);
    expect(parseAmount('92233720368.54775807 SAL1')).toBe(9223372036854775807n);
  });

  it('rejects everything else, naming the value and the accepted forms', () => {
    const cases: [unknown, RegExp][] = [
      ['1.123456789 SAL1', /"1\.123456789 SAL1" is not an amount \(SAL1 has 8 decimals, this has 9\)/],
      ['0.0000000000001 XMR', /XMR has 12 decimals, this has 13/],
      [1.5, /1\.5 is not an amount .*write "1\.5 SAL1"/],
      [-1, /cannot be negative/],
      [-5n, /cannot be negative/],
      ['-1 SAL1', /cannot be negative/],
      ['1.5 sal1', /case-sensitive: write SAL1/],
      ['1.5 FOO', /unknown unit FOO/],
      ['1.5SAL1', /put a space/],
      ['1e3 SAL1', /an exponent \(1e3\) is not accepted in an amount; write the digits, e\.g\. "1000 SAL1"/],
      ['1.5e2 SAL1', /an exponent/],
      ['1e3SAL1', /an exponent/],
      ['1e3', /an exponent/],
      ['1. SAL1', /needs digits after it/],
      ['abc', /"abc" is not an amount/],
      [2 ** 53 + 2, /too large to be exact/],
      [null, /null is not an amount/],
      [{ a: 1 }, /mapping|object/],
    ];
    for (const [v, re] of cases) {
      expect(() => parseAmount(v), String(v)).toThrow(re);
      expect(() => parseAmount(v)).toThrow(/expected an amount: a non-negative integer of atomic units .* "1\.5 SAL1"/);
    }
    expect(() => parseAmount('x', 'steps[2].transfer.amount')).toThrow(
      /^steps\[2\]\.transfer\.amount: "x" is not an amount/,
    );
  });
});

describe('isAmountString / formatAmount', () => {
  it('recognises valid amount strings with a unit only', () => {
    expect(isAmountString('1.5 SAL1')).toBe(true);
    expect(isAmountString('1 XMR')).toBe(true);
    expect(isAmountString('150000000')).toBe(false);
    expect(isAmountString('1.123456789 SAL1')).toBe(false);
    expect(isAmountString(5)).toBe(false);
  });

  it('formats atomic units with every decimal', () => {
    expect(formatAmount(150000000n)).toBe('1.50000000 SAL1');
    expect(formatAmount(1n)).toBe('0.00000001 SAL1');
    expect(formatAmount(18440000000000000000n)).toBe('184400000000.00000000 SAL1');
    expect(formatAmount(1n, 'XMR')).toBe('0.000000000001 XMR');
    expect(formatAmount(100000000n, 'salABCD')).toBe('1.00000000 salABCD');
    expect(formatAmount(-150000000n)).toBe('-1.50000000 SAL1');
    for (const s of ['1.5 SAL1', '0.00000001 SAL1', '12345.6789 XMR']) {
      const [, unit] = s.split(' ');
      expect(parseAmount(formatAmount(parseAmount(s), unit))).toBe(parseAmount(s));
    }
  });
});
