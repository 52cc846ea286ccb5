import { describe, expect, it } from 'vitest';
import { checkError, checkExpectations, getPath, matchValue, valuesEqual } from '../../harness/scenario/match.js';

const balance = {
  result: {
    balances: [
      {
        asset_type: 'SAL1',
        balance: 18440000000000000000n,
        unlocked_balance: 100000000000,
        per_subaddress: [{ address: 'SC1x', num_unspent_outputs: 94578671064777 }],
      },
    ],
    'token.version': 1,
  },
};

const ok = (expectations: Record<string, unknown>, response: { result?: unknown; error?: unknown } = balance) =>
  checkExpectations(response, expectations, {});

describe('getPath', () => {
  it('follows dots, indexes and quoted keys', () => {
    expect(getPath(balance, 'result.balances[0].asset_type')).toEqual({ found: true, value: 'SAL1' });
    expect(getPath(balance, 'result["token.version"]')).toEqual({ found: true, value: 1 });
    expect(getPath(balance, "result['token.version']")).toEqual({ found: true, value: 1 });
    expect(getPath(balance, ['result', 'balances', 0, 'balance'])).toEqual({
      found: true,
      value: 18440000000000000000n,
    });
    expect(getPath({ a: [[1, 2]] }, 'a[0][1]')).toEqual({ found: true, value: 2 });
    expect(getPath({ a: null }, 'a')).toEqual({ found: true, value: null });
  });

  it('says not found for missing keys, out-of-range indexes and walking through scalars', () => {
    expect(getPath(balance, 'result.tokens').found).toBe(false);
    expect(getPath(balance, 'result.balances[1]').found).toBe(false);
    expect(getPath(balance, 'result.balances.x').found).toBe(false);
    expect(getPath(balance, 'result.balances[0].asset_type.x').found).toBe(false);
    expect(getPath({ a: { b: 1 } }, 'a.toString').found).toBe(false);
  });

  it('rejects malformed paths', () => {
    expect(() => getPath({}, 'a..b')).toThrow(/bad path/);
    expect(() => getPath({}, 'a[x]')).toThrow(/expected an index/);
    expect(() => getPath({}, 'a["x]')).toThrow(/unterminated/);
    expect(() => getPath({}, '')).toThrow(/empty path/);
  });
});

