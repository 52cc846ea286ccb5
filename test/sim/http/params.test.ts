import { describe, expect, it } from 'vitest';
import { parseEpeeJson } from '../../../harness/sim/http/json.js';
import type { Parsed } from '../../../harness/sim/http/json-values.js';
import { InvalidParams, bool, list, obj, params, str, u32, u64, u8 } from '../../../harness/sim/http/params.js';

/** The `p` member of `{"p": <json>}` as the epee parser reads it (undefined when absent). */
const value = (json: string): Parsed | undefined => {
  const r = parseEpeeJson(`{"p": ${json} }`);
  if (!r.ok) throw new Error(`unparseable: ${json}`);
  return (r.value as Record<string, Parsed>).p;
};
const body = (json: string): Parsed => {
  const r = parseEpeeJson(json);
  if (!r.ok) throw new Error(`unparseable: ${json}`);
  return r.value;
};

describe('params: defaults and shape', () => {
  const p = params({
    height: u64(),
    count: u64(1000n),
    fill: bool(),
    name: str('SAL1'),
    n: u32(7),
    v: u8(),
    list: list(str()),
  });

  it('defaults every missing field; no "missing parameter" errors', () => {
    expect(p.parse(undefined)).toEqual({ height: 0n, count: 1000n, fill: false, name: 'SAL1', n: 7, v: 0, list: [] });
    expect(p.parse(body('{}'))).toEqual({ height: 0n, count: 1000n, fill: false, name: 'SAL1', n: 7, v: 0, list: [] });
  });

  it('treats null and [] as missing (epee stores neither)', () => {
    expect(p.parse(body('{"height": null, "name": [], "fill": null}'))).toEqual(p.parse(undefined));
  });

  it('ignores unknown fields', () => {
    expect(p.parse(body('{"height": 5, "bogus": [1,2], "other": {"x": "y"}}')).height).toBe(5n);
  });

  it('ignores a params value that is not an object', () => {
    expect(p.parse(value('[1, 2]'))).toEqual(p.parse(undefined));
    expect(p.parse(value('"text"'))).toEqual(p.parse(undefined));
    expect(p.parse(value('5'))).toEqual(p.parse(undefined));
    expect(p.parse(value('true'))).toEqual(p.parse(undefined));
    expect(p.parse(null)).toEqual(p.parse(undefined));
  });

  it('reads present values', () => {
    expect(
      p.parse(
        body(
          '{"height": 18446744073709551615, "count": 3, "fill": true, "name": "x", "n": 4294967295, "v": 255, "list": ["a", "b"]}',
        ),
      ),
    ).toEqual({
      height: 18446744073709551615n,
      count: 3n,
      fill: true,
      name: 'x',
      n: 4294967295,
      v: 255,
      list: ['a', 'b'],
    });
  });
});

