// saltnet/vitest's helpers for several nodes (partition, heal, sync, mineOn) on a testnet of one node:
// each says what is missing instead of failing somewhere inside.
import { describe, expect, it } from 'vitest';
import { heal, mineOn, partition, sync, type SaltnetContext } from '../../harness/vitest/index.js';

const oneNode = {
  version: 1,
  daemonUrl: 'http://127.0.0.1:1',
  wallet: { url: 'http://127.0.0.1:2' },
} as unknown as SaltnetContext;

describe('saltnet/vitest on a testnet of one node', () => {
  it.each([
    ['partition', () => partition(oneNode, [['n0'], ['n1']])],
    ['heal', () => heal(oneNode)],
    ['sync', () => sync(oneNode)],
    ['mineOn', () => mineOn(oneNode, 'n1', 1)],
  ])('%s says the testnet has one node and how to get more', async (name, fn) => {
    await expect(fn()).rejects.toThrow(
      `${name}: this testnet has one node, n0 (set nodes: 2 or more in the saltnet config or the setup)`,
    );
  });
});
