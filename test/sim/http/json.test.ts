import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEpeeJson } from '../../../harness/sim/http/json.js';
import { RawNumber, type Parsed } from '../../../harness/sim/http/json-values.js';
import { Escaped, escapeString, formatDouble, toEpeeJson } from '../../../harness/sim/http/json-print.js';
import { plain } from './helpers.js';

const ok = (text: string): unknown => {
  const r = parseEpeeJson(text);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(text)} to parse`);
  return plain(r.value);
};
const bad = (text: string): boolean => !parseEpeeJson(text).ok;

describe('parseEpeeJson', () => {
  it('parses ordinary objects, keeping numbers exact', () => {
    expect(
      ok('{"a": 1, "b": "x", "c": true, "d": false, "e": {"f": [1, 2, 3]}, "g": [{"h": "i"}], "j": ["k", "l"]}'),
    ).toEqual({
      a: 1,
      b: 'x',
      c: true,
      d: false,
      e: { f: [1, 2, 3] },
      g: [{ h: 'i' }],
      j: ['k', 'l'],
    });
    const r = parseEpeeJson('{"amount": 18446744073709551615, "neg": -9223372036854775808, "f": 1.5}');
    expect(r.ok).toBe(true);
    const v = (r as { value: Record<string, RawNumber> }).value;
    expect(v.amount).toBeInstanceOf(RawNumber);
    expect(v.amount?.text).toBe('18446744073709551615');
    expect(v.amount?.value).toBe(18446744073709551615n);
    expect(v.amount?.kind).toBe('uint');
    expect(v.neg?.value).toBe(-9223372036854775808n);
    expect(v.neg?.kind).toBe('int');
    expect(v.f?.kind).toBe('float');
    expect(v.f?.value).toBe(1.5);
  });

  it('treats an empty or blank document as {}', () => {
    expect(ok('')).toEqual({});
    expect(ok(' \r\n\t ')).toEqual({});
  });

  it('accepts a document truncated inside the top-level object', () => {
    expect(ok('{')).toEqual({});
    expect(ok('{"method":"get_info"')).toEqual({ method: 'get_info' });
    expect(ok('{"a":"x",')).toEqual({ a: 'x' });
    expect(ok('{"a"')).toEqual({});
    expect(ok('{"a":')).toEqual({});
    expect(ok('{"a":1 ')).toEqual({ a: 1 });
    expect(ok('{"a":[')).toEqual({});
    expect(ok('{"a":["x",')).toEqual({ a: ['x'] });
    expect(ok('{"a":{')).toEqual({ a: {} });
    expect(ok('{"jsonrpc":"2.0","id":"1","method":"get_height","params":{}')).toEqual({
      jsonrpc: '2.0',
      id: '1',
      method: 'get_height',
      params: {},
    });
  });

  it('refuses truncation inside a token or a nested object (as epee does)', () => {
    expect(bad('{"a":1')).toBe(true); // number running into the end
    expect(bad('{"a":tru')).toBe(true);
    expect(bad('{"a":true')).toBe(true);
    expect(bad('{"a":"x')).toBe(true);
    expect(bad('{"a')).toBe(true);
    expect(bad('{"a":{"b":"c"')).toBe(true);
    expect(bad('{"a":[{"b":"c"')).toBe(true);
    expect(bad('{"a":"\\u00')).toBe(true);
  });

  it('refuses junk and non-objects', () => {
    for (const junk of [
      'not json',
      '[1,2]',
      '[{"method":"get_info"}]',
      '"x"',
      '1 ',
      'null',
      '{,}',
      '{"a":1,,}',
      '{a:1}',
      '{"a" 1}',
      '{"a":1 "b":2}',
      '{"a":+1}',
      '{"a":.5}',
      '{"a":12abc}',
      '{"a":nul}',
      '{"a":undefined}',
      '{"a":[1,]}',
      '{"a":[[1]]}',
      '{"a":[1,"x"]}',
      '{"a":["x",1]}',
      '{"a":[{"b":1},2]}',
      '{"a":[null]}',
      '{"a":[true,1]}',
      '{"a":[1,-1]}',
      '{"a":[1,1.5]}',
      '{"a":18446744073709551616}',
      '{"a":-9223372036854775809}',
      '{"a":1e999}',
      '{"a":1e-400}',
      '{"a":"\\ud800"}',
      '{"a":"\\udc00"}',
      '{"a":"\\ud800\\u0041"}',
      '{"a":"\\u12g4"}',
      '\u0000{}',
    ]) {
      expect(bad(junk), junk).toBe(true);
    }
  });

  it('has epee quirks: trailing comma, trailing garbage, case-insensitive words, null and [] dropped', () => {
    expect(ok('{"a":1,}')).toEqual({ a: 1 });
    expect(ok('{"a":1} trailing garbage [')).toEqual({ a: 1 });
    expect(ok('{"a":TRUE,"b":False,"c":NULL}')).toEqual({ a: true, b: false });
    expect(ok('{"a":null,"b":[],"c":[ ],"d":1}')).toEqual({ d: 1 });
    expect(ok('{"a":{"x":1},"a":{"y":2}}')).toEqual({ a: { x: 1, y: 2 } });
    expect(ok('{"a":1,"a":"z"}')).toEqual({ a: 'z' });
  });

  it('lexes and converts numbers like epee (strtoull/strtoll/strtod)', () => {
    const num = (t: string): RawNumber =>
      (parseEpeeJson(`{"n":${t} }`) as unknown as { value: { n: RawNumber } }).value.n;
    expect(num('01').value).toBe(1n);
    expect(num('-0').kind).toBe('int');
    expect(num('-0').value).toBe(0n);
    expect(num('1e8').kind).toBe('float');
    expect(num('1e8').value).toBe(1e8);
    expect(num('1.50').value).toBe(1.5);
    expect(num('1-2').kind).toBe('uint');
    expect(num('1-2').value).toBe(1n);
    expect(num('-').value).toBe(0n);
    expect(num('18440000000000000000').value).toBe(18440000000000000000n);
  });

  it('decodes strings like epee', () => {
    expect(ok('{"s":"a\\"b\\\\c\\/d\\n\\t\\r\\b\\f\\v\\\'"}')).toEqual({ s: 'a"b\\c/d\n\t\r\b\f\v\'' });
    expect(ok('{"s":"\\u0041\\u00e9\\ud83d\\ude00"}')).toEqual({ s: 'Aé😀' });
    expect(ok('{"s":"\\q"}')).toEqual({ s: 'q' });
    expect(ok('{"s":"raw\u0001control\nnewline"}')).toEqual({ s: 'raw\u0001control\nnewline' });
    expect(ok('{"":"empty key","ключ":"значение"}')).toEqual({ '': 'empty key', ключ: 'значение' });
  });

  it('limits nesting to 100 objects', () => {
    const nest = (k: number): string => `${'{"a":'.repeat(k)}{}${'}'.repeat(k)}`;
    expect(parseEpeeJson(nest(99)).ok).toBe(true);
    expect(parseEpeeJson(nest(100)).ok).toBe(false);
    expect(parseEpeeJson('{"a":'.repeat(200_000)).ok).toBe(false);
    expect(parseEpeeJson(`{"a":[${'{"a":['.repeat(200)}`).ok).toBe(false);
  });

  it('stores __proto__ as an ordinary key', () => {
    const r = parseEpeeJson('{"__proto__":{"polluted":1},"x":1}');
    expect(r.ok).toBe(true);
    const v = (r as { value: Record<string, Parsed> }).value;
    expect(Object.prototype.hasOwnProperty.call(v, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it('never throws on random input', () => {
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const alphabet = '{}[]":,0123456789-+.eEtrufalsn \\u"abc\n\t';
    for (let i = 0; i < 5000; i++) {
      let s = rnd(2) ? '{' : '';
      const len = rnd(60);
      for (let j = 0; j < len; j++)
        s += rnd(10) === 0 ? String.fromCharCode(rnd(0x10000)) : alphabet[rnd(alphabet.length)];
      expect(() => parseEpeeJson(s)).not.toThrow();
    }
  });
});

describe('toEpeeJson', () => {
  it('prints text escaped ahead (in parts, joined) exactly as the whole text', () => {
    const parts = ['{"a":"x/y"}', '{"b":"q\\"\n"}'];
    const whole = `[${parts.join(',')}]`;
    expect(toEpeeJson({ blocks_json: new Escaped(`[${parts.map(escapeString).join(',')}]`) })).toBe(
      toEpeeJson({ blocks_json: whole }),
    );
    expect(JSON.parse(toEpeeJson({ blocks_json: new Escaped(escapeString(whole)) })).blocks_json).toBe(whole);
  });

  it('sorts keys, indents by 2 with CRLF, prints arrays on one line', () => {
    expect(toEpeeJson({ b: 1, a: { d: [1, 2], c: 'x' } })).toBe(
      '{\r\n  "a": {\r\n    "c": "x",\r\n    "d": [1,2]\r\n  },\r\n  "b": 1\r\n}',
    );
    expect(toEpeeJson({ Z: 1, a: 2, _: 3, A: 4 })).toBe('{\r\n  "A": 4,\r\n  "Z": 1,\r\n  "_": 3,\r\n  "a": 2\r\n}');
  });

  it('prints empty objects like epee', () => {
    expect(toEpeeJson({})).toBe('{\r\n}');
    expect(toEpeeJson({ id: '1', jsonrpc: '2.0', result: {} })).toBe(
      '{\r\n  "id": "1",\r\n  "jsonrpc": "2.0",\r\n  "result": {\r\n  }\r\n}',
    );
  });

  it('prints arrays of objects inline with the inner objects indented', () => {
    expect(toEpeeJson({ balances: [{ b: 1, a: 'x' }, { c: 2 }], n: 1 })).toBe(
      '{\r\n  "balances": [{\r\n    "a": "x",\r\n    "b": 1\r\n  },{\r\n    "c": 2\r\n  }],\r\n  "n": 1\r\n}',
    );
    expect(toEpeeJson({ r: { list: [{ x: 1 }] } })).toBe(
      '{\r\n  "r": {\r\n    "list": [{\r\n      "x": 1\r\n    }]\r\n  }\r\n}',
    );
  });

  it('omits empty arrays everywhere, and undefined', () => {
    expect(toEpeeJson({ tokens: [], status: 'OK' })).toBe('{\r\n  "status": "OK"\r\n}');
    expect(
      JSON.parse(
        toEpeeJson({
          a: [],
          b: { c: [], d: 1 },
          e: [{ f: [], g: [{ h: [] }] }],
          i: undefined,
          j: [[]],
          k: [undefined],
          l: [1, undefined, 2],
        }),
      ),
    ).toEqual({ b: { d: 1 }, e: [{ g: [{}] }], l: [1, 2] });
    expect(toEpeeJson({ pricing_record: { assets: [], height: 0 } })).toBe(
      '{\r\n  "pricing_record": {\r\n    "height": 0\r\n  }\r\n}',
    );
  });

  it('prints 64-bit integers exactly', () => {
    expect(toEpeeJson({ supply: 18440000000000000000n })).toBe('{\r\n  "supply": 18440000000000000000\r\n}');
    expect(toEpeeJson({ max: 18446744073709551615n, neg: -5n, n: 42, z: -0 })).toBe(
      '{\r\n  "max": 18446744073709551615,\r\n  "n": 42,\r\n  "neg": -5,\r\n  "z": 0\r\n}',
    );
    expect(toEpeeJson({ big: 2 ** 60 })).toBe('{\r\n  "big": 1152921504606846976\r\n}');
    expect(toEpeeJson({ id: new RawNumber('18446744073709551615') })).toBe('{\r\n  "id": 18446744073709551615\r\n}');
    expect(toEpeeJson({ id: new RawNumber('01') })).toBe('{\r\n  "id": 1\r\n}');
  });

  it('prints doubles like a C++ stream (%g, 6 digits)', () => {
    expect(formatDouble(0.5)).toBe('0.5');
    expect(formatDouble(1.5)).toBe('1.5');
    expect(formatDouble(3.14159265)).toBe('3.14159');
    expect(formatDouble(1234567.5)).toBe('1.23457e+06');
    expect(formatDouble(123456.4)).toBe('123456');
    expect(formatDouble(0.0001)).toBe('0.0001');
    expect(formatDouble(0.00001)).toBe('1e-05');
    expect(formatDouble(-2.5e-10)).toBe('-2.5e-10');
    expect(formatDouble(1e100)).toBe('1e+100');
    expect(toEpeeJson({ x: 0.25, y: new RawNumber('1.50'), z: new RawNumber('1e8') })).toBe(
      '{\r\n  "x": 0.25,\r\n  "y": 1.5,\r\n  "z": 1e+08\r\n}',
    );
  });

  it('escapes strings like epee', () => {
    expect(toEpeeJson({ s: 'a"b\\c/d\n\r\t\b\f\v' })).toBe('{\r\n  "s": "a\\"b\\\\c\\/d\\n\\r\\t\\b\\f\\v"\r\n}');
    expect(toEpeeJson({ 'k/"': 'é😀' })).toBe('{\r\n  "k\\/\\"": "é😀"\r\n}');
    expect(JSON.parse(toEpeeJson({ url: 'http://127.0.0.1:8000/rich.json' }))).toEqual({
      url: 'http://127.0.0.1:8000/rich.json',
    });
  });

  it('round-trips every recorded response (sorted keys, no empty arrays on the real servers either)', () => {
    const dir = new URL('../../../fixtures/transcripts/salvium-v1.1.3c/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(50);
    for (const f of files) {
      const t = JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as { response: unknown };
      if (typeof t.response !== 'object') continue;
      const parsed = parseEpeeJson(JSON.stringify(t.response));
      expect(parsed.ok, f).toBe(true);
      const printed = toEpeeJson((parsed as { value: Parsed }).value);
      expect(printed, f).toContain('\r\n');
      expect(printed.replace(/\r\n/g, '')).not.toContain('\n');
      // same values and the same key order as the real server printed them
      expect(JSON.stringify(JSON.parse(printed)), f).toBe(JSON.stringify(t.response));
    }
  });
});
