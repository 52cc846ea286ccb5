// Regular expressions that come from scenario files (`matches:`, also inside expect_error's message
// matcher), run by RE2 (the re2js port): matching takes time linear in the text, whatever the
// pattern, so a pattern such as ^([A-Za-z0-9]+)+!$ cannot hang the harness (JavaScript's own engine
// backtracks: that one spins forever on a long address). RE2 has no backreferences and no
// lookaround; a pattern that needs them is refused when the file is read, saying so.
import { RE2JS } from 're2js';
import { MAX_PATTERN_LENGTH, MAX_SUBJECT_LENGTH } from './bounds.js';

/** What a `matches` operand must be, for messages, the schema and the docs. */
export const REGEX_EXPECTED =
  'a regular expression in RE2 syntax (JavaScript\'s without backreferences or lookaround), e.g. "^[0-9a-f]{64}$"';

/** What a pattern that JavaScript takes but RE2 does not uses instead, in words. */
function re2Refusal(pattern: string, re2Message: string): string {
  const why = 'scenario regular expressions run on RE2, which matches in linear time';
  if (/\\[1-9]|\\k</.test(pattern)) return `backreferences (\\1, \\k<name>) are not supported: ${why} and has none`;
  if (/\(\?<?[=!]/.test(pattern))
    return `lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: ${why} and has none`;
  if (/\\u[0-9A-Fa-f{]/.test(pattern)) return 'RE2 writes a character by its code as \\x{0041}, not \\u0041';
  if (/\\c[A-Za-z]/.test(pattern)) return 'RE2 has no \\cX control escapes; write \\x{01}…\\x{1f}';
  const count = /invalid repeat count: `([^`]*)`/.exec(re2Message);
  if (count)
    return `the repeat count ${count[1]} is too large for RE2: a count is at most 1000, and nested counts may not multiply past 1000`;
  return `RE2 cannot take it (${re2Message.replace(/^error parsing regexp: /, '')})`;
}

/**
 * Why `pattern` cannot be used in a scenario (too long, not a regular expression, or not one RE2 takes); undefined when
 * it can.
 */
export function regexProblem(pattern: string): string | undefined {
  return compile(pattern).error;
}

/**
 * A test of `pattern` by RE2 (time linear in the text, whatever the pattern: `saltnet run --grep`); throws, saying why,
 * when the pattern cannot be used.
 */
export function regexMatcher(pattern: string): (text: string) => boolean {
  const { re, error } = compile(pattern);
  if (!re) throw new Error(error ?? 'not a regular expression');
  return (text) => re.test(text);
}

/** Compiled patterns, so that a wait's many tries compile theirs once; cleared when it grows. */
const cache = new Map<string, { re?: RE2JS; error?: string }>();

function compile(pattern: string): { re?: RE2JS; error?: string } {
  const known = cache.get(pattern);
  if (known) return known;
  let out: { re?: RE2JS; error?: string };
  if (pattern.length > MAX_PATTERN_LENGTH) {
    out = {
      error: `the pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_LENGTH} (a longer one is no clearer and costs more to match)`,
    };
  } else {
    try {
      out = { re: RE2JS.compile(pattern) };
    } catch (e) {
      let jsError: string | undefined;
      try {
        // Compiling a JavaScript RegExp runs nothing: no backtracking here, only its syntax check.
        new RegExp(pattern);
      } catch (je) {
        jsError = (je as Error).message;
      }
      out = { error: jsError ?? re2Refusal(pattern, (e as Error).message) };
    }
  }
  if (cache.size >= 500) cache.clear();
  cache.set(pattern, out);
  return out;
}

/**
 * Whether `pattern` matches somewhere in `text` (as JavaScript's RegExp.test, without flags), by
 * RE2. `error` when the pattern cannot be used or the text is longer than MAX_SUBJECT_LENGTH.
 */
export function regexTest(pattern: string, text: string): { matched: boolean; error?: undefined } | { error: string } {
  const c = compile(pattern);
  if (!c.re) return { error: `bad regular expression: ${c.error ?? 'unknown problem'}` };
  if (text.length > MAX_SUBJECT_LENGTH) {
    return {
      error: `the value is ${text.length} characters long; matches looks at values of at most ${MAX_SUBJECT_LENGTH} characters (check a shorter field, or use contains)`,
    };
  }
  return { matched: c.re.test(text) };
}
