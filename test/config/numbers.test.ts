// Numbers typed as text (flags, environment variables): one parser, messages that name the value
// and the range, and the same ranges as the config file's schema.
import { describe, expect, it } from 'vitest';
import {
  describeRule,
  NUMBER_RULES,
  numberOrThrow,
  parseNumberText,
  type NumberRule,
} from '../../harness/config/numbers.js';
import { KEY_SPECS } from '../../harness/config/schema.js';
import { parseUnlockedText, plainDecimal, unlockedAtomic } from '../../harness/config/unlocked.js';
import { MAX_HEIGHT } from '../../harness/limits.js';

const problem = (text: string, rule: NumberRule = NUMBER_RULES.height): string => {
  const r = parseNumberText(text, rule);
  return 'problem' in r ? r.problem : `value ${r.value}`;
};

describe('parseNumberText', () => {
  it('accepts plain decimal digits within the range', () => {
    expect(parseNumberText('1201', NUMBER_RULES.height)).toEqual({ value: 1201 });
    expect(parseNumberText(' 30 ', NUMBER_RULES.height)).toEqual({ value: 30 });
    expect(parseNumberText(String(MAX_HEIGHT), NUMBER_RULES.height)).toEqual({ value: MAX_HEIGHT });
    expect(parseNumberText('2.0', NUMBER_RULES.height)).toEqual({ value: 2 });
    expect(parseNumberText('2.5', NUMBER_RULES.timeoutFactor)).toEqual({ value: 2.5 });
  });

  it('refuses what is not a number, exponents, fractions of whole numbers, and values out of range, saying which', () => {
    expect(problem('abc')).toBe("'abc' is not a whole number");
    expect(problem('NaN')).toBe("'NaN' is not a whole number");
    expect(problem('Infinity')).toBe("'Infinity' is not a whole number");
    expect(problem('0x10')).toBe("'0x10' is not a whole number");
    expect(problem('1.5')).toBe("'1.5' is not a whole number");
    expect(problem('')).toBe('needs a whole number');
    expect(problem('1e3')).toBe("'1e3' is written with an exponent; write it in plain digits (1000)");
    expect(problem('1e400')).toBe(
      `'1e400' is written with an exponent; write it in plain digits: a whole number from 1 to ${MAX_HEIGHT}`,
    );
    expect(problem('100001')).toBe(`100001 is more than ${MAX_HEIGHT} (saltnet mines to height ${MAX_HEIGHT} at most)`);
    expect(problem('99999999999999999999999')).toMatch(/is more than 100000/);
    expect(problem('0')).toBe('0 is too small: it must be at least 1');
    expect(problem('-5')).toBe('-5 is too small: it must be at least 1');
    expect(problem('abc', NUMBER_RULES.timeoutFactor)).toBe("'abc' is not a number");
    expect(problem('0', NUMBER_RULES.timeoutFactor)).toBe('0 is too small: it must be at least 0.1');
    // a factor near 0 would make every deadline pass at once
    expect(problem('1e-10', NUMBER_RULES.timeoutFactor)).toBe(
      "'1e-10' is written with an exponent; write it in plain digits: a number from 0.1 to 100",
    );
    expect(problem('0.0000000001', NUMBER_RULES.timeoutFactor)).toBe(
      '0.0000000001 is too small: it must be at least 0.1',
    );
    expect(problem('0.1', NUMBER_RULES.timeoutFactor)).toBe('value 0.1');
    expect(problem('101', NUMBER_RULES.timeoutFactor)).toBe('101 is more than 100 (slow machines need 2 or 3)');
  });

  it('names the option in the error', () => {
    expect(() => numberOrThrow('--height', 'abc', NUMBER_RULES.height)).toThrow(
      "--height: 'abc' is not a whole number",
    );
    expect(() => numberOrThrow('--height', ['1', '2'], NUMBER_RULES.height)).toThrow(
      '--height is given 2 times; give it once',
    );
    expect(numberOrThrow('--height', '40', NUMBER_RULES.height)).toBe(40);
  });

  it('the config schema holds the same ranges', () => {
    for (const [key, rule] of [
      ['height', NUMBER_RULES.height],
      ['difficulty', NUMBER_RULES.difficulty],
      ['threads', NUMBER_RULES.threads],
      ['timeoutFactor', NUMBER_RULES.timeoutFactor],
      ['run.workers', NUMBER_RULES.workers],
    ] as const) {
      const spec = KEY_SPECS.get(key)!;
      expect(spec.number, key).toBe(rule);
      expect(spec.expected, key).toContain(describeRule(rule));
      expect(spec.schema.safeParse(rule.max).success, key).toBe(true);
      expect(spec.schema.safeParse(rule.max + 1).success, key).toBe(false);
      expect(spec.schema.safeParse(rule.min).success, key).toBe(!('minExclusive' in rule));
    }
  });
});

describe('--unlocked', () => {
  it('takes coins or an amount with its unit, exactly', () => {
    expect(parseUnlockedText('--unlocked', '1100')).toBe(1100);
    expect(parseUnlockedText('--unlocked', '0.0000001')).toBe(0.0000001);
    expect(parseUnlockedText('--unlocked', '1100 SAL1')).toBe('1100 SAL1');
    expect(unlockedAtomic(0.0000001, 'sim')).toBe(10n);
    expect(unlockedAtomic(0.00000001, 'sim')).toBe(1n);
    expect(unlockedAtomic(1e-12, 'monero')).toBe(1n);
    expect(unlockedAtomic(12345678.12345678, 'sim')).toBe(1234567812345678n);
  });

  it('refuses exponents, negative values, too many digits and decimals, naming the value', () => {
    expect(() => parseUnlockedText('--unlocked', '1e3 SAL1')).toThrow(
      "--unlocked: '1e3 SAL1' is written with an exponent; write it in plain digits (e.g. 1000 for 1e3)",
    );
    expect(() => parseUnlockedText('--unlocked', '1e3')).toThrow(/exponent/);
    expect(() => parseUnlockedText('--unlocked', '-1')).toThrow("--unlocked: '-1' is below 0");
    expect(() => parseUnlockedText('--unlocked', 'abc')).toThrow(
      "--unlocked: 'abc' is neither a number of coins (1100) nor an amount with its unit ('1100 SAL1')",
    );
    expect(() => parseUnlockedText('--unlocked', '1.5 sal1')).toThrow(
      "--unlocked: '1.5 sal1' is not an amount: units are case-sensitive: write SAL1",
    );
    expect(() => parseUnlockedText('--unlocked', '')).toThrow(
      "--unlocked needs a number of coins (1100) or an amount with its unit ('1100 SAL1')",
    );
    expect(() => parseUnlockedText('--unlocked', '123456789012345678.5')).toThrow(
      /has more digits than a number of coins keeps exactly; give it with its unit, e\.g\. '123456789012345678\.5 SAL1'/,
    );
    expect(() => unlockedAtomic(0.000000001, 'sim')).toThrow('unlocked: 0.000000001 has 9 decimals, but SAL1 has 8');
    expect(() => unlockedAtomic('0.000000001 SAL1', 'sim')).toThrow(/SAL1 has 8 decimals, this has 9/);
  });

  it('plainDecimal writes a number without an exponent', () => {
    expect(plainDecimal(1e-7)).toBe('0.0000001');
    expect(plainDecimal(1.5e-9)).toBe('0.0000000015');
    expect(plainDecimal(1e21)).toBe('1000000000000000000000');
    expect(plainDecimal(1.25e22)).toBe('12500000000000000000000');
    expect(plainDecimal(1100)).toBe('1100');
  });
});
