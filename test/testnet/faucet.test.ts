// The faucet's refusals that need no chain: an asset that cannot be one is said quoted (a control character in it
// never reaches the terminal raw), before the faucet asks the wallet anything.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../../harness/coin/backends.js';
import { payFromMain, type FaucetDeps } from '../../harness/testnet/mining/faucet.js';

const asked: string[] = [];
const deps = {
  spec: BACKENDS.sim,
  daemon: { height: async () => (asked.push('height'), 1300) },
  main: {
    refresh: async () => void asked.push('refresh'),
    call: async (m: string) => (asked.push(m), {}),
  },
  mineTo: async (h: number) => h,
} as unknown as FaucetDeps;

describe('fund: the asset', () => {
  it('refuses one that is not letters and digits, quoted, before asking the wallet', async () => {
    await expect(payFromMain(deps, { address: 'SC1T', amount: 1n, asset: 'X\u001b[31m' })).rejects.toThrow(
      `"X\\u001b[31m" is not an asset type: give SAL1 or a token's asset type (sal and its ticker, e.g. salTST1)`,
    );
    expect(asked).toEqual([]);
  });
});
