// The testnet pool's bounds (harness/pool/testnets.ts): memory, cores, what was asked for, the workers; and the memory
// one testnet takes by backend and RandomX mode.
import { describe, expect, it } from 'vitest';
import { optionsKey, poolCapacity, testnetMemory } from '../../harness/pool/testnets.js';
import { BACKENDS } from '../../harness/coin/backends.js';

const GiB = 2 ** 30;

describe('poolCapacity', () => {
  it('takes the lower of the memory and cores bounds, and at least two', () => {
    expect(poolCapacity({ cores: 2, freeBytes: 20 * GiB, perTestnet: 0.2 * GiB }).capacity).toBe(2);
    expect(poolCapacity({ cores: 16, freeBytes: 10 * GiB, perTestnet: 2.7 * GiB }).capacity).toBe(2);
    expect(poolCapacity({ cores: 1, freeBytes: 20 * GiB, perTestnet: 0.2 * GiB }).capacity).toBe(2);
  });

  it('one where memory holds one only; one start at a time per two cores', () => {
    const c = poolCapacity({ cores: 8, freeBytes: 3 * GiB, perTestnet: 2.7 * GiB });
    expect([c.capacity, c.starting]).toEqual([1, 1]);
    expect(poolCapacity({ cores: 8, freeBytes: 64 * GiB, perTestnet: 0.2 * GiB }).starting).toBe(4);
  });

  it('what was asked for, but never fewer than the workers', () => {
    expect(poolCapacity({ cores: 2, freeBytes: 20 * GiB, perTestnet: 0.2 * GiB, max: 5 }).capacity).toBe(5);
    const c = poolCapacity({ cores: 2, freeBytes: 20 * GiB, perTestnet: 0.2 * GiB, max: 1, min: 3 });
    expect(c.capacity).toBe(3);
    expect(c.why).toBe('up to 3 testnets at once, 1 starting at a time (1 asked for, raised to the 3 workers)');
    expect(poolCapacity({ cores: 2, freeBytes: 1 * GiB, perTestnet: 2.7 * GiB, min: 4 }).capacity).toBe(4);
  });

  it('says its bounds in plain words: how many at once, what one needs, what memory and cores allow', () => {
    expect(poolCapacity({ cores: 2, freeBytes: 22.2 * GiB, perTestnet: 0.2 * GiB }).why).toBe(
      'up to 2 testnets at once, 1 starting at a time (each needs about 0.2 GiB: 80% of the 22.2 GiB free holds 88; the 2 cores allow 2)',
    );
    expect(poolCapacity({ cores: 1, freeBytes: 1 * GiB, perTestnet: 2.7 * GiB, min: 3 }).why).toBe(
      'up to 3 testnets at once, 1 starting at a time (each needs about 2.7 GiB: 80% of the 1.0 GiB free holds 1; the 1 core allows 2; the 3 workers need 3)',
    );
    expect(poolCapacity({ cores: 2, freeBytes: 20 * GiB, perTestnet: 0.2 * GiB, max: 1 }).why).toBe(
      'up to 1 testnet at once, 1 starting at a time (as asked)',
    );
  });
});

describe('testnetMemory', () => {
  it('a real daemon in full mode holds its dataset; light mode, saltnet’s own miner and the simulator do not', () => {
    expect(testnetMemory(BACKENDS.salvium!, { miner: 'daemon' }) / GiB).toBeCloseTo(2.7); // 500: full
    // saltnet hashes the blocks: the daemon verifies in light mode; the process's one dataset is no testnet's cost.
    expect(testnetMemory(BACKENDS.salvium!, { miner: 'saltnet' }) / GiB).toBeCloseTo(0.6);
    expect(testnetMemory(BACKENDS.salvium!, { difficulty: 1 }) / GiB).toBeCloseTo(0.6);
    expect(testnetMemory(BACKENDS.salvium!, { nodes: 2, randomx: 'light' }) / GiB).toBeCloseTo(0.9);
    expect(testnetMemory(BACKENDS.sim!, { nodes: 2 }) / GiB).toBeCloseTo(0.3);
  });
});

describe('optionsKey', () => {
  it('is the same for the same options in any order, functions aside; bigints count', () => {
    const log = (): void => undefined;
    expect(optionsKey({ height: 10, backend: 'sim', log })).toBe(optionsKey({ backend: 'sim', height: 10 }));
    expect(optionsKey({ unlocked: 1n })).not.toBe(optionsKey({ unlocked: 2n }));
  });
});