describe('equality', () => {
  it('is deep, with numbers, bigints and amount strings compared as bigints', () => {
    expect(valuesEqual(100000000000, '1000 SAL1')).toBe(true);
    expect(valuesEqual('1000 SAL1', 100000000000n)).toBe(true);
    expect(valuesEqual(18440000000000000000n, '184400000000 SAL1')).toBe(true);
    expect(valuesEqual(18440000000000000000n, 18440000000000000001n)).toBe(false);
    expect(valuesEqual(5, 5n)).toBe(true);
    expect(valuesEqual(5, '5')).toBe(true);
    expect(valuesEqual('0005', '5')).toBe(false); // two plain strings compare as text
    expect(valuesEqual('1.5 SAL1', '150000000')).toBe(true);
    expect(valuesEqual({ a: [1, { b: 'x' }] }, { a: [1n, { b: 'x' }] })).toBe(true);
    expect(valuesEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(valuesEqual({ a: 1 }, { a: 1, tokens: [] })).toBe(true); // epee omits empty arrays
    expect(valuesEqual([1, 2], [2, 1])).toBe(false);
    expect(valuesEqual(null, null)).toBe(true);
    expect(valuesEqual(0.5, 0.5)).toBe(true);
  });

  it('plain values in expectations mean equality', () => {
    expect(ok({ 'result.balances[0].unlocked_balance': '1000 SAL1' })).toBeUndefined();
    expect(ok({ 'result.balances[0].balance': 18440000000000000000n })).toBeUndefined();
    expect(ok({ 'result.balances[0].balance': '18440000000000000000' })).toBeUndefined();
    const f = ok({ 'result.balances[0].unlocked_balance': '999 SAL1' });
    expect(f).toMatchObject({
      path: 'result.balances[0].unlocked_balance',
      expected: '"999 SAL1" (99900000000)',
      actual: '100000000000 (1000.00000000 SAL1)',
    });
    expect(f?.message).toBe(
      'result.balances[0].unlocked_balance: expected "999 SAL1" (99900000000), got 100000000000 (1000.00000000 SAL1)',
    );
    expect(ok({ 'result.balances[0].balance': 18440000000000000001n })).toMatchObject({
      expected: '18440000000000000001',
      actual: '18440000000000000000',
    });
    expect(ok({ 'result.balances[0].asset_type': { eq: 'SAL1' } })).toBeUndefined();
  });

  it("shows a token's amount in the token (the asset_type of its record), not in the unit it was written in", () => {
    const token = { result: { balances: [{ asset_type: 'salTST1', balance: 2500000000, unlocked_balance: 0 }] } };
    const f = checkExpectations(token, { 'result.balances[0].balance': { gte: '30 SAL1' } }, {});
    expect(f?.message).toBe(
      'result.balances[0].balance: expected >= "30 SAL1" (3000000000), got 2500000000 (25.00000000 salTST1)',
    );
    expect(checkExpectations(token, { 'result.balances[0].balance': '26 SAL1' }, {})?.actual).toBe(
      '2500000000 (25.00000000 salTST1)',
    );
    expect(
      checkExpectations(token, { 'result.balances[0].unlocked_balance': { all: [{ gt: '1 SAL1' }] } }, {})?.actual,
    ).toBe('0 (0.00000000 salTST1)');
    expect(ok({ 'result.balances[0].asset_type': { ne: 'SAL' } })).toBeUndefined();
    expect(ok({ 'result.balances[0].asset_type': { ne: 'SAL1' } })).toMatchObject({ expected: 'not "SAL1"' });
    expect(ok({ 'result.tokens': [] })).toBeUndefined(); // omitted empty array equals []
    expect(ok({ 'result.tokens': ['salABCD'] })).toMatchObject({ actual: '(absent)' });
    expect(ok({ 'result.x': { eq: { absent: true } } })).toMatchObject({ expected: '{"absent":true}' }); // eq operand is literal
  });
});

describe('matchers', () => {
  const r = {
    result: {
      tokens: ['salABCD', 'salWXYZ'],
      name: 'Demo token',
      n: 7,
      f: 1.5,
      big: 18440000000000000000n,
      flag: true,
      nil: null,
      o: { a: 1, b: [1] },
    },
  };

  it('contains / not_contains on arrays (deep), strings and objects', () => {
    expect(ok({ 'result.tokens': { contains: 'salABCD' } }, r)).toBeUndefined();
    expect(ok({ 'result.tokens': { contains: 'salQQQQ' } }, r)).toMatchObject({
      expected: 'containing "salQQQQ"',
      actual: '["salABCD","salWXYZ"]',
    });
    expect(ok({ 'result.tokens': { not_contains: 'salQQQQ' } }, r)).toBeUndefined();
    expect(ok({ 'result.tokens': { not_contains: 'salABCD' } }, r)).toBeDefined();
    expect(ok({ 'result.name': { contains: 'token' } }, r)).toBeUndefined();
    expect(ok({ 'result.name': { not_contains: 'coin' } }, r)).toBeUndefined();
    expect(ok({ 'result.o': { contains: { b: [1] } } }, r)).toBeUndefined();
    expect(ok({ 'result.o': { contains: { a: 2 } } }, r)).toBeDefined();
    expect(
      checkExpectations({ result: { l: [{ x: 1n, y: [2] }] } }, { 'result.l': { contains: { x: 1, y: [2] } } }, {}),
    ).toBeUndefined();
    expect(ok({ 'result.n': { contains: 7 } }, r)?.message).toMatch(/contains applies to a list, a string/);
    // an omitted list contains nothing
    expect(ok({ 'result.missing': { not_contains: 'x' } }, r)).toBeUndefined();
    expect(ok({ 'result.missing': { contains: 'x' } }, r)?.actual).toMatch(/absent: an omitted list is empty/);
  });

  it('length with a number or a comparison; an omitted list has length 0', () => {
    expect(ok({ 'result.tokens': { length: 2 } }, r)).toBeUndefined();
    expect(ok({ 'result.tokens': { length: { gte: 1 } } }, r)).toBeUndefined();
    expect(ok({ 'result.tokens': { length: { lt: 2 } } }, r)).toMatchObject({ expected: 'length < 2' });
    expect(ok({ 'result.name': { length: 10 } }, r)).toBeUndefined();
    expect(ok({ 'result.missing': { length: 0 } }, r)).toBeUndefined();
    expect(ok({ 'result.tokens': { length: 3 } }, r)).toMatchObject({
      expected: 'length 3',
      actual: 'length 2: ["salABCD","salWXYZ"]',
    });
    expect(ok({ 'result.n': { length: 1 } }, r)?.message).toMatch(/length applies to a list or a string/);
  });

  it('comparisons on numbers, bigints and amounts', () => {
    expect(ok({ 'result.n': { gt: 6 } }, r)).toBeUndefined();
    expect(ok({ 'result.n': { gte: 7 } }, r)).toBeUndefined();
    expect(ok({ 'result.n': { lt: 8n } }, r)).toBeUndefined();
    expect(ok({ 'result.n': { lte: '7' } }, r)).toBeUndefined();
    expect(ok({ 'result.n': { gt: 7 } }, r)).toMatchObject({ expected: '> 7', actual: '7' });
    expect(ok({ 'result.big': { gt: 18439999999999999999n } }, r)).toBeUndefined();
    expect(ok({ 'result.big': { gte: '184400000000 SAL1' } }, r)).toBeUndefined();
    expect(ok({ 'result.big': { gt: '184400000000 SAL1' } }, r)).toMatchObject({
      expected: '> "184400000000 SAL1" (18440000000000000000)',
      actual: '18440000000000000000 (184400000000.00000000 SAL1)',
    });
    expect(ok({ 'result.big': { lt: 18440000000000000001n } }, r)).toBeUndefined();
    expect(ok({ 'result.f': { gt: 1 } }, r)).toBeUndefined();
    expect(ok({ 'result.f': { gt: '0.00000002 SAL1' } }, r)).toBeDefined(); // 1.5 atomic is not > 2 atomic
    expect(ok({ 'result.name': { gt: 1 } }, r)?.message).toMatch(/not a number/);
    expect(ok({ 'result.missing': { gte: 1 } }, r)).toMatchObject({ actual: '(absent)' });
  });

  it('matches, type, present, absent', () => {
    expect(ok({ 'result.name': { matches: '^Demo' } }, r)).toBeUndefined();
    expect(ok({ 'result.n': { matches: '^\\d$' } }, r)).toBeUndefined();
    expect(ok({ 'result.name': { matches: '^token' } }, r)).toMatchObject({
      expected: 'matching /^token/',
      actual: '"Demo token"',
    });
    expect(ok({ 'result.name': { matches: '[' } }, r)?.message).toMatch(/bad regular expression/);
    for (const [p, t] of [
      ['tokens', 'array'],
      ['name', 'string'],
      ['n', 'number'],
      ['big', 'number'],
      ['flag', 'boolean'],
      ['nil', 'null'],
      ['o', 'object'],
    ] as const) {
      expect(ok({ [`result.${p}`]: { type: t } }, r), p).toBeUndefined();
    }
    expect(ok({ 'result.o': { type: 'array' } }, r)).toMatchObject({
      expected: 'a value of type array',
      actual: '{"a":1,"b":[1]} (type object)',
    });
    expect(ok({ 'result.name': { present: true } }, r)).toBeUndefined();
    expect(ok({ 'result.nil': { present: true } }, r)).toBeUndefined();
    expect(ok({ 'result.missing': { present: true } }, r)).toMatchObject({ actual: '(absent)' });
    expect(ok({ 'result.missing': { absent: true } }, r)).toBeUndefined();
    expect(ok({ 'result.name': { absent: true } }, r)).toMatchObject({ actual: '"Demo token"' });
  });

  it('absent holds for an omitted empty array (epee) and for an empty one', () => {
    expect(checkExpectations({ result: {} }, { 'result.tokens': { absent: true } }, {})).toBeUndefined();
    expect(checkExpectations({ result: { tokens: [] } }, { 'result.tokens': { absent: true } }, {})).toBeUndefined();
    expect(checkExpectations({ result: { tokens: [] } }, { 'result.tokens': { present: true } }, {})).toBeDefined();
    expect(checkExpectations({ result: {} }, { 'result.balances[0]': { absent: true } }, {})).toBeUndefined();
  });

  it('all: every matcher, reporting the first that fails', () => {
    expect(ok({ 'result.n': { all: [{ gte: 1 }, { lte: 10 }, { type: 'number' }] } }, r)).toBeUndefined();
    const f = ok({ 'result.n': { all: [{ gte: 1 }, { lt: 5 }] } }, r);
    expect(f).toMatchObject({ path: 'result.n', expected: '< 5', actual: '7' });
    expect(f?.message).toMatch(/\(all\[1\]\)/);
  });

  it('resolves placeholders in values and keys from the scope', () => {
    const scope = { min: 5n, tok: 'salABCD', i: 1 };
    expect(
      checkExpectations(
        r,
        { 'result.n': { gte: '${min}' }, 'result.tokens': { contains: '${tok}' }, 'result.tokens[${i}]': 'salWXYZ' },
        scope,
      ),
    ).toBeUndefined();
    expect(checkExpectations(r, { 'result.n': '${nope}' }, scope)?.message).toMatch(/unknown placeholder \$\{nope\}/);
  });
});

describe('results versus errors', () => {
  const err = { error: { code: -7, message: 'Create_token is not available yet.' } };

  it('an error answer fails expectations on the result', () => {
    const f = checkExpectations(err, { 'result.tx_hash_list': { length: 1 } }, {});
    expect(f).toMatchObject({
      path: 'error',
      expected: 'a result',
      actual: 'error -7: "Create_token is not available yet."',
    });
    expect(f?.message).toBe(
      'the call answered error -7: "Create_token is not available yet.", but a result was expected',
    );
    expect(checkExpectations(err, {}, {})).toBeDefined();
  });

  it('expectations on error paths pass on an error and fail on a result', () => {
    expect(
      checkExpectations(err, { 'error.code': -7, 'error.message': { contains: 'not available' } }, {}),
    ).toBeUndefined();
    const f = checkExpectations({ result: { ok: 1 } }, { 'error.code': -7 }, {});
    expect(f?.message).toBe('expected an error, but the call succeeded with result {"ok":1}');
  });

  it('checkError compares code and message (exact or a matcher)', () => {
    expect(checkError(err, {})).toBeUndefined();
    expect(checkError(err, { code: -7 })).toBeUndefined();
    expect(checkError(err, { code: -7, message: 'Create_token is not available yet.' })).toBeUndefined();
    expect(checkError(err, { message: { matches: 'not available' } })).toBeUndefined();
    expect(checkError(err, { code: -1 })).toMatchObject({
      path: 'error.code',
      expected: '-1',
      actual: '-7 (message "Create_token is not available yet.")',
      message: 'error.code: expected -1, got -7 (message "Create_token is not available yet.")',
    });
    expect(checkError(err, { message: 'Create_token is not available' })).toMatchObject({
      path: 'error.message',
      expected: '"Create_token is not available"',
      actual: '"Create_token is not available yet." (code -7)',
    });
    expect(checkError(err, { message: { contains: 'Empty ticker' } })).toMatchObject({ path: 'error.message' });
    const f = checkError({ result: { tx_hash_list: ['ab'] } }, { code: -7 });
    expect(f?.message).toBe('expected an error (code -7), but the call succeeded with result {"tx_hash_list":["ab"]}');
    expect(checkError({ error: { code: 0, message: '' } }, { code: 0, message: '' })).toBeUndefined();
    expect(checkError(err, { message: '${m}' }, { m: 'Create_token is not available yet.' })).toBeUndefined();
  });
});

describe('matchValue', () => {
  it('prints bigints exactly in expected and actual', () => {
    expect(matchValue(true, 18440000000000000000n, 1n)).toEqual({ expected: '1', actual: '18440000000000000000' });
    expect(matchValue(true, { b: 18440000000000000000n }, { b: 1 })).toEqual({
      expected: '{"b":1}',
      actual: '{"b":18440000000000000000}',
    });
  });
});

describe('parsed scenarios with the matchers, as the runner uses them', () => {
  it('checks a parsed step against realistic answers', async () => {
    const { parseScenario } = await import('../../harness/scenario/parse.js');
    const { interpolate } = await import('../../harness/scenario/interpolate.js');
    const s = parseScenario(
      [
        'name: e2e',
        'wallets: { bob: {} }',
        'steps:',
        '  - get_balance: { asset_type: SAL1 }',
        '    expect:',
        '      result.balances[0].unlocked_balance: { all: [{ gte: 1000 SAL1 }, { lt: 18440000000000000001 }] }',
        '      result.balances[0].asset_type: SAL1',
        '      result.balances[1]: { absent: true }',
        "    save: { bal: 'result.balances[0].unlocked_balance' }",
        '  - transfer: { to: "${bob.address}", amount: "${bal}" }',
        '  - get_tokens: {}',
        '    expect: { result.tokens: { absent: true } }',
        '  - create_token: { ticker: SALX, supply: 1 }',
        '    expect_error: { code: -7, message: { contains: "cannot start with" } }',
      ].join('\n'),
      'e2e.yaml',
    );
    const [bal, transfer, tokens, create] = s.steps;
    const answer = {
      result: {
        balances: [{ asset_type: 'SAL1', balance: 18440000000000000000n, unlocked_balance: 18440000000000000000n }],
      },
    };
    expect(checkExpectations(answer, bal!.expect!, {})).toBeUndefined();
    const scope = {
      bal: getPath(answer, bal!.save!.bal!).value,
      wallets: { main: { address: 'SC1m' }, bob: { address: 'SC1b' } },
    };
    expect(interpolate(transfer!.action.kind === 'wallet' ? transfer!.action.params : undefined, scope)).toEqual({
      to: 'SC1b',
      amount: 18440000000000000000n,
    });
    expect(checkExpectations({ result: {} }, tokens!.expect!, scope)).toBeUndefined(); // epee omitted the empty list
    expect(
      checkError({ error: { code: -7, message: "Asset type cannot start with 'SAL'." } }, create!.expect_error!),
    ).toBeUndefined();
    const low = { result: { balances: [{ asset_type: 'SAL1', unlocked_balance: 99999999999 }] } };
    expect(checkExpectations(low, bal!.expect!, {})).toMatchObject({
      path: 'result.balances[0].unlocked_balance',
      expected: '>= "1000 SAL1" (100000000000)',
      actual: '99999999999 (999.99999999 SAL1)',
    });
  });
});

describe('matchers inside a contains / not_contains operand are evaluated', () => {
  const five = {
    result: { balances: [{ asset_type: 'SAL1', balance: 500000000n, unlocked_balance: 0 }], n: [1, 8, 3] },
  };

  it('not_contains: { balance: { gt: 0 } } fails on a 5 SAL1 balance (it passed when the matcher was a literal)', () => {
    expect(ok({ 'result.balances': { not_contains: { balance: { gt: 0 } } } }, five)).toMatchObject({
      path: 'result.balances',
      expected: 'not containing {"balance":{"gt":0}}',
    });
    expect(ok({ 'result.balances[0]': { not_contains: { balance: { gt: 0 } } } }, five)).toBeDefined();
    expect(ok({ 'result.balances': { not_contains: { balance: { gt: '5 SAL1' } } } }, five)).toBeUndefined();
  });

  it('contains: matchers and plain values together, at any depth', () => {
    expect(
      ok({ 'result.balances': { contains: { asset_type: 'SAL1', balance: { gte: '5 SAL1' } } } }, five),
    ).toBeUndefined();
    expect(
      ok({ 'result.balances': { contains: { asset_type: 'SAL1', balance: { gt: '5 SAL1' } } } }, five),
    ).toBeDefined();
    expect(
      ok({ 'result.balances': { contains: { asset_type: { matches: '^SAL' }, unlocked_balance: 0 } } }, five),
    ).toBeUndefined();
    const nested = { result: { out: [{ destinations: [{ amount: 7, address: 'SC1abc' }] }] } };
    expect(
      ok(
        { 'result.out': { contains: { destinations: [{ amount: { lt: 10 }, address: { matches: '^SC1' } }] } } },
        nested,
      ),
    ).toBeUndefined();
    expect(
      ok(
        { 'result.out': { contains: { destinations: [{ amount: { gt: 10 }, address: { matches: '^SC1' } }] } } },
        nested,
      ),
    ).toBeDefined();
  });

  it('a matcher operand applies to the elements of a list of plain values', () => {
    expect(ok({ 'result.n': { contains: { gt: 5 } } }, five)).toBeUndefined();
    expect(ok({ 'result.n': { not_contains: { gt: 8 } } }, five)).toBeUndefined();
    expect(ok({ 'result.n': { not_contains: { gte: 8 } } }, five)).toBeDefined();
  });

  it('absent and present look at the field (a missing field is absent); eq keeps its operand literal', () => {
    expect(
      ok({ 'result.balances': { contains: { asset_type: 'SAL1', locked: { absent: true } } } }, five),
    ).toBeUndefined();
    expect(
      ok({ 'result.balances': { contains: { asset_type: 'SAL1', balance: { eq: { gt: 0 } } } } }, five),
    ).toBeDefined();
    const literal = { result: { l: [{ rule: { gt: 0 } }] } };
    expect(ok({ 'result.l': { contains: { rule: { eq: { gt: 0 } } } } }, literal)).toBeUndefined();
  });

  it('a field named like a matcher (type: in) is still a field to look for', () => {
    const transfers = { result: { in: [{ type: 'in', amount: 1 }] } };
    expect(ok({ 'result.in': { contains: { type: 'in' } } }, transfers)).toBeUndefined();
    expect(ok({ 'result.in': { contains: { type: 'out' } } }, transfers)).toBeDefined();
  });
});
