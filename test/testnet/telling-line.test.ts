// The line a "died while mining" error quotes (testnet/testnet-object.ts tellingLine): the error, wherever it arrived
// in the tail, since a program's stdout and stderr are two pipes read in no fixed order.
import { describe, expect, it } from 'vitest';
import { tellingLine } from '../../harness/testnet/testnet-object.js';

describe('tellingLine', () => {
  it('quotes the last error line, even when another line arrived after it', () => {
    const ts = '2026-11-26 22:57:50.912';
    expect(
      tellingLine([
        `${ts}\tI Found block <aa> at height 1967 for difficulty: 500`,
        `${ts}\tE Failed to write the blockchain to /wd/daemon: No space left on device`,
        `${ts}\tI Found block <bb> at height 1968 for difficulty: 500`,
      ]),
    ).toBe(`${ts}\tE Failed to write the blockchain to /wd/daemon: No space left on device`);
    expect(tellingLine(['a line', 'Error: ENOSPC: no space left on device, write', 'another'])).toBe(
      'Error: ENOSPC: no space left on device, write',
    );
  });

  it('quotes the last line when none is an error, and nothing for an empty tail', () => {
    expect(tellingLine(['one', `x\tI Found block`])).toBe(`x\tI Found block`);
    expect(tellingLine([])).toBeUndefined();
  });
});
