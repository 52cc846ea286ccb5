// The simulator's chain codec keeps bigints exact through JSON: {"$big": "…"} (that key alone) is a bigint on the way
// back, at any depth, in objects and arrays; an object that only looks like one stays an object.
import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../harness/sim/chain/codec.js';

describe('the chain codec', () => {
  it('round-trips bigints at any depth, in objects and arrays, beside other values', () => {
    const v = {
      amount: 2n ** 70n,
      outputs: [{ amount: 5n, key: 'ab', flags: [true, null, 0] }, [1n, [2n]]],
      nested: { deeper: { fee: 0n, note: '$big' } },
    };
    expect(decode(encode(v))).toEqual(v);
  });

  it('leaves an object with $big beside other keys, or a $big that is not text, as it is', () => {
    const text = '{"a":{"$big":"1","other":2},"b":{"$big":3},"c":{"$big":"7"},"__proto__":{"$big":"9"}}';
    const got = decode<Record<string, unknown>>(text);
    expect(got.a).toEqual({ $big: '1', other: 2 });
    expect(got.b).toEqual({ $big: 3 });
    expect(got.c).toBe(7n);
    // an own key named __proto__ stays an own key: the prototype is never set from the text
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')?.value).toBe(9n);
  });
});
