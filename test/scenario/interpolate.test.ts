import { describe, expect, it } from 'vitest';
import {
  hasTemplate,
  interpolate,
  isTemplateString,
  scanTemplate,
  type Scope,
} from '../../harness/scenario/interpolate.js';

const scope: Scope = {
  half: 75000000n,
  tx: 'ab'.repeat(32),
  list: { tx_hash_list: ['h0', 'h1'], 'key.with.dots': 7 },
  n: 5,
  flag: false,
  nothing: null,
  obj: { a: 1, big: 18440000000000000000n },
  wallets: {
    main: { address: 'SC1main', cn: 'SaLvTmain', carrot: 'SC1main' },
    bob: { address: 'SC1bob', cn: 'SaLvTbob', carrot: 'SC1bob' },
  },
  metadata: { rich: { url: 'http://127.0.0.1:1/rich.json', sha256: 'f'.repeat(64), size: 123 } },
  height: 1201,
  env: { SALTNET_X: 'from-env' },
};

describe('interpolate', () => {
  it('keeps the type of a whole-string placeholder', () => {
    expect(interpolate('${half}', scope)).toBe(75000000n);
    expect(interpolate('${n}', scope)).toBe(5);
    expect(interpolate('${flag}', scope)).toBe(false);
    expect(interpolate('${nothing}', scope)).toBe(null);
    expect(interpolate('${obj}', scope)).toEqual({ a: 1, big: 18440000000000000000n });
    expect(interpolate('${ height }', scope)).toBe(1201);
  });

  it('stringifies embedded placeholders exactly', () => {
    expect(interpolate('amount ${half} atomic', scope)).toBe('amount 75000000 atomic');
    expect(interpolate('${n}${n}', scope)).toBe('55');
    expect(interpolate('x=${obj}', scope)).toBe('x={"a":1,"big":18440000000000000000}');
    expect(interpolate('${half} SAL1', scope)).toBe('75000000 SAL1');
  });

  it('looks up paths, wallets, metadata, height and env', () => {
    expect(interpolate('${list.tx_hash_list[1]}', scope)).toBe('h1');
    expect(interpolate('${list["key.with.dots"]}', scope)).toBe(7);
    expect(interpolate('${wallets.bob.address}', scope)).toBe('SC1bob');
    expect(interpolate('${bob.address}', scope)).toBe('SC1bob');
    expect(interpolate('${bob.cn}/${bob.carrot}', scope)).toBe('SaLvTbob/SC1bob');
    expect(interpolate('${main.address}', scope)).toBe('SC1main');
    expect(interpolate('${metadata.rich.url}', scope)).toBe('http://127.0.0.1:1/rich.json');
    expect(interpolate('${metadata.rich.size}', scope)).toBe(123);
    expect(interpolate('${env.SALTNET_X}', scope)).toBe('from-env');
    process.env.SALTNET_TEST_ENV_VAR = 'real-env';
    expect(interpolate('${env.SALTNET_TEST_ENV_VAR}', { a: 1 })).toBe('real-env');
    delete process.env.SALTNET_TEST_ENV_VAR;
  });

  it('walks arrays and objects, keys included, and leaves other values alone', () => {
    const v = {
      to: '${bob.address}',
      amount: '${half}',
      list: ['${n}', 3, 7n, true],
      'result.${n}': { gte: '${half}' },
    };
    expect(interpolate(v, scope)).toEqual({
      to: 'SC1bob',
      amount: 75000000n,
      list: [5, 3, 7n, true],
      'result.5': { gte: 75000000n },
    });
    expect(interpolate(42, scope)).toBe(42);
    expect(interpolate('plain $ text {not} a template', scope)).toBe('plain $ text {not} a template');
  });

  it('treats $${ as a literal ${', () => {
    expect(interpolate('$${half}', scope)).toBe('${half}');
    expect(interpolate('a $${x} b ${n}', scope)).toBe('a ${x} b 5');
    expect(isTemplateString('$${half}')).toBe(false);
    expect(hasTemplate({ a: ['$${x}'] })).toBe(false);
    expect(hasTemplate({ a: ['${x}'] })).toBe(true);
  });

  it('names unknown placeholders and lists what is defined', () => {
    expect(() => interpolate('${nope}', scope)).toThrow(
      /unknown placeholder \$\{nope\}: nothing is called "nope"; defined: saved values: half, tx, list, n, flag, nothing, obj; wallets: main, bob .*metadata: rich .*height; env\.<NAME>/,
    );
    expect(() => interpolate('${bob.adress}', scope)).toThrow(
      /\$\{bob\.adress\}: bob has no "adress" \(it has: address, cn, carrot\)/,
    );
    expect(() => interpolate('${list.tx_hash_list[5]}', scope)).toThrow(/has no item \[5\] \(it is a list of 2\)/);
    expect(() => interpolate('${metadata.poor.url}', scope)).toThrow(/metadata has no "poor" \(it has: rich\)/);
    expect(() => interpolate('${env.SALTNET_SURELY_UNSET_123}', { a: 1 })).toThrow(
      /environment variable SALTNET_SURELY_UNSET_123 is not set/,
    );
    expect(() => interpolate('${env}', scope)).toThrow(/write \$\{env\.NAME\}/);
    expect(() => interpolate('${a..b}', scope)).toThrow(/bad placeholder \$\{a\.\.b\}/);
    expect(() => interpolate('x ${half', scope)).toThrow(/unterminated placeholder/);
  });

  it('scans templates into parts with offsets', () => {
    expect(scanTemplate('a ${b} c')).toEqual([{ text: 'a ' }, { expr: 'b', start: 2, end: 6 }, { text: ' c' }]);
    expect(scanTemplate('${x["}"]}')).toEqual([{ expr: 'x["}"]', start: 0, end: 9 }]);
    expect(interpolate('${list["key.with.dots"]}', scope)).toBe(7);
  });
});
