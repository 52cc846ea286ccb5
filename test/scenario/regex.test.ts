// Regular expressions from scenario files run on RE2 (harness/scenario/regex.ts): linear time, so
// a catastrophic pattern cannot hang the harness; what RE2 cannot take is refused when the file is
// read, saying why; the usual patterns keep their meaning.
import { describe, expect, it } from 'vitest';
import { matchValue } from '../../harness/scenario/match.js';
import { parseScenario } from '../../harness/scenario/parse.js';
import { regexProblem, regexTest } from '../../harness/scenario/regex.js';
import { ScenarioError } from '../../harness/scenario/types.js';

const ADDRESS = 'SC1TorbMnM1FD945vpj2w1ji4y9SMuxu8htsHHVMmnkyd33EPwECrkuFqGVR7tLFFEL3MVkbQKKS3Ut93MhPYoyFBEFnGwgTm6Z';
const CATASTROPHIC = '^([A-Za-z0-9]+)+!$';

function refusal(pattern: string): string {
  try {
    parseScenario(
      `name: x\nsteps:\n  - call: { method: get_address }\n    expect: { result.address: { matches: ${JSON.stringify(pattern)} } }\n`,
      'hostile.yaml',
    );
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  throw new Error('expected the pattern to be refused');
}

describe('a catastrophic pattern', () => {
  it('answers at once on an address (JavaScript backtracking spun for ever on it)', () => {
    const t0 = Date.now();
    // 30 characters already take JavaScript's engine seconds; the address has 95.
    expect(matchValue(true, 'a'.repeat(30), { matches: CATASTROPHIC })).toEqual({
      expected: `matching /${CATASTROPHIC}/`,
      actual: `"${'a'.repeat(30)}"`,
    });
    expect(matchValue(true, ADDRESS, { matches: CATASTROPHIC })).toBeDefined();
    expect(matchValue(true, `${ADDRESS}!`, { matches: CATASTROPHIC })).toBeUndefined();
    expect(regexTest(CATASTROPHIC, 'a'.repeat(65536))).toEqual({ matched: false });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('is accepted by the parser (it is a fine pattern for RE2)', () => {
    expect(regexProblem(CATASTROPHIC)).toBeUndefined();
  });
});

describe('patterns RE2 cannot take are refused when the file is read', () => {
  const expected =
    '(expected a regular expression in RE2 syntax (JavaScript\'s without backreferences or lookaround), e.g. "^[0-9a-f]{64}$")';
  it.each([
    [
      'a backreference',
      '(a)\\1',
      'backreferences (\\1, \\k<name>) are not supported: scenario regular expressions run on RE2, which matches in linear time and has none',
    ],
    ['a named backreference', '(?<x>a)\\k<x>', 'backreferences (\\1, \\k<name>) are not supported'],
    [
      'lookahead',
      '^(?=SC1)',
      'lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: scenario regular expressions run on RE2, which matches in linear time and has none',
    ],
    ['lookbehind', '(?<!x)y', 'lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported'],
    ['\\u escapes', '\\u0041', 'RE2 writes a character by its code as \\x{0041}, not \\u0041'],
    [
      'nested counts',
      '((a{100}){100}){100}',
      'the repeat count {100} is too large for RE2: a count is at most 1000, and nested counts may not multiply past 1000',
    ],
    ['a pattern over 1000 characters', 'a'.repeat(1001), 'the pattern is 1001 characters long; at most 1000'],
    ['a JavaScript syntax error (as before)', '[', 'Invalid regular expression: /[/: Unterminated character class'],
  ])('%s', (_what, pattern, why) => {
    const msg = refusal(pattern);
    expect(msg).toContain(
      `hostile.yaml:4:42: steps[0].expect["result.address"].matches: bad regular expression: ${why}`,
    );
    expect(msg).toContain(expected);
  });

  it('in an expect_error message matcher too', () => {
    expect(() =>
      parseScenario(
        'name: x\nsteps:\n  - call: { method: x }\n    expect_error: { message: { matches: "(x)\\\\1" } }\n',
        'h.yaml',
      ),
    ).toThrow('h.yaml:4:41: steps[0].expect_error.message.matches: bad regular expression: backreferences');
  });
});

describe('matching', () => {
  it('keeps the meaning of the patterns scenarios use (unanchored search, ^ $, classes)', () => {
    const hash = 'ab'.repeat(32);
    expect(matchValue(true, hash, { matches: '^[0-9a-f]{64}$' })).toBeUndefined();
    expect(matchValue(true, `${hash}0`, { matches: '^[0-9a-f]{64}$' })).toBeDefined();
    expect(matchValue(true, ADDRESS, { matches: '^SC1' })).toBeUndefined();
    expect(matchValue(true, ADDRESS, { matches: 'TorbMn' })).toBeUndefined();
    expect(matchValue(true, 'line1\nline2', { matches: '^line2$' })).toBeDefined();
    expect(matchValue(true, 1234n, { matches: '^\\d+$' })).toBeUndefined();
    expect(matchValue(true, 'Grüße', { matches: '^Gr.ße$' })).toBeUndefined();
  });

  it('a pattern that arrives through a placeholder is checked when it is used', () => {
    expect(matchValue(true, 'aa', { matches: '(a)\\1' })?.note).toMatch(/^bad regular expression: backreferences/);
  });

  it('does not look at values over 64 KiB, saying so', () => {
    const m = matchValue(true, 'a'.repeat(65537), { matches: 'a' });
    expect(m?.note).toBe(
      'the value is 65537 characters long; matches looks at values of at most 65536 characters (check a shorter field, or use contains)',
    );
  });
});
