// The chain state's difficulty and the served one: which difficulty a state is mined at (and so
// its key), which RandomX mode a daemon runs in, and what the daemon's environment then says.
import { describe, expect, it } from 'vitest';
import { BACKENDS, FULL_RANDOMX_FROM, randomxMode } from '../../harness/coin/backends.js';
import { resolveBackend } from '../../harness/testnet/programs/binaries.js';
import { chainKey, chainSpecFor } from '../../harness/testnet/chain/chain-cache.js';
import { sameSettings } from '../../harness/testnet/programs/daemon.js';

const sim = resolveBackend('sim');

describe('the prefix difficulty', () => {
  it('is 1 whatever difficulty is served (cheap, the default), or the served one (same)', () => {
    expect(chainSpecFor(sim, {})).toMatchObject({ difficulty: 500, prefixDifficulty: 1 });
    expect(chainSpecFor(sim, { difficulty: 7 })).toMatchObject({ difficulty: 7, prefixDifficulty: 1 });
    expect(chainSpecFor(sim, { difficulty: 7, prefixDifficulty: 'cheap' })).toMatchObject({ prefixDifficulty: 1 });
    expect(chainSpecFor(sim, { difficulty: 7, prefixDifficulty: 'same' })).toMatchObject({
      difficulty: 7,
      prefixDifficulty: 7,
    });
  });

  it('names the key: the same key for every served difficulty, another one for a prefix mined at it', async () => {
    const at = async (o: Parameters<typeof chainSpecFor>[1]): Promise<string> => chainKey(sim, chainSpecFor(sim, o));
    const k = await at({});
    expect(k).toMatch(/^sim-d1-h1201-[0-9a-f]{12}$/);
    expect(await at({ difficulty: 1 })).toBe(k);
    expect(await at({ difficulty: 100_000 })).toBe(k);
    expect(await at({ difficulty: 1, prefixDifficulty: 'same' })).toBe(k);
    expect(await at({ prefixDifficulty: 'same' })).toMatch(/^sim-d500-h1201-/);
  });
});

describe('the RandomX mode', () => {
  it('auto is full from difficulty 100, light below; a choice is kept; the simulator has none', () => {
    const s = BACKENDS.salvium;
    expect(randomxMode(s, 'auto', 500)).toBe('full');
    expect(randomxMode(s, 'auto', FULL_RANDOMX_FROM)).toBe('full');
    expect(randomxMode(s, 'auto', FULL_RANDOMX_FROM - 1)).toBe('light');
    expect(randomxMode(s, 'auto', 1)).toBe('light');
    expect(randomxMode(s, 'light', 500)).toBe('light');
    expect(randomxMode(s, 'full', 1)).toBe('full');
    expect(randomxMode(BACKENDS.monero, 'auto', 500)).toBe('full');
    expect(randomxMode(BACKENDS.sim, 'full', 500)).toBeUndefined();
  });

  it('is the daemon environment salviumd reads: the dataset masked off (light) or built from start (full)', () => {
    expect(BACKENDS.salvium.randomx?.light).toEqual({ MONERO_RANDOMX_UMASK: '4' });
    expect(BACKENDS.salvium.randomx?.full).toEqual({ MONERO_RANDOMX_FULL_MEM: '1' });
    expect(BACKENDS.sim.randomx).toBeUndefined();
  });

  it('is part of a daemon setting: a change of either means a restart', () => {
    expect(sameSettings({ difficulty: 500, randomx: 'full' }, { difficulty: 500, randomx: 'full' })).toBe(true);
    expect(sameSettings({ difficulty: 1, randomx: 'light' }, { difficulty: 500, randomx: 'light' })).toBe(false);
    expect(sameSettings({ difficulty: 500, randomx: 'light' }, { difficulty: 500, randomx: 'full' })).toBe(false);
    expect(sameSettings({ difficulty: 500 }, { difficulty: 500 })).toBe(true);
  });
});
