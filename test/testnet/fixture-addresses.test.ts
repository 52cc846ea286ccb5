// The addresses the fixture wallet files list: a cold build mines to them while the wallet CLI restores the wallets,
// so they must be what the seeds give: the simulator's derivation here (the real one: test/sim/crypto/carrot.test.ts),
// real Salvium's in test/real/1-up.cases.ts. A build whose restored wallets differ mines its blocks again
// (test/testnet/sim.test.ts: programs that restore another seed).
import { describe, expect, it } from 'vitest';
import { walletFromSeed } from '../../harness/sim/crypto/keys.js';
import { wordsToSeed } from '../../harness/sim/crypto/mnemonic.js';
import { addressMismatch, fixtureAddresses, fixtureWallet } from '../../harness/testnet/programs/fixture-wallets.js';

describe('fixture wallet addresses', () => {
  it("list, for the simulator, the addresses its keys derive from each seed, which are real Salvium's", () => {
    const known = fixtureAddresses('sim')!;
    for (const name of ['miner', 'main'] as const) {
      const w = walletFromSeed(wordsToSeed(fixtureWallet(name).seed), 'testnet');
      expect(known[name]).toEqual({ cn: w.cn.address, carrot: w.carrot.address });
      expect(fixtureAddresses('salvium')![name]).toEqual(known[name]);
    }
  });

  it('are absent for a backend no file lists (monero): the build restores first, then mines', () => {
    expect(fixtureAddresses('monero')).toBeUndefined();
  });

  it('a restored wallet that differs from the listed one is named, with the file and both addresses', () => {
    const known = fixtureAddresses('sim')!;
    expect(addressMismatch(known, { ...known }, 'sim')).toBeUndefined();
    const other = { cn: 'SaLvTyOTHER', carrot: 'SC1TOTHER' };
    expect(addressMismatch(known, { miner: known.miner, main: other }, 'sim')).toBe(
      `fixtures/wallets/main.json lists ${known.main.cn} / ${known.main.carrot} for sim, but the wallet CLI restored SaLvTyOTHER / SC1TOTHER from its seed`,
    );
    expect(addressMismatch(known, { miner: known.miner }, 'sim')).toMatch(/restored nothing from its seed$/);
  });
});
