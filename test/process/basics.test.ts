import { afterEach, describe, expect, it } from 'vitest';
import { formatCommandLine, redact, shellQuote } from '../../harness/common/redact.js';
import { resetTimeoutFactor, scaled, setTimeoutFactor, timeoutFactor } from '../../harness/common/timeouts.js';

describe('redact', () => {
  it('replaces every occurrence of every secret, longest first, ignoring empty secrets', () => {
    expect(redact('pw=hunter2 again hunter2', ['hunter2'])).toBe('pw=*** again ***');
    expect(redact('abcdef abc', ['abc', 'abcdef', ''])).toBe('*** ***');
    expect(redact('a.b a+b', ['a.b'])).toBe('*** a+b'); // secrets are literal, not regexps
    expect(redact('nothing here', [])).toBe('nothing here');
  });

  it('formats a shell-quoted command line with secrets redacted', () => {
    expect(shellQuote('')).toBe("''");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    const line = formatCommandLine(
      '/opt/bin/salvium-wallet-cli',
      ['--password', 's3cret', '--rpc-login=user:s3cret', '--note', 'two words', "o'neil"],
      ['s3cret'],
    );
    expect(line).toBe(
      `/opt/bin/salvium-wallet-cli --password *** --rpc-login=user:*** --note 'two words' 'o'\\''neil'`,
    );
    expect(line).not.toContain('s3cret');
    // A secret with a quote or a space is found before quoting changes it.
    expect(formatCommandLine('x', ["pa ss'word"], ["pa ss'word"])).toBe('x ***');
  });
});

describe('timeouts', () => {
  afterEach(() => {
    resetTimeoutFactor();
    delete process.env['SALTNET_TIMEOUT_FACTOR'];
  });

  it('scales by the factor set, else SALTNET_TIMEOUT_FACTOR, else 1', () => {
    expect(scaled(1000)).toBe(1000);
    setTimeoutFactor(2.5);
    expect(scaled(1000)).toBe(2500);
    expect(scaled(Infinity)).toBe(Infinity);
    resetTimeoutFactor();
    process.env['SALTNET_TIMEOUT_FACTOR'] = '3';
    expect(timeoutFactor()).toBe(3);
    expect(scaled(10)).toBe(30);
  });

  it('rejects a factor that is not positive', () => {
    expect(() => setTimeoutFactor(0)).toThrow(/positive/);
    expect(() => setTimeoutFactor(Number.NaN)).toThrow(/positive/);
    process.env['SALTNET_TIMEOUT_FACTOR'] = 'fast';
    expect(() => scaled(1)).toThrow(/SALTNET_TIMEOUT_FACTOR/);
  });
});