describe('params: type rules', () => {
  const read = <T>(field: { read: (raw: Parsed, path: string) => T }, json: string): T => {
    const raw = value(json);
    if (raw === undefined) throw new Error('absent');
    return field.read(raw, 'p');
  };
  const rejects = (field: { read: (raw: Parsed, path: string) => unknown }, json: string): void => {
    expect(() => read(field, json), json).toThrow(InvalidParams);
  };

  it('u64: JSON integers 0..2^64-1 and all-digit strings', () => {
    expect(read(u64(), '0')).toBe(0n);
    expect(read(u64(), '123')).toBe(123n);
    expect(read(u64(), '18446744073709551615')).toBe(18446744073709551615n);
    expect(read(u64(), '"123"')).toBe(123n);
    expect(read(u64(), '"00042"')).toBe(42n);
    expect(read(u64(), '"18446744073709551615"')).toBe(18446744073709551615n);
    expect(read(u64(), '-0')).toBe(0n);
    expect(read(u64(), '"2017-05-06T16:27:06Z"')).toBe(1494088026n);
  });

  it('u64: rejects floats, exponents, negatives, non-digit strings, bools, objects, arrays', () => {
    for (const json of [
      '1.5',
      '1e8',
      '1.0',
      '-1',
      '"12a"',
      '"-1"',
      '""',
      '" 1"',
      '"1.5"',
      '"18446744073709551616"',
      'true',
      'false',
      '{}',
      '{"a":1}',
      '[1]',
      '["1"]',
    ]) {
      rejects(u64(), json);
    }
  });

  it('u32 and u8: range-checked integers only; strings refused', () => {
    expect(read(u32(), '4294967295')).toBe(4294967295);
    rejects(u32(), '4294967296');
    rejects(u32(), '"5"');
    rejects(u32(), '-1');
    rejects(u32(), '1.5');
    rejects(u32(), '1e3');
    rejects(u32(), 'true');
    expect(read(u8(), '255')).toBe(255);
    expect(read(u8(), '0')).toBe(0);
    rejects(u8(), '256');
    rejects(u8(), '"1"');
    rejects(u8(), '-1');
    rejects(u8(), 'false');
  });

  it('bool: only true/false', () => {
    expect(read(bool(), 'true')).toBe(true);
    expect(read(bool(), 'FALSE')).toBe(false);
    for (const json of ['1', '0', '"true"', '""', '{}', '[true]']) rejects(bool(), json);
  });

  it('str: only strings', () => {
    expect(read(str(), '"x"')).toBe('x');
    expect(read(str(), '""')).toBe('');
    for (const json of ['1', 'true', '{}', '["x"]', '1.5']) rejects(str(), json);
  });

  it('list: only arrays, each element checked', () => {
    expect(read(list(u64()), '[1, 2, 3]')).toEqual([1n, 2n, 3n]);
    expect(read(list(u64()), '["1", "2"]')).toEqual([1n, 2n]);
    expect(read(list(str()), '["a"]')).toEqual(['a']);
    rejects(list(u64()), '5');
    rejects(list(u64()), '"1,2"');
    rejects(list(u64()), '{"0": 1}');
    rejects(list(u64()), '[1.5]');
    rejects(list(u64()), '[-1, -2]');
    rejects(list(str()), '[1]');
    rejects(list(u8()), '[1, 256]');
  });

  it('obj: only objects, fields defaulted and checked', () => {
    const dest = obj({ amount: u64(), address: str(), asset_type: str('SAL1') });
    expect(read(dest, '{"amount": 5}')).toEqual({ amount: 5n, address: '', asset_type: 'SAL1' });
    expect(read(dest, '{}')).toEqual({ amount: 0n, address: '', asset_type: 'SAL1' });
    rejects(dest, '5');
    rejects(dest, '"x"');
    rejects(dest, '[{"amount": 1}]');
    rejects(dest, '{"amount": "x"}');
    rejects(dest, '{"address": 5}');
  });

  it('nested lists of objects, as in transfer', () => {
    const transfer = params({
      destinations: list(obj({ amount: u64(), address: str(), asset_type: str() })),
      source_asset: str(),
      tx_type: u8(),
      priority: u32(),
      subaddr_indices: list(u32()),
    });
    const t = transfer.parse(
      body('{"destinations":[{"amount":100000000,"address":"SC1T","asset_type":"SAL1"},{"amount":"5"}],"tx_type":3}'),
    );
    expect(t).toEqual({
      destinations: [
        { amount: 100000000n, address: 'SC1T', asset_type: 'SAL1' },
        { amount: 5n, address: '', asset_type: '' },
      ],
      source_asset: '',
      tx_type: 3,
      priority: 0,
      subaddr_indices: [],
    });
    expect(() => transfer.parse(body('{"destinations":[{"amount":-1}]}'))).toThrow(InvalidParams);
    expect(() => transfer.parse(body('{"destinations":[{"amount":1.5}]}'))).toThrow(InvalidParams);
    expect(() => transfer.parse(body('{"destinations":{"amount":1}}'))).toThrow(InvalidParams);
    expect(() => transfer.parse(body('{"tx_type":256}'))).toThrow(InvalidParams);
    expect(() => transfer.parse(body('{"tx_type":"3"}'))).toThrow(InvalidParams);
    expect(() => transfer.parse(body('{"subaddr_indices":[0,4294967296]}'))).toThrow(InvalidParams);
  });

  it('defaults are fresh values', () => {
    const p = params({ l: list(u64()), o: obj({ x: list(str()) }) });
    const a = p.parse(undefined);
    a.l.push(1n);
    a.o.x.push('y');
    expect(p.parse(undefined)).toEqual({ l: [], o: { x: [] } });
  });

  it('InvalidParams names the field', () => {
    expect(() => params({ amount: u64() }).parse(body('{"amount": 1.5}'))).toThrow(/amount/);
  });
});
